import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { type Clock, systemClock } from '../../src/clock.js';
import { elementsOf } from './payload.js';
import { type Faults, type PrintedDocument, SimPrinter } from './simulator-printer.js';
import type { SimElement } from './simulator-receipt.js';
import { failureXml } from './simulator-xml.js';

export type { Faults, PrintedDocument } from './simulator-printer.js';
export type FaultName = keyof Faults;

export interface FpmateSimulatorOptions {
  host?: string;
  /** 0 picks a free port; read it back from `url`. */
  port?: number;
  /** Printer serial, 11 characters (default 99MEY123456). */
  serial?: string;
  clock?: Clock;
  /** Time zone of the printer's clock (default Europe/Rome). */
  timeZone?: string;
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** The directIO command answering the last emitted document (default 1078, as the driver). */
  lastDocumentCommand?: string;
  /** Certificate expiries reported by queryPrinterStatus (YYYYMMDD). */
  expiryCD?: string;
  expiryCA?: string;
}

export interface FpmateSimulator {
  /** Base address of the printer, e.g. http://127.0.0.1:41234 (fpmate.cgi lives below it). */
  readonly url: string;
  /** Every document "printed", oldest first. */
  readonly printed: PrintedDocument[];
  /** Live counters: current Z and the last document number within it. */
  readonly counters: { readonly z: number; readonly doc: number };
  /** Requests received, by fpmate root (for tests that count exchanges). */
  readonly requests: string[];
  /**
   * Turns a fault on or off. `true`/`false` for switches, an object for faults with parameters
   * (`slow: {ms}`, `rtFiles: {toSend, old, rejected}`). `refused` stops listening until turned off.
   */
  setFault<N extends FaultName>(
    name: N,
    value: boolean | Exclude<Faults[N], boolean | undefined>,
  ): Promise<void>;
  close(): Promise<void>;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  preserveOrder: true,
  parseTagValue: false,
  parseAttributeValue: false,
});

function simElements(nodes: unknown): SimElement[] {
  return elementsOf(nodes).map(({ name, node }) => ({
    name,
    attrs: Object.fromEntries(
      Object.entries((node[':@'] ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
    ),
  }));
}

/** Finds the fpmate root inside the SOAP body (or a bare root). */
function rootOf(xml: string): { root: string; elements: SimElement[] } | undefined {
  if (XMLValidator.validate(xml) !== true) return undefined;
  let top = elementsOf(parser.parse(xml));
  const envelope = top.find((e) => e.name === 'Envelope');
  if (envelope) {
    const body = elementsOf(envelope.node.Envelope).find((e) => e.name === 'Body');
    top = elementsOf(body?.node.Body);
  }
  const first = top[0];
  if (!first) return undefined;
  return { root: first.name, elements: simElements(first.node[first.name]) };
}

const PRINTING_ROOTS = new Set(['printerFiscalReceipt', 'printerNonFiscal', 'printerFiscalReport']);

/**
 * Starts a simulated Epson RT printer speaking fpmate.cgi over HTTP(S) — the target of the
 * driver's tests, of `npm start`, and of the platform simulator's payload documents. It keeps Z
 * and document counters, validates documents as an RT would, answers status and last-document
 * reads, and has fault switches for every failure the driver must survive.
 */
export async function startFpmateSimulator(options: FpmateSimulatorOptions = {}): Promise<FpmateSimulator> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? systemClock;
  const faults: Faults = {};
  const printer = new SimPrinter(
    {
      serial: options.serial ?? '99MEY123456',
      clock,
      timeZone: options.timeZone ?? 'Europe/Rome',
      lastDocumentCommand: options.lastDocumentCommand ?? '1078',
      expiryCD: options.expiryCD ?? '20301231',
      expiryCA: options.expiryCA ?? '20301231',
    },
    faults,
  );
  const requests: string[] = [];
  const sockets = new Set<Socket>();

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://printer');
    if (req.method !== 'POST' || !url.pathname.endsWith('/cgi-bin/fpmate.cgi')) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void answer(Buffer.concat(chunks).toString('utf8'), req, res);
    });
  };

  const answer = async (body: string, req: IncomingMessage, res: ServerResponse) => {
    const send = (xml: string) => {
      if (!res.destroyed) res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' }).end(xml);
    };
    const parsed = rootOf(body);
    requests.push(parsed?.root ?? '(unparseable)');
    if (faults.busy) return send(failureXml('LAN_TIME_OUT', '0', printer.printerStatus()));
    if (!parsed) return send(failureXml('PARSER_ERROR', '0', printer.printerStatus()));
    const printing = PRINTING_ROOTS.has(parsed.root);
    if (printing && faults.dropBeforePrint) return void req.socket.destroy();
    const result = printer.handle(parsed.root, parsed.elements);
    if (printing && result.printed && faults.dropAfterPrint) return void req.socket.destroy();
    if (printing && faults.slow) await clock.sleep(faults.slow.ms);
    send(result.xml);
  };

  const server: Server = options.tls ? createHttpsServer(options.tls, handler) : createHttpServer(handler);
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

  await listen(options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  const scheme = options.tls ? 'https' : 'http';
  let closed = false;

  return {
    url: `${scheme}://${host}:${port}`,
    printed: printer.printed,
    counters: printer.counters,
    requests,
    async setFault(name, value) {
      const was = Boolean(faults.refused);
      if (value === false) delete faults[name];
      else (faults as Record<string, unknown>)[name] = value;
      if (name === 'refused' && !closed) {
        if (value !== false && !was) await stop();
        if (value === false && was) await listen(port);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (server.listening) await stop();
    },
  };
}
