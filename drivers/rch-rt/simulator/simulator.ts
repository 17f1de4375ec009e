import { type Clock, systemClock } from '../../../src/clock.js';
import { Listeners } from '../../../src/listeners.js';
import { listenService } from './http.js';
import { type Handled, initialState, RchSimPrinter } from './printer.js';
import { parseServiceRequest } from './service-xml.js';
import type { Programming } from './state.js';
import type {
  RchDepartment,
  RchDocument,
  RchFaultName,
  RchFaults,
  RchHandledRequest,
  RchKey,
  RchPaymentForm,
  RchVatSlot,
} from './types.js';

export interface RchRtSimulatorOptions {
  host?: string;
  /** 0 picks a free port; read it back from `url`. */
  port?: number;
  /** The printer's serial (matricola): RCH's are `72` + two letters + seven digits (rch-driver-js `src/RegexUtils.ts`). */
  serial?: string;
  /** What `<</?f` answers. */
  firmware?: string;
  clock?: Clock;
  /** Time zone of the printer's clock (default Europe/Rome). */
  timeZone?: string;
  vat?: Readonly<Record<number, RchVatSlot>>;
  departments?: Readonly<Record<number, RchDepartment>>;
  payments?: Readonly<Record<number, RchPaymentForm>>;
  /** Closures made before the simulator starts (default 0: the first day's documents are Z 1). */
  lastZ?: number;
  /** Serve HTTPS with this key and certificate (PEM): for the agent's certificate pinning tests. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface RchRtSimulator {
  /** Base address, e.g. http://127.0.0.1:41234; requests go to POST {url}/service.cgi. */
  readonly url: string;
  /** Every document printed (and every one cancelled), oldest first: sales, refunds, voids, reports. */
  readonly documents: readonly RchDocument[];
  /** The X and Z reports, oldest first. */
  readonly reports: readonly RchDocument[];
  /** The electronic journal: each printed document's lines, oldest first. */
  readonly journal: readonly (readonly string[])[];
  /** Live counters: closures made, the open day's Z, its last document number, the day open or not. */
  readonly counters: {
    readonly lastZ: number;
    readonly z: number;
    readonly doc: number;
    readonly nonFiscal: number;
    readonly dayOpen: boolean;
  };
  /** The key selected, and whether (and whose) a document is open. */
  readonly condition: { readonly key: RchKey; readonly open?: 'web-service' | 'other-terminal' };
  /** The commands of each request received, in order (busy ones included). */
  readonly requests: readonly (readonly string[])[];
  /** Calls `listener` once each request is handled, before its answer goes out. */
  onHandled(listener: (request: RchHandledRequest) => void): () => void;
  /**
   * Turns a fault on or off: `true`/`false` for switches, an object for faults with parameters
   * (`slow: {ms}`, `otherTerminalDocument: {lines, closeAs, answer}`). Turning
   * `otherTerminalDocument` off ends that document as its `closeAs` says; `refused` stops
   * listening until turned off (resolves once done). Every other switch takes effect at once.
   */
  setFault<N extends RchFaultName>(
    name: N,
    value: boolean | Exclude<RchFaults[N], boolean | undefined>,
  ): Promise<void>;
  /**
   * A power cycle: connections dropped (held answers too), volatile state lost (`printer.ts`
   * `reboot`); with `downMs`, the port closed that long on the simulator's clock, then listening again.
   */
  reboot(downMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_SERIAL = '72MS0012345';
export const DEFAULT_VAT: Readonly<Record<number, RchVatSlot>> = {
  1: { rateBp: 2200 },
  2: { rateBp: 1000 },
  3: { rateBp: 400 },
  4: { rateBp: 500 },
  5: { nature: 'N4' },
};
export const DEFAULT_DEPARTMENTS: Readonly<Record<number, RchDepartment>> = {
  1: { description: 'REPARTO 1', vat: 1, kind: 'goods' },
  2: { description: 'REPARTO 2', vat: 2, kind: 'goods' },
  3: { description: 'REPARTO 3', vat: 3, kind: 'goods' },
  4: { description: 'REPARTO 4', vat: 4, kind: 'goods' },
  5: { description: 'REPARTO 5', vat: 5, kind: 'services' },
};
/** The forms and labels of a real printer's programming (optyker-web `rch-preflight.js`, forms 1–10). */
export const DEFAULT_PAYMENTS: Readonly<Record<number, RchPaymentForm>> = {
  1: { description: 'CONTANTI', kind: 'cash' },
  2: { description: 'NON RISCOSSO BENI', kind: 'not-collected' },
  3: { description: 'ASSEGNI', kind: 'cheque' },
  4: { description: 'CARTE ELETTRONICHE', kind: 'electronic' },
  5: { description: 'TICKETS', kind: 'ticket' },
  6: { description: 'NON RISCOSSO SERVIZI', kind: 'not-collected' },
  7: { description: 'NON RISCOSSO FATTURE', kind: 'not-collected' },
  8: { description: 'NON RISCOSSO DCR SSN', kind: 'not-collected' },
  9: { description: 'SCONTO A PAGARE', kind: 'discount' },
  10: { description: 'BUONI MULTIUSO', kind: 'voucher' },
};

/** Starts a simulated RCH RT printer serving its web service on `host:port` (see `index.ts`). */
export async function startRchRtSimulator(options: RchRtSimulatorOptions = {}): Promise<RchRtSimulator> {
  const clock = options.clock ?? systemClock;
  const programming: Programming = {
    serial: options.serial ?? DEFAULT_SERIAL,
    firmware: options.firmware ?? 'FW v. 8.1.0',
    clock,
    timeZone: options.timeZone ?? 'Europe/Rome',
    vat: options.vat ?? DEFAULT_VAT,
    departments: options.departments ?? DEFAULT_DEPARTMENTS,
    payments: options.payments ?? DEFAULT_PAYMENTS,
  };
  const state = initialState(options.lastZ ?? 0);
  const printer = new RchSimPrinter(programming, state);
  const requests: string[][] = [];
  const listeners = new Listeners<[RchHandledRequest]>((error) => {
    throw error;
  });
  const service = await listenService(
    {
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      clock,
      faults: state.faults,
      tls: options.tls,
    },
    {
      handle: (body) => printer.handle(body),
      busy: (body) => printer.busyAnswer(parseServiceRequest(body) ?? []),
      handled: (result: Handled) => {
        requests.push(result.commands);
        const { errorCode, lastCmd, busy } = result.flags;
        listeners.emit({ commands: result.commands, printed: result.printed, errorCode, lastCmd, busy });
      },
    },
  );
  let closed = false;

  return {
    url: service.url,
    get documents() {
      return state.documents;
    },
    get reports() {
      return state.documents.filter((d) => d.kind === 'x-report' || d.kind === 'z-report');
    },
    get journal() {
      return state.documents.filter((d) => d.journal.length > 0).map((d) => d.journal);
    },
    get counters() {
      return {
        lastZ: state.lastZ,
        z: state.lastZ + 1,
        doc: state.lastDoc,
        nonFiscal: state.lastNonFiscal,
        dayOpen: state.dayOpen,
      };
    },
    get condition() {
      return { key: state.key, ...(state.open ? { open: state.open.terminal } : {}) };
    },
    requests,
    onHandled: (listener) => listeners.add(listener),
    setFault(name, value) {
      if (name === 'otherTerminalDocument') {
        const spec = value === true ? {} : value;
        if (spec) printer.openOtherTerminal(spec as NonNullable<RchFaults['otherTerminalDocument']>);
        else printer.closeOtherTerminal(state.faults.otherTerminalDocument?.closeAs);
        return service.setFault('otherTerminalDocument', spec ? { ...spec } : false);
      }
      return service.setFault(name, value as RchFaults[typeof name] | boolean);
    },
    async reboot(downMs = 0) {
      if (downMs === 0) {
        // An instant restart: connections dropped (held answers too), the port never closed.
        service.dropConnections();
        return printer.reboot();
      }
      // The port closes while the printer restarts.
      await service.setFault('refused', true);
      printer.reboot();
      await clock.sleep(downMs);
      if (!closed) await service.setFault('refused', false);
    },
    async close() {
      if (closed) return;
      closed = true;
      await service.close();
    },
  };
}
