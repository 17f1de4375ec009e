#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=4 --max-old-space-size=512 --gc-memory-reducer-start-delay-ms=2000 --interrupt-budget=270336
import { guardClosedPipes } from '../src/cli/pipes.js';
import { Listeners } from '../src/listeners.js';
import { runCli } from './cli.js';

/*
 * The node flags in the first line are part of the product: the systemd launcher (install.sh), `npm
 * start` and the bench run node with the same ones. A small semi-space and an old-space cap make
 * V8 grow the heap by a fraction of its live size rather than a multiple, so a busy agent does not
 * sit on uncollected garbage, and V8's memory reducer returns a burst's garbage soon after the
 * agent goes quiet. MALLOC_ARENA_MAX=2 keeps glibc from giving each of node's threads its own
 * malloc arena. What each one saves: bench/RESULTS.md (Memory).
 */

/**
 * The only file that touches `process`: argv, environment, signals and the exit code. Everything
 * else receives them through `CliIo`.
 */
const handlers = new Listeners<['SIGTERM' | 'SIGINT']>();
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (handlers.size === 0) process.exit(signal === 'SIGINT' ? 130 : 143);
    handlers.emit(signal);
  });
}

// The process-level guard: no error that escapes every handler ends the daemon. `run` turns each
// into a logged fault and a health reason (src/supervision/escaped-faults.ts); without a listener it
// is one line on stderr, and an exception still ends a one-shot command (exit 1).
type EscapeOrigin = 'uncaughtException' | 'unhandledRejection';
// A throwing handler is ignored: the guard must not become the next escaped error.
const escapeHandlers = new Listeners<[unknown, EscapeOrigin]>();
const escaped = (origin: EscapeOrigin) => (error: unknown) => {
  escapeHandlers.emit(error, origin);
  if (escapeHandlers.size > 0) return;
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
  process.stderr.write(
    `frontdesk-agent: ${origin === 'uncaughtException' ? 'unexpected error' : 'unhandled rejection'}: ${text}\n`,
  );
  if (origin === 'uncaughtException') process.exit(1);
};
process.on('uncaughtException', escaped('uncaughtException'));
process.on('unhandledRejection', escaped('unhandledRejection'));

// `frontdesk-agent … | head -1`: a closed pipe ends a one-shot command quietly (see cli/pipes.ts).
guardClosedPipes(process.argv.slice(2), [process.stdout, process.stderr], (exitCode) =>
  process.exit(exitCode),
);

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  onSignal(handler) {
    return handlers.add(handler);
  },
  onEscapedError(handler) {
    return escapeHandlers.add(handler);
  },
});
process.exitCode = code;
// Give stdout a moment to drain, then leave even if a stray handle is still open.
setTimeout(() => process.exit(code), 200).unref();
