import type { Clock } from '../../../src/clock.js';
import { localDateTime } from '../../../src/time-zone.js';
import { RCH_CODE, RchRefusal } from './codes.js';
import type {
  RchDayTotals,
  RchDepartment,
  RchDocument,
  RchFaults,
  RchKey,
  RchLine,
  RchPayment,
  RchPaymentForm,
  RchReference,
  RchTerminal,
  RchVatSlot,
} from './types.js';

/** The printer's programming, fixed for a simulator's life. */
export interface Programming {
  serial: string;
  firmware: string;
  clock: Clock;
  timeZone: string;
  vat: Readonly<Record<number, RchVatSlot>>;
  departments: Readonly<Record<number, RchDepartment>>;
  payments: Readonly<Record<number, RchPaymentForm>>;
}

/** A document being built: a sale, a refund (opened by `=r`) or a non-fiscal one (`=o`). */
export interface OpenDocument {
  kind: 'sale' | 'refund' | 'non-fiscal';
  terminal: RchTerminal;
  lines: RchLine[];
  payments: RchPayment[];
  /** The last command was `=S`: the next `%`/`V` adjusts the subtotal, not the last line. */
  atSubtotal: boolean;
  customerId?: string;
  lottery?: string;
  reference?: RchReference;
  /** Refunds: the sale they give back. */
  original?: RchDocument;
}

/**
 * What a real printer keeps. The counters, the journal and the day's totals are permanent (an
 * RT's fiscal memory and journal); `key` and `open` are volatile, lost by a reboot.
 */
export interface PrinterState {
  key: RchKey;
  /** Closures made (`<</?7`); the open day's documents belong to Z `lastZ + 1`. */
  lastZ: number;
  /** A fiscal day is open: a commercial document since the last Z. */
  dayOpen: boolean;
  /** Last commercial document number within the open day (`lastDocF`). */
  lastDoc: number;
  /** Last management document number (non-fiscal, reports: `lastDocNF`). */
  lastNonFiscal: number;
  grandTotalCents: number;
  day: RchDayTotals;
  open?: OpenDocument;
  documents: RchDocument[];
  faults: RchFaults;
}

export function emptyDay(): RchDayTotals {
  return {
    sales: { count: 0, cents: 0 },
    refunds: { count: 0, cents: 0 },
    voids: { count: 0, cents: 0 },
    vatSales: {},
    payments: {},
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** "dd-MM-yyyy HH:mm", the journal's date line, and "DDMMYY", the reference's date. */
export function printedDate(p: Programming, at: number): { dateTime: string; ddmmyy: string } {
  const t = localDateTime(at, p.timeZone);
  return {
    dateTime: `${two(t.day)}-${two(t.month)}-${t.year} ${two(t.hour)}:${two(t.minute)}`,
    ddmmyy: `${two(t.day)}${two(t.month)}${two(t.year % 100)}`,
  };
}

/** The sum of a per-slot map. */
export function sum(map: Readonly<Record<number, number>>): number {
  return Object.values(map).reduce((a, b) => a + b, 0);
}

export function addInto(target: Record<number, number>, add: Readonly<Record<number, number>>, sign = 1) {
  for (const [slot, cents] of Object.entries(add)) {
    const k = Number(slot);
    target[k] = (target[k] ?? 0) + sign * cents;
    if (target[k] === 0) delete target[k];
  }
}

/** The gross per VAT slot of a list of lines. */
export function vatOf(lines: readonly RchLine[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const line of lines) addInto(out, line.vat);
  return out;
}

/** The document being built, or a refusal when none is open (or another terminal's is). */
export function openDocument(s: PrinterState): OpenDocument {
  if (!s.open) throw new RchRefusal(RCH_CODE.noDocument);
  return s.open;
}

/** Refuses while any document is open: the command needs the printer idle. */
export function requireIdle(s: PrinterState): void {
  if (s.open) throw new RchRefusal(RCH_CODE.documentOpen);
}

/**
 * Files a finished document: commercial ones take the next number of the open day (from 1 after
 * each Z: iconic gutenbergPrinter-rch `PrinterCommands.java` printZReport, "CurrentReceiptNumber
 * = 1") and open the day; management ones take the next `lastDocNF`.
 */
export function file(
  p: Programming,
  s: PrinterState,
  doc: Omit<RchDocument, 'z' | 'number' | 'at' | 'dateTime' | 'journal'>,
  render: (doc: RchDocument) => string[],
): RchDocument {
  const at = p.clock.now();
  const commercial = doc.kind === 'sale' || doc.kind === 'refund' || doc.kind === 'void';
  let number = 0;
  if (commercial) {
    s.dayOpen = true;
    number = ++s.lastDoc;
  } else if (doc.kind !== 'cancelled') {
    number = ++s.lastNonFiscal;
  }
  const z = doc.kind === 'z-report' ? s.lastZ : s.lastZ + 1;
  const filed: RchDocument = { ...doc, z, number, at, dateTime: printedDate(p, at).dateTime, journal: [] };
  if (doc.kind !== 'cancelled') filed.journal = render(filed);
  s.documents.push(filed);
  return filed;
}
