import { execFile } from 'node:child_process';
import type { IppPrinterOptions } from './config.js';
import { configuredTargets } from './printers.js';

/**
 * Whether the jobs' owner (`user`, sent as `requesting-user-name`) is an account of this PC, where
 * that matters: a CUPS on this PC.
 *
 * Why it matters: CUPS 2.4.17's fix for CVE-2026-27447 looks the requesting user up with getpwnam
 * and, in the `@OWNER` test of `cupsdIsAuthorized`, reads the answer without checking it
 * (OpenPrinting/cups:scheduler/auth.c at tag v2.4.17). A Cancel-Job from an owner with no local
 * account therefore kills the scheduler — every queue on the PC stops until it restarts. CUPS
 * 2.4.18 fixed it (commit 6d97ee39f, "Fix cupsd crash if user does not exist on server"); Debian 12's
 * `cups 2.4.2-3+deb12u10` carries the CVE fix without that one (a real cupsd segfaulted here at
 * the CUPS suite's cancel test). The service account (`User=frontdesk-agent`) always exists; a
 * hand-picked `user` may not, so the driver warns rather than refuses: printing itself is safe.
 */

/** True when the address names this PC (a CUPS here, not a printer or a print server elsewhere). */
export function isThisPc(uri: string): boolean {
  let host: string;
  try {
    host = new URL(uri).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A queue of the CUPS on this PC: loopback, CUPS's port (631, IPP's default) and a queue path. */
function isLocalCupsQueue(uri: string): boolean {
  if (!isThisPc(uri)) return false;
  const url = new URL(uri);
  return (url.port === '' || url.port === '631') && /^\/(printers|classes)\//.test(url.pathname);
}

/** Whether any job of this configuration may go through the CUPS on this PC (port 631). */
export function usesLocalCups(options: IppPrinterOptions): boolean {
  if (options.cupsQueues && isThisPc(options.cupsUrl)) return true;
  return configuredTargets(options).some((t) => isLocalCupsQueue(t.uri));
}

/**
 * Asks the system's account database (`getent passwd`, which follows NSS: files, systemd's
 * dynamic users, LDAP) whether `name` is an account here. Undefined when it cannot tell (no
 * getent, a timeout): unknown is never reported as missing.
 */
export function hasLocalAccount(name: string, timeoutMs = 2000): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    execFile('getent', ['passwd', name], { timeout: timeoutMs }, (error) => {
      if (!error) resolve(true);
      // getent(1): exit status 2 means "one or more supplied key could not be found".
      else resolve(typeof error.code === 'number' && error.code === 2 ? false : undefined);
    });
  });
}
