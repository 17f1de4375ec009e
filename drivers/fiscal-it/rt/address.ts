import { z } from 'zod';
import { AgentError } from '../../../src/errors.js';
import type { Message } from '../../../src/messages/message.js';
import { DeviceTlsSchema } from '../../../src/transport/tls-config.js';
import { rtKitWords } from './messages.js';

/**
 * Where an RT printer's documents go, for every family alike. The trust boundary: the printer's
 * address comes from the configuration. The platform's `ApiUrl` is used only with
 * `url: fromPlatform`, and then only when it names a host the configuration lists in
 * `allowedHosts`; otherwise the command is refused with COMMAND_INVALID before anything is sent.
 * A host entry without a port allows any port — except with a `tls` block (issue 40, low
 * finding): then only `https:` is accepted, and only the port the entry names (443 when it names
 * none), so the platform cannot steer the printer's documents and its Basic credentials to
 * plain `http:` or to another port of an allowed host.
 */

/** `url: fromPlatform`: the printer address comes from each command's ApiUrl, within `allowedHosts`. */
export const FROM_PLATFORM = 'fromPlatform';

export const httpUrl = z
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'expected an http:// or https:// address of the printer');

/** A host the platform's ApiUrl may name: `192.168.1.50`, `printer.lan`, `[fd00::5]`, with `:port` or not. */
export const allowedHost = z
  .string()
  .min(1)
  .refine((h) => {
    try {
      const u = new URL(`http://${h}`);
      return u.host === h.toLowerCase() || u.hostname === h.toLowerCase();
    } catch {
      return false;
    }
  }, 'expected a host name or IP address, optionally with :port (no scheme, no path)');

/**
 * The address options every RT family's schema spreads in: `url` (the printer's http(s)://
 * address, or `fromPlatform`), the `allowedHosts` `fromPlatform` may name, and the connection's
 * `tls`. `url` is required: the platform never decides by default where receipts go. `addressIssues`
 * checks them together; the family's README documents them.
 */
export const printerAddressFields = {
  url: z.union([z.literal(FROM_PLATFORM), httpUrl], {
    error: `expected the printer's http(s):// address, or ${FROM_PLATFORM} with allowedHosts`,
  }),
  allowedHosts: z.array(allowedHost).min(1).optional(),
  tls: DeviceTlsSchema.optional(),
};

/** The address options every RT family takes. */
export interface AddressOptions {
  url: string;
  allowedHosts?: string[] | undefined;
  /** The printer's TLS settings: present, only `https:` and only a configured port are accepted. */
  tls?: unknown;
}

/**
 * The rule between `url` and `allowedHosts` for a family's options schema (`.superRefine`):
 * `fromPlatform` needs the list, a fixed address takes none.
 */
export function addressIssues(o: AddressOptions, ctx: z.RefinementCtx): void {
  if (o.url === FROM_PLATFORM && o.allowedHosts === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['allowedHosts'],
      message: `url: ${FROM_PLATFORM} needs allowedHosts, the printers the platform may name`,
    });
  }
  if (o.url !== FROM_PLATFORM && o.allowedHosts !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['allowedHosts'],
      message: `allowedHosts applies only with url: ${FROM_PLATFORM}`,
    });
  }
}

/** A family's sentences for a refused address (each family keeps its own catalogue keys). */
export interface AddressWords {
  noApiUrl(): Message;
  addressNotUrl(): Message;
  addressNotHttp(): Message;
  hostNotAllowed(args: { host: string }): Message;
  addressRefused(args: { what: Message }): Message;
}

/** The printer's address for a command (see above); rejects with COMMAND_INVALID. */
export function printerAddress(options: AddressOptions, apiUrl: string | undefined, r: AddressWords): string {
  if (options.url !== FROM_PLATFORM) return options.url;
  if (!apiUrl) {
    throw new AgentError('COMMAND_INVALID', 'No printer address: the command carries no ApiUrl', {
      notes: r.noApiUrl(),
    });
  }
  const refused = (what: string, words: Message) =>
    new AgentError('COMMAND_INVALID', `Printer address refused: the command’s ApiUrl names ${what}`, {
      notes: r.addressRefused({ what: words }),
    });
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw refused('an address that is not a URL', r.addressNotUrl());
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused('an address that is not http(s)', r.addressNotHttp());
  const tls = options.tls !== undefined;
  if (tls && url.protocol !== 'https:')
    throw refused('plain http despite the tls block', rtKitWords.addressNotHttps());
  if (!isAllowed(url, options.allowedHosts ?? [], tls))
    throw refused(`the host ${url.host}, which is not allowed`, r.hostNotAllowed({ host: url.host }));
  return url.origin;
}

/**
 * True when `url`'s host is one of `allowed` (`host` or `host:port`, case-insensitive). An entry
 * without a port allows any port, or with `exactPort` (a `tls` block) only the scheme's default.
 */
export function isAllowed(url: URL, allowed: readonly string[], exactPort = false): boolean {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  return allowed.some((entry) => {
    const e = new URL(`http://${entry}`);
    if (e.hostname !== url.hostname) return false;
    if (!/:\d+$/.test(entry)) return !exactPort || port === defaultPort;
    return e.port === port || (e.port === '' && port === '80');
  });
}
