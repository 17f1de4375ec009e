import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

export interface SpawnOptions {
  /** Added to the test process's environment (PATH included unless replaced). */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Close the read end of stdout at once: every write of the CLI meets a closed pipe. */
  closeStdout?: boolean;
}

/**
 * Runs the real command line (`node --import tsx app/main.ts …`) as a child process, as a user
 * at a shell would, and resolves when it exits.
 */
export function spawnCli(args: readonly string[], options: SpawnOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'app', 'main.ts'), ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NOTIFY_SOCKET: '', JOURNAL_STREAM: '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    if (options.closeStdout) child.stdout.destroy();
    else child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, out, err }));
  });
}
