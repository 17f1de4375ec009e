import { readTokenFile } from '../../../src/config.js';
import { AgentError } from '../../../src/errors.js';

/** A printer's HTTP Basic account. */
export interface PrinterCredentials {
  user: string;
  password: string;
}

/**
 * The printer's account from `credentialsFile` (issue 40, low finding: the password need not sit
 * in agent.yaml). The file holds one line, `user:password` (the password may contain `:`); it is
 * read as the agent reads its tokens (`readTokenFile`): refused when group or others may read it,
 * which a systemd credential (`LoadCredential=printer:/etc/frontdesk-agent/printer`, read from
 * `/run/credentials/<unit>/printer`, mode 0400) never is. Errors name the file, never its content.
 */
export function readPrinterCredentials(path: string): PrinterCredentials {
  const line = readTokenFile(path, 'printer credentials');
  const colon = line.indexOf(':');
  if (colon <= 0 || colon === line.length - 1 || line.includes('\n')) {
    throw new AgentError(
      'CONFIG_INVALID',
      `The printer credentials file ${path} must hold one line, user:password`,
    );
  }
  return { user: line.slice(0, colon), password: line.slice(colon + 1) };
}
