import { readFileSync } from 'node:fs';
import type { TLSSocket } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import { AgentError } from '../../src/errors.js';
import { linkSignals } from '../../src/signals.js';
import type { EpsonFpmateOptions } from './config.js';

/**
 * HTTP(S) to fpmate.cgi. One POST per document; what can be known about a failed POST is kept
 * apart carefully, since it decides whether a receipt may be sent again:
 * - `answer`: the printer's web service answered (any HTTP status);
 * - `not-sent`: the request certainly never reached the printer (refused, no route, DNS,
 *   certificate refused) — nothing can have been printed;
 * - `lost`: the request may have arrived (timeout, connection dropped mid-way).
 */
export type PostResult =
  | { kind: 'answer'; httpStatus: number; body: string }
  | { kind: 'not-sent'; reason: string }
  | { kind: 'lost'; reason: string };

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'FPMATE_FINGERPRINT_MISMATCH',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof e.code === 'string') codes.push(e.code);
    if (Array.isArray(e.errors)) for (const inner of e.errors) codes.push(...errorCodes(inner));
    current = e.cause;
  }
  return codes;
}

/** Says whether a fetch failure happened before the request could reach the printer. */
export function classifyFailure(error: unknown): PostResult {
  const codes = errorCodes(error);
  const reason = codes[0] ?? (error instanceof Error ? error.name : 'error');
  return codes.some((c) => NOT_SENT_CODES.has(c)) ? { kind: 'not-sent', reason } : { kind: 'lost', reason };
}

/**
 * The fpmate endpoint for a printer address: `http(s)://host[:port]/cgi-bin/fpmate.cgi` with
 * `devid` and `timeout` (ms). An address that already names fpmate.cgi keeps its path. Rejects
 * with COMMAND_INVALID for anything that is not an http(s) address.
 */
export function fpmateEndpoint(address: string, devid: string, timeoutMs: number): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new AgentError('COMMAND_INVALID', `Printer address "${address}" is not a URL`, {
      notes:
        'The fiscal printer’s address is not valid; nothing was printed. Ask IT to set the printer address.',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AgentError('COMMAND_INVALID', `Printer address "${url.origin}" is not http(s)`, {
      notes: 'The fiscal printer’s address is not an http(s) address; nothing was printed. Ask IT to set it.',
    });
  }
  if (!url.pathname.endsWith('fpmate.cgi')) url.pathname = '/cgi-bin/fpmate.cgi';
  url.search = '';
  url.hash = '';
  url.username = '';
  url.password = '';
  url.searchParams.set('devid', devid);
  url.searchParams.set('timeout', String(timeoutMs));
  return url;
}

/**
 * The undici dispatcher for HTTPS options: a configured CA, a pinned SHA-256 certificate
 * fingerprint (checked on every connection, self-signed or not), or — only when `insecure` is
 * set — no verification. Undefined when the defaults apply. Rejects with CONFIG_INVALID when the
 * CA file cannot be read.
 */
export function tlsDispatcher(tls: EpsonFpmateOptions['tls']): Agent | undefined {
  if (!tls || (!tls.caFile && !tls.fingerprint && !tls.insecure && !tls.serverName)) return undefined;
  let ca: Buffer | undefined;
  if (tls.caFile) {
    try {
      ca = readFileSync(tls.caFile);
    } catch (e) {
      throw new AgentError(
        'CONFIG_INVALID',
        `Cannot read the printer CA file ${tls.caFile}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
  }
  const pinned = tls.fingerprint;
  const base = buildConnector({
    ...(ca ? { ca } : {}),
    ...(tls.serverName ? { servername: tls.serverName } : {}),
    // A pinned fingerprint replaces chain validation (self-signed printers); checked below on
    // every connection, so TLS sessions are not resumed (a resumed one shows no certificate).
    rejectUnauthorized: !(tls.insecure || (pinned && !ca)),
    ...(pinned ? { maxCachedSessions: 0 } : {}),
  });
  if (!pinned) return new Agent({ connect: base });
  return new Agent({
    connect: (opts, callback) =>
      base(opts, (error, socket) => {
        if (error || !socket) {
          callback(error ?? new Error('no socket'), null);
          return;
        }
        const presented = (socket as TLSSocket).getPeerCertificate?.().fingerprint256;
        if (presented?.toUpperCase() !== pinned) {
          socket.destroy();
          const mismatch = Object.assign(new Error('printer certificate fingerprint does not match'), {
            code: 'FPMATE_FINGERPRINT_MISMATCH',
          });
          callback(mismatch, null);
          return;
        }
        callback(null, socket);
      }),
  });
}

export interface PostOptions {
  fetch: typeof fetch;
  dispatcher: Agent | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** POSTs one SOAP document; never throws. */
export async function postXml(url: URL, xml: string, options: PostOptions): Promise<PostResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  // Not AbortSignal.any: the driver's own signal lives as long as the driver (src/signals.ts).
  const { signal, unlink } = linkSignals(timeout, options.signal);
  const init: RequestInit = {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8' },
    body: xml,
    signal,
  };
  // npm undici's Agent is the same dispatcher Node's fetch runs on; only the type copies differ.
  if (options.dispatcher) init.dispatcher = options.dispatcher as unknown as RequestInit['dispatcher'];
  try {
    const response = await options.fetch(url, init);
    const body = await response.text();
    return { kind: 'answer', httpStatus: response.status, body };
  } catch (error) {
    if (options.signal?.aborted && !timeout.aborted) return { kind: 'lost', reason: 'aborted' };
    return classifyFailure(error);
  } finally {
    unlink();
  }
}
