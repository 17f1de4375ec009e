import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually.js';

/**
 * A pseudo-terminal pair made by socat: real serial I/O without hardware. `a` and `b` are stable
 * link names, so `stop()` + `start()` is an unplug and a replug on the same paths.
 */
export interface SocatPair {
  a: string;
  b: string;
  start(): Promise<void>;
  /** Kills socat: both ends vanish (open ports see a disconnect), the links disappear. */
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

export function socatPair(): SocatPair {
  const dir = mkdtempSync(join(tmpdir(), 'fda-pty-'));
  const a = join(dir, 'host');
  const b = join(dir, 'device');
  let child: ChildProcess | undefined;
  const pair: SocatPair = {
    a,
    b,
    async start() {
      if (child) return;
      const proc = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], {
        stdio: ['ignore', 'ignore', 'ignore'],
      });
      child = proc;
      await eventually('socat links', () => existsSync(a) && existsSync(b));
    },
    async stop() {
      const proc = child;
      child = undefined;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
      await eventually('socat links to vanish', () => !existsSync(a) && !existsSync(b));
    },
    async dispose() {
      await pair.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return pair;
}
