import { type HttpClient, HttpFailure } from '../../../src/transport/http.js';

/**
 * HTTP(S) to an RT printer's web service, on the agent's one HTTP stack (`ctx.http`, `src/transport/http.ts`).
 * One POST per document, for every RT family; what can be known about a failed POST is kept apart carefully, since it
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
  HTTP_WITHHELD: 'withheld',
};

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

export interface PostOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /**
   * The document is written only once this resolves (the checkpoint on disk); the connection is
   * opened meanwhile. If it rejects, nothing was sent (`not-sent`, reason `withheld`).
   */
  holdUntil?: Promise<unknown> | undefined;
}

/** POSTs one document with `contentType`; never throws. An abort of `signal` counts as a lost answer. */
export async function postBody(
  client: HttpClient,
  url: URL,
  xml: string,
  options: PostOptions & { contentType: string; authorization?: string | undefined },
): Promise<PostResult> {
  try {
    const response = await client.request({
      method: 'POST',
      url,
      headers: {
        'Content-Type': options.contentType,
        ...(options.authorization ? { Authorization: options.authorization } : {}),
      },
      body: xml,
      timeoutMs: options.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      signal: options.signal,
      holdUntil: options.holdUntil,
    });
    return { kind: 'answer', httpStatus: response.status, body: response.body.toString('utf8') };
  } catch (error) {
    if (options.signal?.aborted && !(error instanceof HttpFailure))
      return { kind: 'lost', reason: 'aborted' };
    return failureOf(error);
  }
}
