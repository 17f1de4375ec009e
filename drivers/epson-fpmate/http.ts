import { AgentError } from '../../src/errors.js';
import type { Message, MessageArg } from '../../src/messages/message.js';
import { type HttpClient, HttpFailure } from '../../src/transport/http.js';
import { epsonRefusals } from './messages-refusals.js';
import { epsonLink as l } from './messages-results.js';

/**
 * HTTP(S) to fpmate.cgi, on the agent's one HTTP stack (`ctx.http`, `src/transport/http.ts`).
 * One POST per document; what can be known about a failed POST is kept apart carefully, since it
 * decides whether a receipt may be sent again:
 * - `answer`: the printer's web service answered (any HTTP status);
 * - `not-sent`: the request certainly never reached the printer (`HttpFailure.sent` false:
 *   refused, no route, DNS, certificate refused) — nothing can have been printed;
 * - `lost`: the request may have arrived (timeout, connection dropped mid-way, an answer too
 *   large or broken at its end).
 */
export type PostResult =
  | { kind: 'answer'; httpStatus: number; body: string }
  | { kind: 'not-sent'; reason: string }
  | { kind: 'lost'; reason: string };

/**
 * The cap on a printer's answer, raw and decoded. A real answer is a few kilobytes (a status
 * answer with every RT field is under 2 KB); anything at the printer's address answering more —
 * 300 MB of it, say — is cut off here and counts as no answer.
 */
export const MAX_ANSWER_BYTES = 256 * 1024;

/** Human words for the stack's failure codes (the system error code wins when there is one). */
const REASONS: Record<string, string> = {
  HTTP_TOO_LARGE: 'answer too large',
  HTTP_TIMEOUT: 'timeout',
  HTTP_FINGERPRINT: 'certificate fingerprint mismatch',
  HTTP_TLS: 'certificate refused',
  HTTP_BROKEN: 'connection broken',
  HTTP_CONNECT: 'connection failed',
  HTTP_BAD_URL: 'bad address',
};

/**
 * A failure's reason as staff read it (in a summary "unreachable (…)", a Note): the words of the
 * reasons above and of the printer link's own (`link.ts`); a system error code (`ECONNREFUSED`)
 * or an HTTP status (`HTTP 500`) is shown as it is.
 */
export function reasonWords(reason: string): MessageArg {
  const words: Record<string, () => Message> = {
    'answer too large': l.answerTooLarge,
    timeout: l.timeout,
    'certificate fingerprint mismatch': l.fingerprintMismatch,
    'certificate refused': l.certificateRefused,
    'connection broken': l.connectionBroken,
    'connection failed': l.connectionFailed,
    'bad address': l.badAddress,
    'unreadable answer': l.unreadableAnswer,
    'no answer': l.noAnswer,
    aborted: l.aborted,
  };
  return words[reason]?.() ?? reason;
}

/** What a failed exchange means for a document: never sent, or maybe sent. */
export function failureOf(error: unknown): PostResult {
  if (error instanceof HttpFailure) {
    const reason =
      error.code === 'HTTP_TOO_LARGE' || error.code === 'HTTP_TIMEOUT'
        ? (REASONS[error.code] as string)
        : (error.systemCode ?? REASONS[error.code] ?? error.code);
    return error.sent ? { kind: 'lost', reason } : { kind: 'not-sent', reason };
  }
  return { kind: 'lost', reason: error instanceof Error ? error.name : 'error' };
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
      notes: epsonRefusals.printerAddressInvalid(),
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AgentError('COMMAND_INVALID', `Printer address "${url.origin}" is not http(s)`, {
      notes: epsonRefusals.printerAddressNotHttp(),
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

export interface PostOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** POSTs one SOAP document; never throws. An abort of `signal` counts as a lost answer. */
export async function postXml(
  client: HttpClient,
  url: URL,
  xml: string,
  options: PostOptions,
): Promise<PostResult> {
  try {
    const response = await client.request({
      method: 'POST',
      url,
      headers: { 'Content-Type': 'text/xml; charset=utf-8' },
      body: xml,
      timeoutMs: options.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      signal: options.signal,
    });
    return { kind: 'answer', httpStatus: response.status, body: response.body.toString('utf8') };
  } catch (error) {
    if (options.signal?.aborted && !(error instanceof HttpFailure))
      return { kind: 'lost', reason: 'aborted' };
    return failureOf(error);
  }
}
