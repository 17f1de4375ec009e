import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Clock } from '../../../src/clock.js';
import type { Logger } from '../../../src/log.js';
import { decodeMessage, encodeMessage, type IppMessage } from '../ipp-codec.js';
import { Operation } from '../ipp-constants.js';
import { queueNameOf } from '../printers.js';
import { handlePrinterRequest, handleServerRequest, notFound } from './ipp.js';
import {
  SimPrinter,
  type SimPrinterFaults,
  type SimPrinterOptions,
  type SpooledDocument,
} from './printer.js';

export type { SimJob, SimPrinterFaults, SpooledDocument } from './printer.js';
export { SimPrinter } from './printer.js';

/**
 * A network of simulated IPP printers on one loopback port, for `npm start`, the tests and the
 * bench: each printer at its own path (`/printers/QUEUE` like CUPS, or `/ipp/print` like an IPP
 * Everywhere printer), CUPS-Get-Printers at `/`. Besides each printer's fault switches it can go
 * offline (stop listening, so connections are refused) and come back on the same port, drop the
 * answer of the next Print-Job after taking the job (a lost answer), or hold Print-Job answers.
 */

export interface IppSimulatorOptions {
  host?: string;
  /** 0 picks a free port; read it back from `port`. */
  port?: number;
  printers: Array<SimPrinterOptions & { path?: string }>;
  clock?: Clock;
  log?: Logger;
  /** Largest request body accepted (the document included). */
  maxRequestBytes?: number;
}

export interface IppSimulator {
  readonly host: string;
  readonly port: number;
  /** `ipp://host:port/path` of a printer. */
  printerUri(name: string): string;
  printer(name: string): SimPrinter;
  setFault<K extends keyof SimPrinterFaults>(printer: string, fault: K, value: SimPrinterFaults[K]): void;
  /** Offline: the port refuses connections (open ones are cut) until set back. */
  setOffline(offline: boolean): Promise<void>;
  /** The next Print-Job is accepted as a job, then its connection is cut without an answer. */
  dropNextAnswer(): void;
  /** While on, Print-Job answers wait; `false` sends them. Resolves when one is waiting. */
  holdAnswers(on: boolean): void;
  /** Resolves once a held Print-Job answer is waiting. */
  answerHeld(): Promise<void>;
  /** Every document received, by every printer, oldest first. */
  spooled(): SpooledDocument[];
  close(): Promise<void>;
}

interface Entry {
  printer: SimPrinter;
  path: string;
}

export async function startIppSimulator(options: IppSimulatorOptions): Promise<IppSimulator> {
  const host = options.host ?? '127.0.0.1';
  const maxBytes = options.maxRequestBytes ?? 300 * 1024 * 1024;
  const entries: Entry[] = options.printers.map((p) => ({
    printer: new SimPrinter({
      ...p,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.log ? { log: options.log } : {}),
    }),
    path: p.path ?? `/printers/${encodeURIComponent(queueNameOf(p.name))}`,
  }));
  const sockets = new Set<Socket>();
  let port = options.port ?? 0;
  let dropNext = false;
  let hold = false;
  const held: Array<() => void> = [];
  const heldWaiters: Array<() => void> = [];
  const uriOf = (e: Entry) => `ipp://${host}:${port}${e.path}`;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(entries.map((e) => `${e.printer.name}: ${uriOf(e)}`).join('\n'));
      return;
    }
    if (!/^application\/ipp\b/i.test(req.headers['content-type'] ?? '')) {
      res.writeHead(400).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.writeHead(413, { Connection: 'close' }).end();
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      let request: IppMessage;
      try {
        request = decodeMessage(Buffer.concat(chunks, size));
      } catch {
        res.writeHead(400).end();
        return;
      }
      chunks.length = 0;
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const entry = entries.find((e) => e.path === path);
      const answer = entry
        ? handlePrinterRequest(entry.printer, request, { printerUri: uriOf(entry) })
        : path === '/' || path === '/printers' || path === '/printers/'
          ? handleServerRequest(
              entries.map((e) => ({ printer: e.printer, uri: uriOf(e) })),
              request,
            )
          : notFound(request, `ipp://${host}:${port}${path}`);
      const send = () => {
        const body = encodeMessage(answer).buffer;
        res.writeHead(200, { 'Content-Type': 'application/ipp', 'Content-Length': body.length });
        res.end(body);
      };
      if (request.code === Operation.printJob && dropNext) {
        dropNext = false;
        req.socket.destroy();
        return;
      }
      if (request.code === Operation.printJob && hold) {
        held.push(send);
        for (const w of heldWaiters.splice(0)) w();
        return;
      }
      send();
    });
  };

  let server: Server | undefined;
  const listen = async () => {
    const s = createServer(handle);
    s.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, host, () => {
        s.off('error', reject);
        resolve();
      });
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  const unlisten = async () => {
    const s = server;
    server = undefined;
    if (!s) return;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();

  const find = (name: string): Entry => {
    const e = entries.find((x) => x.printer.name === name);
    if (!e) throw new Error(`no simulated printer named ${name}`);
    return e;
  };

  return {
    host,
    get port() {
      return port;
    },
    printerUri: (name) => uriOf(find(name)),
    printer: (name) => find(name).printer,
    setFault: (name, fault, value) => find(name).printer.setFault(fault, value),
    setOffline: async (offline) => {
      if (offline) await unlisten();
      else if (!server) await listen();
    },
    dropNextAnswer: () => {
      dropNext = true;
    },
    holdAnswers: (on) => {
      hold = on;
      if (!on) for (const send of held.splice(0)) send();
    },
    answerHeld: () =>
      held.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => heldWaiters.push(resolve)),
    spooled: () => entries.flatMap((e) => e.printer.spooled),
    close: async () => {
      for (const e of entries) e.printer.stop();
      held.length = 0;
      await unlisten();
    },
  };
}
