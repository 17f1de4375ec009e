import http from 'node:http';
import https from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** What the client sends: one request with a string body (a subset of fetch's `RequestInit`). */
export interface HttpInit {
  method: string;
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
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

/** How long an idle kept-alive connection stays open (undici's default, which fetch used). */
const IDLE_SOCKET_MS = 4000;

/**
 * A `FetchLike` on `node:http`/`node:https` with one keep-alive agent per scheme. It replaces
 * `globalThis.fetch`, whose first call loads Node's bundled undici (about 20 MB of resident
 * memory for a daemon that only POSTs JSON). Like fetch it follows no redirects of a POST, asks
 * for and decompresses gzip, deflate and br, rejects with the signal's reason on abort (also
 * while the body is read), and with the socket error (`code` set, e.g. `ECONNREFUSED`) when the
 * connection fails. The whole body is read before the promise resolves.
 */
export function createHttpFetch(): FetchLike {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
  };
  return (url, init) =>
    new Promise<HttpAnswer>((resolve, reject) => {
      const { signal } = init;
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      if (!secure && target.protocol !== 'http:') {
        reject(new TypeError(`unsupported protocol ${target.protocol}`));
        return;
      }
      const body = Buffer.from(init.body, 'utf8');
      const request = (secure ? https : http).request(target, {
        method: init.method,
        agent: agents[target.protocol as 'http:' | 'https:'],
        headers: {
          'Accept-Encoding': 'gzip, deflate, br',
          ...init.headers,
          'Content-Length': String(body.length),
        },
      });
      const onAbort = () => request.destroy(signal?.reason as Error);
      signal?.addEventListener('abort', onAbort, { once: true });
      const fail = (error: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        reject(signal?.aborted ? signal.reason : error);
      };
      request.once('error', fail);
      request.once('response', (response) => {
        const chunks: Buffer[] = [];
        const stream = decoded(response);
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.once('error', (error) => {
          response.destroy();
          fail(error);
        });
        response.once('aborted', () => fail(new Error('the connection closed before the answer ended')));
        stream.once('end', () => {
          signal?.removeEventListener('abort', onAbort);
          const text = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? 0;
          const headers = response.headers;
          resolve({
            status,
            ok: status >= 200 && status < 300,
            statusText: response.statusMessage ?? '',
            headers: { get: (name) => headerValue(headers[name.toLowerCase()]) },
            text: () => Promise.resolve(text),
          });
        });
      });
      request.end(body);
    });
}

function decoded(response: http.IncomingMessage): NodeJS.ReadableStream {
  switch (response.headers['content-encoding']?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip());
    case 'deflate':
      return response.pipe(createInflate());
    case 'br':
      return response.pipe(createBrotliDecompress());
    default:
      return response;
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
