import { AgentError } from '../../src/errors.js';
import type { Message, MessageArg } from '../../src/messages/message.js';
import type { HttpClient } from '../../src/transport/http.js';
import { type PostOptions, type PostResult, postBody } from '../fiscal-it/rt/http.js';
import { epsonRefusals } from './messages-refusals.js';
import { epsonLink as l } from './messages-results.js';

export { failureOf, MAX_ANSWER_BYTES, type PostOptions, type PostResult } from '../fiscal-it/rt/http.js';

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

/** POSTs one SOAP document; never throws. An abort of `signal` counts as a lost answer. */
export function postXml(
  client: HttpClient,
  url: URL,
  xml: string,
  options: PostOptions,
): Promise<PostResult> {
  return postBody(client, url, xml, { ...options, contentType: 'text/xml; charset=utf-8' });
}
