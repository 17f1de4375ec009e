import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * An HTTP proxy in front of the fpmate device simulator that turns the printer's answers into
 * garbage on demand, as a flaky network card or a firmware bug would:
 * - `pass`: forwards everything unchanged;
 * - `garbage-after`: forwards the request (the printer acts on it, a receipt is printed), then
 *   answers 200 with bytes that are not XML — the answer is lost although the printer printed;
 * - `truncated-after`: forwards, then answers only the first half of the printer's XML;
 * - `garbage-instead`: answers garbage without forwarding (nothing reached the printer).
 * Counts the answers it mangled.
 */
export type MangleMode = 'pass' | 'garbage-after' | 'truncated-after' | 'garbage-instead';

export interface ReplyMangler {
  readonly url: string;
  mode: MangleMode;
  readonly mangled: number;
  /** Stops listening (connection refused) or listens again on the same port. */
  setRefused(refused: boolean): Promise<void>;
  close(): Promise<void>;
}

const GARBAGE = Buffer.from([0x3c, 0x3f, 0x78, 0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x32, 0x4a, 0x8f, 0x0a, 0x7e]);

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
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
  let mangled = 0;
  const state = { mode: 'pass' as MangleMode };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readAll(req);
    const mode = state.mode;
    if (mode === 'garbage-instead') {
      mangled++;
      res.writeHead(200, { 'Content-Type': 'text/xml' }).end(GARBAGE);
      return;
    }
    let answer: { status: number; body: Buffer };
    try {
      answer = await forward(target, req, body);
    } catch {
      // The printer dropped the connection (or refused it): so does the proxy.
      req.socket.destroy();
      return;
    }
    if (mode === 'garbage-after') {
      mangled++;
      res.writeHead(200, { 'Content-Type': 'text/xml' }).end(GARBAGE);
    } else if (mode === 'truncated-after') {
      mangled++;
      res
        .writeHead(200, { 'Content-Type': 'text/xml' })
        .end(answer.body.subarray(0, answer.body.length >> 1));
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
    get mode() {
      return state.mode;
    },
    set mode(value: MangleMode) {
      state.mode = value;
    },
    get mangled() {
      return mangled;
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
