import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * The agent's one HTTP stack: `node:http`/`node:https`, for the Connector API and for every
 * network device (RT printers, IPP printers). Not `globalThis.fetch`, whose first call loads
 * Node's bundled undici, a second HTTP stack resident for the daemon's whole life (its cost:
 * bench/RESULTS.md, Memory).
 *
 * What it guarantees, whatever the peer does:
 * - the answer is bounded: `maxBytes` caps the bytes on the wire *and* the decoded bytes
 *   (gzip, deflate, br), so a compression bomb or an endless answer ends in `HTTP_TOO_LARGE`
 *   instead of filling memory;
 * - the whole exchange is bounded in time (`timeoutMs`, `HTTP_TIMEOUT`), and an abort of
 *   `signal` rejects with the signal's reason, also while the body is read;
 * - every failure is an `HttpFailure` that says whether the request can have reached the peer
 *   (`sent`): false when the connection was refused, the name did not resolve, or the
 *   certificate was refused before a byte of the request left. Drivers of devices with side
 *   effects (a fiscal printer) decide on that whether a document may be sent again;
 * - no redirects are followed.
 *
 * TLS: a configured CA, a pinned SHA-256 certificate fingerprint (checked on every connection,
 * before the request is handed the socket, so a mismatching peer never sees the request), or
 * explicitly no verification.
 */

export interface HttpTlsOptions {
  /** PEM of the CA (or the self-signed certificate) that must sign the peer's certificate. */
  ca?: string | Buffer;
  /**
   * The peer certificate's SHA-256 fingerprint, `AA:BB:…` (case-insensitive). With it, chain
   * validation is replaced by this check (self-signed devices) unless `ca` is given too.
   */
  fingerprint256?: string;
  /** Server name for SNI and the hostname check. */
  serverName?: string;
  /** No verification at all; only by explicit opt-in in the configuration. */
  insecure?: boolean;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  url: string | URL;
  headers?: Record<string, string>;
  /**
   * The request body. In parts (`length` their total), it is written part by part as the socket
   * takes them, each part fetched only then: a document is never joined, nor read ahead.
   */
  body?: string | Uint8Array | { parts: Iterable<Uint8Array>; length: number };
  /**
   * Sees every decoded piece of the answer as it arrives and returns what is kept of it (the
   * connector takes documents out of the answer this way: `document-spool.ts`). `maxBytes`
   * still counts the answer as it arrived.
   */
  answerFilter?: (chunk: Buffer) => Buffer;
  signal?: AbortSignal | undefined;
  /**
   * Opens the connection at once but writes nothing (not even the headers) until this resolves:
   * a fiscal driver's checkpoint reaches the disk while the connection is made, and the document
   * still leaves only after it. If it rejects, the request is abandoned unsent: `HTTP_WITHHELD`,
   * `sent` false, the reason as its cause. Until it resolves no failure counts as `sent`.
   */
  holdUntil?: Promise<unknown>;
  /** The whole exchange, connect to last byte (a hold included). */
  timeoutMs: number;
  /** Cap on the answer's bytes, raw and decoded. */
  maxBytes: number;
}

export interface HttpResponse {
  readonly status: number;
  readonly statusText: string;
  /** Lower-case header names; repeated headers joined with ", ". */
  header(name: string): string | undefined;
  readonly body: Buffer;
}

export type HttpFailureCode =
  | 'HTTP_TOO_LARGE'
  | 'HTTP_TIMEOUT'
  | 'HTTP_CONNECT'
  | 'HTTP_TLS'
  | 'HTTP_FINGERPRINT'
  | 'HTTP_BROKEN'
  | 'HTTP_BAD_URL'
  | 'HTTP_WITHHELD';

/** A failed exchange. `sent` is false only when the request certainly never reached the peer. */
export class HttpFailure extends Error {
  override readonly name = 'HttpFailure';
  constructor(
    readonly code: HttpFailureCode,
    message: string,
    readonly sent: boolean,
    /** The socket or zlib error code behind it (`ECONNREFUSED`, `Z_DATA_ERROR` …), if any. */
    override readonly cause?: unknown,
  ) {
    super(message);
  }

  /** The system error code of the cause, e.g. `ECONNREFUSED`. */
  get systemCode(): string | undefined {
    const code = (this.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? code : undefined;
  }
}

export interface HttpClient {
  /** Never resolves with a partial body; rejects with `HttpFailure` or the signal's reason. */
  request(request: HttpRequest): Promise<HttpResponse>;
  /** Closes kept-alive connections. Idempotent. */
  close(): void;
}

export interface HttpClientOptions {
  /** Keep connections open between requests (the platform); off for devices by default. */
  keepAlive?: boolean;
  /** How long an idle kept-alive connection stays open. */
  idleSocketMs?: number;
  tls?: HttpTlsOptions;
}

const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
]);

