import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Clock } from '../../src/clock.js';
import { type CommonFaults, setSwitch } from './faults.js';

/**
 * The HTTP(S) server every printer simulator runs (Epson fpmate.cgi, Custom printer.htm): one
 * path, POST only, an optional Basic account (401 otherwise), requests taken one at a time in
 * arrival order when the device is single-threaded, and the shared faults applied after the
 * family handled a request (`faults.ts`): a lost answer, a slow answer, a refused connection.
 */
export interface SimulatorHttpOptions<F extends CommonFaults> {
  /** Default 127.0.0.1. */
  host?: string | undefined;
  /** Default 0: a free port (read it back from `url`). */
  port?: number | undefined;
  clock: Clock;
  tls?: { key: string | Buffer; cert: string | Buffer } | undefined;
  faults: F;
  /** Whether `pathname` is the device's service. */
  serves(pathname: string): boolean;
  /** The `Authorization` header every request must carry; undefined: none. */
  authorization?: string | undefined;
  /** Requests wait for the one before (the device answers one at a time). */
  oneAtATime: boolean;
  /** Headers every answer carries besides its `Content-Type` (a vendor's documented answer headers). */
  headers?: Readonly<Record<string, string>> | undefined;
  /** A request body longer than this drops the connection unanswered; default: no limit. */
  maxBodyBytes?: number | undefined;
  /** Handles one request body and answers it through `exchange`. */
  handle(body: string, exchange: SimulatorExchange<F>): Promise<void> | void;
}

/** One request being answered. */
export interface SimulatorExchange<F> {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Answers 200 with `body` (nothing when the peer is gone). */
  send(body: string, contentType?: string): void;
  /**
   * Answers a request that may have made the device act (`acting`: a document or report root),
   * with the shared faults as they were before the family's listeners ran: `loseAnswer` → the
   * connection drops without an answer; `slow` → the answer waits on the simulator's clock.
   */
  deliver(body: string, acting: boolean, faults: Readonly<F>, contentType?: string): Promise<void>;
  /** Drops the connection without an answer. */
  drop(): void;
}

export interface SimulatorHttp<F> {
  readonly url: string;
  readonly port: number;
  /** Drops every open connection (a device that restarts). */
  dropConnections(): void;
  /** Sets or clears a fault; `refused` stops or restarts listening. */
  setFault<N extends keyof F>(name: N, value: boolean | F[N]): Promise<void>;
  close(): Promise<void>;
}

const XML = 'text/xml; charset=utf-8';

export async function startSimulatorHttp<F extends CommonFaults>(
  o: SimulatorHttpOptions<F>,
): Promise<SimulatorHttp<F>> {
  const host = o.host ?? '127.0.0.1';
  const sockets = new Set<Socket>();
  let queue: Promise<void> = Promise.resolve();

  const exchangeOf = (req: IncomingMessage, res: ServerResponse): SimulatorExchange<F> => {
    const send = (body: string, contentType = XML) => {
      if (!res.destroyed) res.writeHead(200, { ...o.headers, 'Content-Type': contentType }).end(body);
    };
    return {
      req,
      res,
      send,
      drop: () => void req.socket.destroy(),
      async deliver(body, acting, faults, contentType) {
        if (acting && faults.loseAnswer) return void req.socket.destroy();
        if (acting && faults.slow) await o.clock.sleep(faults.slow.ms);
        send(body, contentType);
      },
    };
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://device');
    if (!o.serves(url.pathname)) return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405, { Allow: 'POST' }).end();
    if (o.authorization && req.headers.authorization !== o.authorization) {
      return void res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="printer"' }).end();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (o.maxBodyBytes !== undefined && size > o.maxBodyBytes) return void req.socket.destroy();
      chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const run = () => o.handle(body, exchangeOf(req, res));
      if (o.oneAtATime) queue = queue.then(run).catch(() => undefined);
      else void Promise.resolve(run()).catch(() => undefined);
    });
  };

  const server: Server = o.tls ? createHttpsServer(o.tls, handler) : createHttpServer(handler);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });

  await listen(o.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  let closed = false;
  return {
    url: `${o.tls ? 'https' : 'http'}://${host}:${port}`,
    port,
    dropConnections() {
      for (const socket of sockets) socket.destroy();
    },
    async setFault(name, value) {
      const { refusedBefore, refusedNow } = setSwitch(o.faults, name, value);
      if (closed) return;
      if (refusedNow && !refusedBefore) await stop();
      if (!refusedNow && refusedBefore) await listen(port);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (server.listening) await stop();
    },
  };
}
