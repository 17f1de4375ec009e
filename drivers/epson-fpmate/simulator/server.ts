import type { ServerResponse } from 'node:http';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { systemClock } from '../../../src/clock.js';
import { Listeners } from '../../../src/listeners.js';
import type { PrinterSimulatorOptions, Rebootable } from '../../simulator-kit/faults.js';
import { type SimulatorExchange, startSimulatorHttp } from '../../simulator-kit/http.js';
import { elementsOf, ORDERED_XML } from '../payload.js';
import { type Faults, type PrintedDocument, SimPrinter } from './printer.js';
import { type DayTotals, type DepartmentClass, SIM_DEPARTMENTS } from './programming.js';
import type { SimElement } from './receipt.js';
import { failureXml } from './xml.js';

export type { Faults, PrintedDocument } from './printer.js';
export type { DayTotals, DepartmentClass } from './programming.js';
export type FaultName = keyof Faults;

/** Serial default 99MEY123456. */
export interface FpmateSimulatorOptions extends PrinterSimulatorOptions {
  /** Certificate expiries reported by queryPrinterStatus (YYYYMMDD). */
  expiryCD?: string;
  expiryCA?: string;
  /** The department programming (programming.ts `SIM_DEPARTMENTS` by default). */
  departments?: Readonly<Record<number, DepartmentClass>>;
  /** Lottery codes refused with status 30 (`SimPrinterOptions.refusedLotteryCodes`). */
  refusedLotteryCodes?: readonly string[];
}

/** What `onHandled` listeners learn about a request. */
export interface HandledRequest {
  /** The fpmate root, or `(unparseable)`. */
  root: string;
  /** Whether a document was emitted. */
  printed: boolean;
}

export interface FpmateSimulator extends Rebootable {
  /** Base address of the printer, e.g. http://127.0.0.1:41234 (fpmate.cgi lives below it). */
  readonly url: string;
  /** Every document "printed", oldest first. */
  readonly printed: PrintedDocument[];
  /** Live counters: current Z and the last document number within it. */
  readonly counters: { readonly z: number; readonly doc: number };
  /** The open day's totals (what an X report would show). */
  readonly totals: DayTotals;
  /** The department programming in force. */
  readonly departments: Readonly<Record<number, DepartmentClass>>;
  /** Requests received, by fpmate root (for tests that count exchanges). */
  readonly requests: string[];
  /** The `directIO` commands received, known or not, oldest first. */
  readonly directIo: string[];
  /** Bytes of oversized answers actually written before the peer hung up. */
  readonly oversizedBytesWritten: number;
  /**
   * Calls `listener` once each request is handled (the document printed or refused), before its
   * answer goes out: a test flips fault switches there to fault the next exchange. Returns a
   * function that removes the listener.
   */
  onHandled(listener: (request: HandledRequest) => void): () => void;
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

const parser = new XMLParser(ORDERED_XML);

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
  const clock = options.clock ?? systemClock;
  const faults: Faults = {};
  const printer = new SimPrinter(
    {
      serial: options.serial ?? '99MEY123456',
      clock,
      timeZone: options.timeZone ?? 'Europe/Rome',
      expiryCD: options.expiryCD ?? '20301231',
      expiryCA: options.expiryCA ?? '20301231',
      departments: options.departments ?? SIM_DEPARTMENTS,
      refusedLotteryCodes: options.refusedLotteryCodes ?? [],
    },
    faults,
  );
  const requests: string[] = [];
  const directIo: string[] = [];
  // A listener's error reaches the caller, as a test's failed expectation must.
  const listeners = new Listeners<[HandledRequest]>((error) => {
    throw error;
  });
  let oversizedBytesWritten = 0;
  const handled = (request: HandledRequest) => listeners.emit(request);

  const answer = async (body: string, exchange: SimulatorExchange<Faults>) => {
    const { res, send } = exchange;
    const parsed = rootOf(body);
    const root = parsed?.root ?? '(unparseable)';
    requests.push(root);
    for (const e of parsed?.elements ?? []) if (e.name === 'directIO') directIo.push(e.attrs.command ?? '');
    if (faults.busy) {
      handled({ root, printed: false });
      return send(failureXml('LAN_TIME_OUT', '0', printer.printerStatus()));
    }
    if (!parsed) {
      handled({ root, printed: false });
      return send(failureXml('PARSER_ERROR', '0', printer.printerStatus()));
    }
    const printing = PRINTING_ROOTS.has(parsed.root);
    if (printing && faults.dropBeforePrint) {
      handled({ root, printed: false });
      return exchange.drop();
    }
    const result = printer.handle(parsed.root, parsed.elements);
    // Read before the listeners run: they may switch the faults off for the next exchange.
    const f = { ...faults };
    handled({ root, printed: result.printed });
    if (printing && result.printed && f.dropAfterPrint) return exchange.drop();
    if (f.oversizedAnswer) {
      if (printing && f.slow) await clock.sleep(f.slow.ms);
      return flood(res, f.oversizedAnswer.bytes);
    }
    if (f.truncatedAnswer) {
      if (printing && f.slow) await clock.sleep(f.slow.ms);
      return truncate(res, result.xml);
    }
    let xml = result.xml;
    if (printing && result.printed && f.timeOutAfterPrint)
      xml = failureXml('LAN_TIME_OUT', '0', printer.printerStatus());
    else if (printing && result.printed && f.paperEndsAfterPrint)
      xml = failureXml('EPTR_REC_EMPTY', '0', printer.printerStatus());
    await exchange.deliver(xml, printing, f);
  };

  /** Streams `bytes` of junk as the answer, pausing when the peer reads slowly, stopping when it hangs up. */
  const flood = (res: ServerResponse, bytes: number) => {
    res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
    const chunk = Buffer.alloc(64 * 1024, '<a>');
    let left = bytes;
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        const n = Math.min(left, chunk.length);
        left -= n;
        oversizedBytesWritten += n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };

  /** Announces the whole answer, sends half of it, then drops the connection. */
  const truncate = (res: ServerResponse, xml: string) => {
    const bytes = Buffer.from(xml, 'utf8');
    res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Length': bytes.length });
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.socket?.destroy());
  };

  const http = await startSimulatorHttp({
    ...options,
    clock,
    faults,
    serves: (path) => path.endsWith('/cgi-bin/fpmate.cgi'),
    // fpmate answers requests as they come (a status read is answered while a document prints).
    oneAtATime: false,
    handle: answer,
  });

  return {
    url: http.url,
    printed: printer.printed,
    counters: printer.counters,
    get totals() {
      return printer.totals;
    },
    departments: options.departments ?? SIM_DEPARTMENTS,
    requests,
    directIo,
    get oversizedBytesWritten() {
      return oversizedBytesWritten;
    },
    onHandled(listener) {
      return listeners.add(listener);
    },
    setFault: (name, value) => http.setFault(name, value),
    // A restart drops the connections; the fiscal memory keeps every counter and document, and
    // fpmate holds no request id (the family's witness is the last document, directIO 1387).
    reboot: () => http.dropConnections(),
    close: () => http.close(),
  };
}
