import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `frontdesk-agent login --open`: hands the one-time login address to the browser without putting
 * it on any command line (issue 40, finding M3: the address in `xdg-open`'s and the browser's
 * argv is readable by every account in `/proc/<pid>/cmdline`). The address goes into a page of
 * its own — a file only this user can read (mode 0600, in a fresh directory of mode 0700 in the
 * user's runtime directory) that sends the browser on to it — and `xdg-open` is given the file's
 * path, which holds no secret. The file is removed when the address expires: a short shell
 * sleeps that long, detached, and deletes the directory. (The code is bound to this user anyway:
 * another account that read it could not use it, src/status/callers/staff-sessions.ts.)
 */

export interface OpenedLogin {
  /** The page's path (what the opener was given). */
  page: string;
}

/** The page that sends the browser on to `url` at once; `url` is escaped for an attribute. */
export function redirectPage(url: string): string {
  const attribute = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${attribute}"><title>frontdesk-agent</title>\n`;
}

/**
 * Writes the page and starts `opener` (default `xdg-open`) on it, detached; schedules the page's
 * removal after `expiresInSeconds`. Rejects when the page cannot be written; an opener that
 * cannot start is reported through `onOpenerError` (the address still works when typed).
 */
export function openLogin(
  url: string,
  expiresInSeconds: number,
  env: NodeJS.ProcessEnv,
  onOpenerError: (error: Error) => void,
  opener = 'xdg-open',
): OpenedLogin {
  const runtime = env.XDG_RUNTIME_DIR && existsSync(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : tmpdir();
  const dir = mkdtempSync(join(runtime, 'frontdesk-login-'));
  const page = join(dir, 'login.html');
  writeFileSync(page, redirectPage(url), { mode: 0o600 });
  const browser = spawn(opener, [pathToFileURL(page).href], { detached: true, stdio: 'ignore', env });
  browser.on('error', onOpenerError);
  browser.unref();
  const cleaner = spawn(
    'sh',
    ['-c', 'sleep "$1"; rm -rf -- "$2"', 'sh', String(Math.max(1, expiresInSeconds)), dir],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  cleaner.on('error', () => undefined);
  cleaner.unref();
  return { page };
}
