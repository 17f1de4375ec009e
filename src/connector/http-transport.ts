import { getHeapStatistics } from 'node:v8';
import { createHttpClient, HttpFailure, type HttpRequest, type HttpResponse } from '../transport/http.js';

/** What the client sends: one request with a string body (a subset of fetch's `RequestInit`). */
export interface HttpInit {
  method: string;
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
  /**
   * Sees the answer's bytes as they arrive and returns what is kept (`document-spool.ts`); a
   * transport that cannot (a test double) ignores it and the documents stay text.
   */
  answerFilter?: (chunk: Buffer) => Buffer;
}

/** What the client reads of an answer: a structural subset of fetch's `Response`. */
export interface HttpAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/**
 * The transport the connector client calls; `globalThis.fetch` fits it, and so do test doubles
 * answering with `new Response(…)`.
 */
export type FetchLike = (url: string, init: HttpInit) => Promise<HttpAnswer>;

/** The cap where the heap is large enough: a page of 1,000 commands fits well. */
const ANSWER_BYTES_CEILING = 64 * 1024 * 1024;
/** The cap however small the heap: a page of commands with a few print documents. */
const ANSWER_BYTES_FLOOR = 8 * 1024 * 1024;
/**
 * Heap bytes one answer byte may take while it is read and parsed, worst case. Measured with
 * node 20 (`JSON.parse` of a `{"Commands":[…]}` answer, heap after a full GC): documents in long
 * strings take 2×, small objects 3.8×, arrays of small numbers 7.7×; the answer's own text is
 * one more (it is held until parsed). 9× is the worst; doubled so that the rest of the agent
 * keeps half the heap: 18.
 */
const HEAP_BYTES_PER_ANSWER_BYTE = 18;

/**
 * The largest answer this process's heap can parse (issue 27, finding 9): a 64 MiB answer
 * against the agent's 512 MiB heap (`--max-old-space-size=512`, app/main.ts) was an
 * out-of-memory crash that repeated at every restart, since the platform sends the same page
 * again. With 512 MiB it is 28 MiB; from 1.1 GiB up, 64 MiB. A larger answer is HTTP_TOO_LARGE,
 * and the listing halves its page (retry.ts).
 */
export function heapBoundAnswerBytes(heapLimit = getHeapStatistics().heap_size_limit): number {
  const fits = Math.floor(heapLimit / HEAP_BYTES_PER_ANSWER_BYTE);
  return Math.max(ANSWER_BYTES_FLOOR, Math.min(ANSWER_BYTES_CEILING, fits));
}

/** Largest answer the connector reads, raw and decoded: what the heap can parse, at most 64 MiB. */
export const DEFAULT_MAX_ANSWER_BYTES = heapBoundAnswerBytes();

/**
 * A `FetchLike` on the agent's one HTTP stack (`src/transport/http.ts`) with a keep-alive pool:
 * no redirects, gzip/deflate/br decoded, the answer capped at `maxBytes` raw and decoded (an
 * answer over the cap rejects with an error whose `code` is `HTTP_TOO_LARGE`), the signal's
 * reason on abort, and the socket error's `code` (e.g. `ECONNREFUSED`) when the connection
 * fails. The whole body is read before the promise resolves. The caller's signal bounds time.
 */
export function createHttpFetch(options: { maxBytes?: number } = {}): FetchLike {
  const client = createHttpClient({ keepAlive: true, idleSocketMs: IDLE_SOCKET_MS });
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  return async (url, init) => {
    let response: HttpResponse;
    try {
      response = await client.request({
        method: init.method as HttpRequest['method'],
        url,
        headers: init.headers,
        body: init.body,
        signal: init.signal,
        ...(init.answerFilter ? { answerFilter: init.answerFilter } : {}),
        timeoutMs: 24 * 3600 * 1000,
        maxBytes,
      });
    } catch (error) {
      if (error instanceof HttpFailure) {
        throw Object.assign(new Error(error.message, { cause: error.cause }), {
          code: error.code === 'HTTP_TOO_LARGE' ? error.code : (error.systemCode ?? error.code),
        });
      }
      throw error;
    }
    const text = response.body.toString('utf8');
    // The answer keeps the text and the headers, not the bytes: a large answer's buffer can go
    // while its JSON is parsed.
    const { status, statusText, header } = response;
    return {
      status,
      ok: status >= 200 && status < 300,
      statusText,
      headers: { get: (name) => header(name) ?? null },
      text: () => Promise.resolve(text),
    };
  };
}

/** How long an idle kept-alive connection stays open (undici's default, which fetch used). */
const IDLE_SOCKET_MS = 4000;
