import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { AgentError } from '../../../src/errors.js';

/** A printer's HTTP Basic account. */
export interface PrinterCredentials {
  user: string;
  password: string;
}

/**
 * The printer's account from `credentialsFile` (issue 40, low finding: the password need not sit
 * in agent.yaml). The file holds one line, `user:password` (the password may contain `:`); it is
 * refused, as the agent's token files are (`src/config.ts` `readTokenFile`), when group or others
 * may read it — which a systemd credential (`LoadCredential=printer:/etc/frontdesk-agent/printer`,
 * read from `/run/credentials/<unit>/printer`, mode 0400) never is. Errors name the file and the
 * fix, never its content.
 */
export function readPrinterCredentials(path: string): PrinterCredentials {
  const line = ownerOnlyText(path);
  const colon = line.indexOf(':');
  if (colon <= 0 || colon === line.length - 1 || line.includes('\n')) {
    throw new AgentError(
      'CONFIG_INVALID',
      `The printer credentials file ${path} must hold one line, user:password`,
    );
  }
  return { user: line.slice(0, colon), password: line.slice(colon + 1) };
}

/** The trimmed text of an owner-only file; CONFIG_INVALID otherwise (unreadable, shared, empty). */
function ownerOnlyText(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new AgentError('CONFIG_INVALID', `Cannot read the printer credentials file ${path} (${code})`);
  }
  try {
    const shared = fstatSync(fd).mode & 0o077;
    if (shared) {
      throw new AgentError(
        'CONFIG_INVALID',
        `The printer credentials file ${path} can be read by other users; the agent refuses it. Run: chmod 600 ${path}`,
      );
    }
    return readFileSync(fd, 'utf8').trim();
  } finally {
    closeSync(fd);
  }
}
