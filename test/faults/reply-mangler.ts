import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * An HTTP proxy in front of the fpmate device simulator that sees every exchange with the printer
 * and spoils the answers of the receipts it is told to, as a flaky network card or a firmware bug
 * would. Faults are counted, not timed: `spoil(mode, n)` spoils the next `n` receipts
 * (`printerFiscalReceipt` requests), whatever else passes meanwhile.
 * - `garbage-after`: forwards the receipt (the printer prints it), then answers 200 with bytes
 *   that are not XML — the answer is lost although the printer printed;
 * - `truncated-after`: forwards, then answers only the first half of the printer's XML;
 * - `dropped-after`: forwards, then drops the connection without an answer;
 * - `garbage-instead`: answers garbage without forwarding (nothing reached the printer);
 * - `vanished-after`: forwards, then the printer goes away — the connection drops and the proxy
 *   stops listening (connection refused) until `setRefused(false)`: a printer switched off right
 *   after it printed (issue 26 item 5).
 * `exchanges` records every request with its fpmate root and what was done, so a test can wait
 * for "the printer refused two receipts" instead of for some seconds.
 */
export type SpoilMode =
  | 'garbage-after'
  | 'truncated-after'
  | 'dropped-after'
  | 'garbage-instead'
  | 'vanished-after';

export interface Exchange {
  /** The fpmate root (`printerFiscalReceipt`, `printerCommand` …) or `(unknown)`. */
  root: string;
  /** `passed` (forwarded and answered), a spoil mode, or `unreachable` (the printer refused). */
  outcome: 'passed' | SpoilMode | 'unreachable';
}

export interface ReplyMangler {
  readonly url: string;
  /** Every request that reached the proxy, oldest first. */
  readonly exchanges: readonly Exchange[];
  /** Answers spoiled so far. */
  readonly mangled: number;
  /** Receipts still to be spoiled. */
  readonly pending: number;
  /** Spoils the answers of the next `count` receipts with `mode` (after any already queued). */
  spoil(mode: SpoilMode, count: number): void;
  /** Stops listening (connection refused) or listens again on the same port. */
  setRefused(refused: boolean): Promise<void>;
  close(): Promise<void>;
}

const GARBAGE = Buffer.from([0x3c, 0x3f, 0x78, 0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x32, 0x4a, 0x8f, 0x0a, 0x7e]);
const RECEIPT = 'printerFiscalReceipt';

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** The fpmate root inside the (optional) SOAP envelope: every fpmate root is `printer…`. */
export function fpmateRoot(body: string): string {
  return /<(printer\w+)[\s/>]/.exec(body)?.[1] ?? '(unknown)';
}

function forward(target: URL, req: IncomingMessage, body: Buffer): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const out = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { 'content-type': req.headers['content-type'] ?? 'text/xml', 'content-length': body.length },
      },
      (res) => {
        readAll(res).then((b) => resolve({ status: res.statusCode ?? 502, body: b }), reject);
      },
    );
    out.on('error', reject);
    out.end(body);
  });
}

export async function startReplyMangler(targetUrl: string): Promise<ReplyMangler> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  const exchanges: Exchange[] = [];
  const queue: SpoilMode[] = [];
  let mangled = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readAll(req);
    const root = fpmateRoot(body.toString('utf8'));
    const mode = root === RECEIPT ? queue.shift() : undefined;
    const exchange: Exchange = { root, outcome: mode ?? 'passed' };
    exchanges.push(exchange);
    if (mode === 'garbage-instead') {
      mangled++;
      res.writeHead(200, { 'Content-Type': 'text/xml' }).end(GARBAGE);
      return;
    }
    let answer: { status: number; body: Buffer };
    try {
      answer = await forward(target, req, body);
    } catch {
      // The printer dropped the connection (or refused it): so does the proxy. A spoil that
      // found no printer is not spent.
      exchange.outcome = 'unreachable';
      if (mode) queue.unshift(mode);
      req.socket.destroy();
      return;
    }
    if (mode) mangled++;
    if (mode === 'garbage-after') {
      res.writeHead(200, { 'Content-Type': 'text/xml' }).end(GARBAGE);
    } else if (mode === 'truncated-after') {
      res
        .writeHead(200, { 'Content-Type': 'text/xml' })
        .end(answer.body.subarray(0, answer.body.length >> 1));
    } else if (mode === 'dropped-after') {
      req.socket.destroy();
    } else if (mode === 'vanished-after') {
      void stop();
    } else {
      res.writeHead(answer.status, { 'Content-Type': 'text/xml; charset=utf-8' }).end(answer.body);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (p: number) => new Promise<void>((resolve) => server.listen(p, '127.0.0.1', resolve));
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    get mangled() {
      return mangled;
    },
    get pending() {
      return queue.length;
    },
    spoil(mode, count) {
      for (let i = 0; i < count; i++) queue.push(mode);
    },
    async setRefused(refused: boolean) {
      if (closing) return;
      if (refused && server.listening) await stop();
      if (!refused && !server.listening) await listen(port);
    },
    close() {
      closing ??= server.listening ? stop() : Promise.resolve();
      return closing;
    },
  };
}
