import { PassThrough } from 'node:stream';
import { runCli } from '../../app/cli.js';
import type { CliIo } from '../../src/cli/io.js';

/** What one in-process run of the command line printed, and its exit code. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Streams for `runCli` that collect everything written to them; `out()`/`err()` read it so far. */
export interface CliCapture {
  io: CliIo;
  out(): string;
  err(): string;
}

/**
 * Captured stdout/stderr and `env` for an in-process `runCli`. Signals are never delivered unless
 * `stopWhen` is given: then SIGTERM goes to the CLI's handler once `stopWhen` holds for what it
 * has printed so far (an event, not a delay).
 */
export function captureCli(env: NodeJS.ProcessEnv = {}, stopWhen?: (out: string) => boolean): CliCapture {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  stderr.on('data', (c: Buffer) => {
    err += c.toString('utf8');
  });
  const onSignal: CliIo['onSignal'] = (handler) => {
    if (!stopWhen) return () => undefined;
    let sent = false;
    const watch = () => {
      if (sent || !stopWhen(out)) return;
      sent = true;
      handler('SIGTERM');
    };
    stdout.on('data', watch);
    watch();
    return () => stdout.off('data', watch);
  };
  return { io: { stdout, stderr, env, onSignal }, out: () => out, err: () => err };
}

/** Runs the command line in-process with captured streams (see `captureCli`). */
export async function runCliCaptured(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = {},
  stopWhen?: (out: string) => boolean,
): Promise<CliRun> {
  const capture = captureCli(env, stopWhen);
  const code = await runCli(argv, capture.io);
  return { code, out: capture.out(), err: capture.err() };
}
