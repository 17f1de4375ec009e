#!/usr/bin/env node
import { runCli } from './cli.js';

/**
 * The only file that touches `process`: argv, environment, signals and the exit code. Everything
 * else receives them through `CliIo`.
 */
const handlers = new Set<(signal: 'SIGTERM' | 'SIGINT') => void>();
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (handlers.size === 0) process.exit(signal === 'SIGINT' ? 130 : 143);
    for (const handler of [...handlers]) handler(signal);
  });
}

process.on('unhandledRejection', (reason) => {
  // A bug, but the daemon keeps its journal consistent and goes on; the log says what happened.
  const text = reason instanceof Error ? reason.message : String(reason);
  process.stderr.write(`frontdesk-agent: unhandled rejection: ${text}\n`);
});

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  onSignal(handler) {
    handlers.add(handler);
    return () => handlers.delete(handler);
  },
});
process.exitCode = code;
// Give stdout a moment to drain, then leave even if a stray handle is still open.
setTimeout(() => process.exit(code), 200).unref();
