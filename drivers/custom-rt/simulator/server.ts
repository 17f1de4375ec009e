import { systemClock } from '../../../src/clock.js';
import { Listeners } from '../../../src/listeners.js';
import type { PrinterSimulatorOptions, Rebootable } from '../../simulator-kit/faults.js';
import { type SimulatorExchange, startSimulatorHttp } from '../../simulator-kit/http.js';
import { type CustomDepartment, CustomSimPrinter } from './printer.js';
import type { CustomFaults, CustomPrintedDocument } from './types.js';
import { parseRequest } from './xml.js';

export type { CustomDepartment } from './printer.js';
export type { DayTotals } from './reports.js';
export type {
  BusyStatus,
  CustomFaults,
  CustomPrintedDocument,
  CustomPrintedLine,
  CustomPrintedPayment,
} from './types.js';
export type CustomFaultName = keyof CustomFaults;

/** Serial default STMTE501091; the manual documents only HTTP (p.13), HTTPS is for the agent's tests. */
export interface CustomRtSimulatorOptions extends PrinterSimulatorOptions {
  /** HTTP Basic credentials required; default the serial as user and password; null: none. */
  credentials?: { user: string; password: string } | null;
  /** Department → its VAT slot (default 1–4 → slots 1–4). */
  departments?: Readonly<Record<number, CustomDepartment>>;
  /** VAT slot (1–11, DIO p.253) → rate in basis points (default 1: 22%, 2: 10%, 3: 4%, 4: 5%). */
  vatRates?: Readonly<Record<number, number>>;
  /** VAT slot → its exempt code 1–6 (DIO p.253 `EXCODE`, XML p.71), for slots at 0 %. */
  exemptCodes?: Readonly<Record<number, number>>;
  /** The last Z closed before the simulator starts (default 0: the first day is Z 1). */
  lastZ?: number;
}

/** What `onHandled` listeners learn about a request. */
export interface CustomHandledRequest {
  /** The request root, or `(unparseable)`. */
  root: string;
  /** Whether a document or report was emitted. */
  printed: boolean;
}

