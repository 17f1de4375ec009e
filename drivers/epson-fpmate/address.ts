import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { type EpsonFpmateOptions, FROM_PLATFORM } from './config.js';
import { epsonRefusals as r } from './messages-refusals.js';

/**
 * Where receipts go. The trust boundary: the printer's address comes from the configuration.
 * The platform's `ApiUrl` is used only with `url: fromPlatform`, and then only when it names a
 * host the configuration lists in `allowedHosts` (a host entry without a port allows any port);
 * otherwise the command is refused with COMMAND_INVALID before anything is sent.
 */
export function printerAddress(options: EpsonFpmateOptions, apiUrl: string | undefined): string {
  if (options.url !== FROM_PLATFORM) return options.url;
  if (!apiUrl) {
    throw new AgentError('COMMAND_INVALID', 'No printer address: the command carries no ApiUrl', {
      notes: r.noApiUrl(),
    });
  }
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw refused('an address that is not a URL', r.addressNotUrl());
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused('an address that is not http(s)', r.addressNotHttp());
  if (!isAllowed(url, options.allowedHosts ?? []))
    throw refused(`the host ${url.host}, which is not allowed`, r.hostNotAllowed({ host: url.host }));
  return url.origin;
}

function refused(what: string, words: Message): AgentError {
  return new AgentError('COMMAND_INVALID', `Printer address refused: the command’s ApiUrl names ${what}`, {
    notes: r.addressRefused({ what: words }),
  });
}

/** True when `url`'s host is one of `allowed` (`host` or `host:port`, case-insensitive). */
export function isAllowed(url: URL, allowed: readonly string[]): boolean {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowed.some((entry) => {
    const e = new URL(`http://${entry}`);
    if (e.hostname !== url.hostname) return false;
    return !/:\d+$/.test(entry) || e.port === port || (e.port === '' && port === '80');
  });
}
