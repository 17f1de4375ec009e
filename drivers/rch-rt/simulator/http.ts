import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Clock } from '../../../src/clock.js';
import type { Handled } from './printer.js';
import type { RchFaults } from './types.js';

/**
 * The HTTP side of the simulated web service, apart from the printer's logic so that it can move
 * onto the simulator kit: `POST /service.cgi` (lyancoder/fiscal-printer
 * `lib/printer/RCH/xml-RCH-http.ts` `send`; optyker-web `rch-connector/rch-optyker-connector.ps1`
 * `$PrinterUrl`), answered 200 with the headers RCH's "Manuale Web Service Print! F" V5 R03/2019
 * §3 shows (`Content-Type: application/xml`, `Connection: close`, `Cache-Control: no-cache`,
 * `Access-Control-Allow-Origin: *`). The same section: "Le richieste di servizio possono essere
 * elaborate una alla volta. Se la stampante non può elaborare la richiesta, uno stato di
 * "occupato" viene inviato e la richiesta deve essere inviata nuovamente": a request arriving
 * while another is handled (or held by `slow`) gets the busy answer at once, carried out never.
 *
 * **Inferred**: 404 for another path, 405 for another method; a body over 1 MiB cut off (the
 * manual's per-connection limit is in a table no public copy shows).
 */

const MAX_BODY = 1024 * 1024;

export interface ServiceHooks {
  handle(body: string): Handled;
  busy(body: string): Handled;
  /** Runs once a request is handled, before its answer goes out (tests flip faults there). */
  handled(result: Handled): void;
  faults(): RchFaults;
}

export interface ServiceListener {
  readonly url: string;
  /** Closes every connection, including answers held by `loseAnswer`. */
  dropConnections(): void;
  stopListening(): Promise<void>;
  listenAgain(): Promise<void>;
}

const HEADERS = {
  'Content-Type': 'application/xml',
  'Cache-Control': 'no-cache',
  'Access-Control-Allow-Origin': '*',
  Connection: 'close',
};

export async function listenService(
  host: string,
  port: number,
  clock: Clock,
  hooks: ServiceHooks,
): Promise<ServiceListener> {
  const sockets = new Set<Socket>();
  let inFlight = false;

  const answer = async (body: string, req: IncomingMessage, res: ServerResponse) => {
    if (inFlight) {
      const refused = hooks.busy(body);
      hooks.handled(refused);
      return void res.writeHead(200, HEADERS).end(refused.xml);
    }
    inFlight = true;
    try {
      const result = hooks.handle(body);
      // Read before the listeners run: they may switch faults for the next exchange.
      const f = { ...hooks.faults() };
      hooks.handled(result);
      if (f.slow) await clock.sleep(f.slow.ms);
      if (result.printed && f.dropAfterPrint) return void req.socket.destroy();
      if (result.changed && f.loseAnswer) return;
      if (!res.destroyed) res.writeHead(200, HEADERS).end(result.xml);
    } finally {
      inFlight = false;
    }
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://printer');
    if (url.pathname !== '/service.cgi') return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405, { Allow: 'POST' }).end();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) return void req.socket.destroy();
      chunks.push(chunk);
    });
    req.on('end', () => {
      void answer(Buffer.concat(chunks).toString('utf8'), req, res).catch(() => req.socket.destroy());
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const listen = (at: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(port);
  const bound = (server.address() as AddressInfo).port;

  const dropConnections = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `http://${host}:${bound}`,
    dropConnections,
    stopListening: () =>
      new Promise<void>((resolve) => {
        dropConnections();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
    listenAgain: () => listen(bound),
  };
}
