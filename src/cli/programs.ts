import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Running the system's own tools (systemctl, journalctl) from the CLI: found on the given PATH,
 * run without a shell, bounded in time and output, never throwing.
 */

/** The executable `name` on `env.PATH`, or undefined. */
export function findProgram(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

export interface ProgramRun {
  /** The exit code; -1 when it could not run, was killed, or overflowed `maxBytes`. */
  code: number;
  stdout: string;
  stderr: string;
}

export function runProgram(
  file: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; timeoutMs: number; maxBytes?: number },
): Promise<ProgramRun> {
  return new Promise((resolve) => {
    execFile(
      file,
      [...args],
      {
        env: options.env,
        timeout: options.timeoutMs,
        maxBuffer: options.maxBytes ?? 1024 * 1024,
        encoding: 'utf8',
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout: String(stdout), stderr: error && !stderr ? error.message : String(stderr) });
      },
    );
  });
}