export interface CustomRtSimulator extends Rebootable {
  /** Base address, e.g. http://127.0.0.1:41234; requests go to POST {url}/xml/printer.htm. */
  readonly url: string;
  /** Every document "printed", oldest first. */
  readonly printed: CustomPrintedDocument[];
  /** Live counters: the open day's Z (last closed + 1) and the last document number within it. */
  readonly counters: { readonly z: number; readonly doc: number };
  /** Requests received, by root (for tests that count exchanges). */
  readonly requests: string[];
  /** Every `IdCmd` received, in order, whether or not its node was processed. */
  readonly idCmds: string[];
  /** The `directIO` commands received, oldest first. */
  readonly directIo: string[];
  /**
   * Calls `listener` once each request is handled (the document printed or refused), before its
   * answer goes out: a test flips fault switches there to fault the next exchange.
   */
  onHandled(listener: (request: CustomHandledRequest) => void): () => void;
  /** Another terminal opens a document under `idCmd` (the bar's till on the same RT: p.133). */
  openForeignDocument(idCmd: string): void;
  /** The other terminal's document ends. */
  endForeignDocument(): void;
  /** How often a reset cancelled another terminal's document. */
  readonly foreignResets: number;
  /**
   * Turns a fault on or off: `true`/`false` for switches, an object for faults with parameters
   * (`slow: {ms}`, `busy: {status}`, `refuseDocuments: {status}`, `filesToSend: {count}`). `refused` stops listening until off.
   */
  setFault<N extends CustomFaultName>(
    name: N,
    value: boolean | Exclude<CustomFaults[N], boolean | undefined>,
  ): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_SERIAL = 'STMTE501091';
const DEFAULT_VAT: Record<number, number> = { 1: 2200, 2: 1000, 3: 400, 4: 500 };
const DEFAULT_DEPARTMENTS: Record<number, CustomDepartment> = {
  1: { description: 'REPARTO 1', idVat: 1 },
  2: { description: 'REPARTO 2', idVat: 2 },
  3: { description: 'REPARTO 3', idVat: 3 },
  4: { description: 'REPARTO 4', idVat: 4 },
};
const PRINTING_ROOTS = new Set(['printerFiscalReceipt', 'printerNotFiscal', 'printerFiscalReport']);
const GARBAGE = '<!DOCTYPE html><html><head><title>CUSTOM</title></head><body><h1>Login</h1></body></html>';

/**
 * Starts a simulated Custom RT printer serving the XML web service at `POST /xml/printer.htm`
 * (XML p.13; fiskaltrust `Clients/CustomRTPrinterClient.cs`, lyancoder `xml-custom-http.ts`).
 * Requests are handled one at a time, in arrival order, as the device is single-threaded (DIO
 * p.20; fiskaltrust serialises behind a semaphore). HTTP Basic with the serial as user and
 * password is what every public client sends (fiskaltrust `CustomRTPrinterConfiguration.cs` and
 * its tests, lyancoder `send()`); the manual documents no authentication, so `credentials: null`
 * turns the check off. A wrong or missing one is answered 401.
 */
export async function startCustomRtSimulator(
  options: CustomRtSimulatorOptions = {},
): Promise<CustomRtSimulator> {
  const clock = options.clock ?? systemClock;
  const serial = options.serial ?? DEFAULT_SERIAL;
  const faults: CustomFaults = {};
  const printer = new CustomSimPrinter(
    {
      serial,
      clock,
      timeZone: options.timeZone ?? 'Europe/Rome',
      vatRates: new Map(Object.entries(options.vatRates ?? DEFAULT_VAT).map(([k, v]) => [Number(k), v])),
      exemptCodes: new Map(Object.entries(options.exemptCodes ?? {}).map(([k, v]) => [Number(k), v])),
      departments: options.departments ?? DEFAULT_DEPARTMENTS,
      lastZ: options.lastZ ?? 0,
    },
    faults,
  );
  const credentials =
    options.credentials === undefined ? { user: serial, password: serial } : options.credentials;
  const requests: string[] = [];
  const idCmds: string[] = [];
  const directIo: string[] = [];
  const listeners = new Listeners<[CustomHandledRequest]>((error) => {
    throw error;
  });

  const handle = async (body: string, exchange: SimulatorExchange<CustomFaults>) => {
    const parsed = parseRequest(body);
    const root = parsed?.root ?? '(unparseable)';
    requests.push(root);
    for (const node of parsed?.nodes ?? []) {
      if (node.attrs.IdCmd !== undefined) idCmds.push(node.attrs.IdCmd);
      if (node.name === 'directIO') directIo.push(node.attrs.command ?? '');
    }
    if (faults.garbage) {
      listeners.emit({ root, printed: false });
      return exchange.send(GARBAGE, 'text/html');
    }
    const result = parsed
      ? printer.handle(parsed.root, parsed.nodes)
      : { xml: printer.parserError(), printed: false };
    // Read before the listeners run: they may switch the faults off for the next exchange.
    const f = { ...faults };
    listeners.emit({ root, printed: result.printed });
    await exchange.deliver(result.xml, PRINTING_ROOTS.has(root), f);
  };

  const http = await startSimulatorHttp({
    ...options,
    clock,
    faults,
    serves: (path) => path === '/xml/printer.htm',
    authorization: credentials
      ? `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`
      : undefined,
    // One request at a time, in arrival order: the device is single-threaded (DIO p.20).
    oneAtATime: true,
    handle,
  });

  return {
    url: http.url,
    printed: printer.printed,
    counters: printer.counters,
    requests,
    idCmds,
    directIo,
    onHandled(listener) {
      return listeners.add(listener);
    },
    setFault: (name, value) => http.setFault(name, value),
    reboot: () => {
      printer.reboot();
      http.dropConnections();
    },
    openForeignDocument: (idCmd) => printer.openForeignDocument(idCmd),
    endForeignDocument: () => printer.endForeignDocument(),
    get foreignResets() {
      return printer.foreignResets;
    },
    close: () => http.close(),
  };
}