/** Builds a client; one per peer family (the platform, one printer), each with its own pool. */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const keepAlive = options.keepAlive ?? false;
  const common = { keepAlive, timeout: options.idleSocketMs ?? 4000, scheduling: 'lifo' as const };
  const httpAgent = new http.Agent(common);
  const httpsAgent = new VerifyingAgent(common, options.tls ?? {});
  return {
    request: (request) => send(request, httpAgent, httpsAgent),
    close: () => {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/**
 * An https.Agent that hands a socket to a request only after the TLS handshake and the pinned
 * fingerprint check passed: `createConnection` answers through its callback, so nothing is
 * written to a peer that fails the check.
 */
class VerifyingAgent extends https.Agent {
  constructor(
    agentOptions: https.AgentOptions,
    private readonly tlsOptions: HttpTlsOptions,
  ) {
    super({
      ...agentOptions,
      // A resumed session shows no certificate to check.
      ...(tlsOptions.fingerprint256 ? { maxCachedSessions: 0 } : {}),
    });
  }

  override createConnection(
    connectOptions: tls.ConnectionOptions,
    callback?: (error: Error | null, socket: Duplex) => void,
  ): Duplex | undefined {
    const t = this.tlsOptions;
    const pinned = t.fingerprint256?.toUpperCase();
    const socket = tls.connect({
      ...connectOptions,
      ...(t.ca ? { ca: t.ca } : {}),
      ...(t.serverName ? { servername: t.serverName } : {}),
      rejectUnauthorized: !(t.insecure || (pinned && !t.ca)),
    });
    if (!callback) return socket;
    let settled = false;
    const done = (error: Error | null) => {
      if (settled) return;
      settled = true;
      socket.off('error', onError);
      // Later socket errors reach the request's own listener (or are dropped with the socket).
      socket.on('error', () => {});
      if (error) {
        socket.destroy();
        callback(error, socket);
      } else callback(null, socket);
    };
    const onError = (error: Error) => {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      const kind = CONNECT_FAILURES.has(code) ? 'HTTP_CONNECT' : 'HTTP_TLS';
      done(new HttpFailure(kind, `could not connect: ${code || error.message}`, false, error));
    };
    socket.on('error', onError);
    socket.once('secureConnect', () => {
      const presented = socket.getPeerCertificate()?.fingerprint256?.toUpperCase();
      if (pinned && presented !== pinned) {
        done(new HttpFailure('HTTP_FINGERPRINT', 'the peer certificate fingerprint does not match', false));
        return;
      }
      done(null);
    });
    return undefined;
  }
}

function send(request: HttpRequest, httpAgent: http.Agent, httpsAgent: https.Agent): Promise<HttpResponse> {
  return new Promise<HttpResponse>((resolve, reject) => {
    const { signal } = request;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let target: URL;
    try {
      target = new URL(request.url);
    } catch {
      reject(new HttpFailure('HTTP_BAD_URL', 'not a URL', false));
      return;
    }
    const secure = target.protocol === 'https:';
    if (!secure && target.protocol !== 'http:') {
      reject(new HttpFailure('HTTP_BAD_URL', `unsupported protocol ${target.protocol}`, false));
      return;
    }
    const whole =
      typeof request.body === 'string'
        ? Buffer.from(request.body, 'utf8')
        : request.body instanceof Uint8Array
          ? request.body
          : undefined;
    const streamed =
      typeof request.body === 'object' && !(request.body instanceof Uint8Array) ? request.body : undefined;
    const bodyLength = whole !== undefined ? whole.length : streamed?.length;
    /** Whether the request can have left: a socket was connected (and verified) for it … */
    let connected = false;
    /** … and it was written to it: not before `holdUntil` resolved. */
    let released = request.holdUntil === undefined;
    const mayHaveLeft = () => connected && released;
    let finished = false;
    const headers: Record<string, string> = { 'Accept-Encoding': 'gzip, deflate, br', ...request.headers };
    if (bodyLength !== undefined) headers['Content-Length'] = String(bodyLength);
    const req = (secure ? https : http).request(target, {
      method: request.method,
      agent: secure ? httpsAgent : httpAgent,
      headers,
    });

    const finish = (error: unknown, response?: HttpResponse) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined && response) resolve(response);
      else {
        req.destroy();
        reject(error);
      }
    };
    const onAbort = () => finish(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    // The verdict waits one turn of the loop: after a stall, timers run before the socket's
    // waiting bytes are read, and an answer that is already here must win over its deadline
    // (for a printer, a false "lost answer" costs a counters read and a warning).
    const timer = setTimeout(
      () =>
        setImmediate(() =>
          finish(
            new HttpFailure(
              'HTTP_TIMEOUT',
              `no complete answer within ${request.timeoutMs} ms`,
              mayHaveLeft(),
            ),
          ),
        ),
      request.timeoutMs,
    );

    req.once('socket', (socket) => {
      // The verifying agent hands a TLS socket over only once it is connected and checked; a
      // plain socket may still be connecting.
      if (secure || !socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    // `on`, not `once`: destroying a request can emit a second error, which must not escape.
    req.on('error', (error) => {
      if (error instanceof HttpFailure) {
        finish(error);
        return;
      }
      const code = (error as NodeJS.ErrnoException).code ?? '';
      const neverLeft =
        !released ||
        (!connected && (CONNECT_FAILURES.has(code) || code.startsWith('ERR_TLS') || isCertError(code)));
      finish(
        new HttpFailure(
          neverLeft ? 'HTTP_CONNECT' : 'HTTP_BROKEN',
          `${neverLeft ? 'could not connect' : 'the connection failed'}: ${code || error.message}`,
          !neverLeft,
          error,
        ),
      );
    });
    req.once('response', (response) => {
      if (!released) {
        finish(new HttpFailure('HTTP_BROKEN', 'the peer answered before the request was written', false));
        return;
      }
      connected = true;
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > request.maxBytes) {
        finish(tooLarge(request.maxBytes));
        return;
      }
      let raw = 0;
      response.on('data', (chunk: Buffer) => {
        raw += chunk.length;
        if (raw > request.maxBytes) finish(tooLarge(request.maxBytes));
      });
      const stream = decoded(response);
      const chunks: Buffer[] = [];
      let size = 0;
      let kept = 0;
      const { answerFilter } = request;
      stream.on('data', (chunk: Buffer) => {
        if (finished) return;
        size += chunk.length;
        if (size > request.maxBytes) {
          finish(tooLarge(request.maxBytes));
          return;
        }
        let piece = chunk;
        if (answerFilter) {
          try {
            piece = answerFilter(chunk);
          } catch (error) {
            finish(new HttpFailure('HTTP_BROKEN', 'the answer could not be read', true, error));
            return;
          }
        }
        kept += piece.length;
        chunks.push(piece);
      });
      stream.on('error', (error: Error) =>
        finish(new HttpFailure('HTTP_BROKEN', `the answer could not be read: ${error.message}`, true, error)),
      );
      response.once('aborted', () =>
        finish(new HttpFailure('HTTP_BROKEN', 'the connection closed before the answer ended', true)),
      );
      response.on('error', (error: Error) =>
        finish(new HttpFailure('HTTP_BROKEN', `the answer broke off: ${error.message}`, true, error)),
      );
      stream.once('end', () => {
        // Nothing thrown while the answer is put together may escape this handler (the process
        // would see it): it is a broken answer like any other.
        let body: Buffer;
        try {
          body = Buffer.concat(chunks, kept);
        } catch (error) {
          finish(new HttpFailure('HTTP_BROKEN', 'the answer could not be kept', true, error));
          return;
        }
        const all = response.headers;
        finish(undefined, {
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          header: (name) => headerValue(all[name.toLowerCase()]),
          body,
        });
      });
    });
    const write = () => {
      if (streamed) writeParts(req, streamed.parts, () => finished, finish);
      else req.end(whole);
    };
    if (request.holdUntil === undefined) write();
    else {
      request.holdUntil.then(
        () => {
          if (finished) return;
          released = true;
          write();
        },
        (reason: unknown) =>
          finish(new HttpFailure('HTTP_WITHHELD', 'withheld before it was written', false, reason)),
      );
    }
  });
}

/**
 * Writes the parts as the socket takes them (waiting for `drain`), fetching each only then, and
 * ends the request. A part that cannot be fetched breaks the exchange (the request may have
 * left in part: `sent`).
 */
function writeParts(
  req: http.ClientRequest,
  parts: Iterable<Uint8Array>,
  finished: () => boolean,
  finish: (error: unknown) => void,
): void {
  const iterator = parts[Symbol.iterator]();
  const next = () => {
    try {
      for (;;) {
        if (finished()) return;
        const step = iterator.next();
        if (step.done) {
          req.end();
          return;
        }
        if (!req.write(step.value)) {
          req.once('drain', next);
          return;
        }
      }
    } catch (error) {
      finish(new HttpFailure('HTTP_BROKEN', 'the request body could not be read', true, error));
    }
  };
  next();
}

function tooLarge(maxBytes: number): HttpFailure {
  return new HttpFailure('HTTP_TOO_LARGE', `the answer is larger than ${maxBytes} bytes`, true);
}

function isCertError(code: string): boolean {
  return (
    code.includes('CERT') ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'SELF_SIGNED_CERT_IN_CHAIN' ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY'
  );
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

function headerValue(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : value;
}
