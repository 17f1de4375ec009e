import type { Clock } from '../../../src/clock.js';
import type { LocalDateTime } from '../../../src/time-zone.js';
import type { OpenReceipt, ReferenceCheck } from './reference.js';
import type { CustomFaults, CustomPrintedDocument, DayTotals } from './types.js';
import type { AnswerNode } from './xml.js';

/**
 * The simulated printer's state as its parts see it (printer.ts implements it; answer.ts,
 * close.ts, commands.ts, direct-io.ts and documents.ts read and change it), kept apart so that
 * none of them imports printer.ts back.
 */

export interface CustomDepartment {
  description: string;
  /** The VAT slot a line of this department takes when it names none. */
  idVat: number;
}

export interface CustomSimPrinterOptions {
  serial: string;
  clock: Clock;
  timeZone: string;
  /**
   * The VAT table, slot → rate in basis points (2200 = 22%): slots 01–11 (directIO manual rev 6.00
   * p.253, `VATIDX`); `setVatRate` (XML p.116) changes it, as a technician does.
   */
  vatRates: Map<number, number>;
  /** Slot → its exempt code, 1–6 (p.253 `EXCODE`; XML p.71); a slot not listed answers 0. */
  exemptCodes: Map<number, number>;
  departments: Readonly<Record<number, CustomDepartment>>;
  /** The number of the last Z closed before the simulator started. */
  lastZ: number;
}

/** What one request's answer carries besides the default nodes. */
export interface Exchange {
  before: AnswerNode[];
  responseBuf?: string;
  after: AnswerNode[];
  rawCommand?: string;
  closed?: CustomPrintedDocument;
  nClose?: number;
  notFiscalDoc?: number;
  /** A whole answer of its own (getInfo, queryPrinterStatus). */
  answer?: string;
  printed: boolean;
}

export interface PrinterState {
  readonly o: CustomSimPrinterOptions;
  readonly faults: CustomFaults;
  readonly printed: CustomPrintedDocument[];
  readonly counters: { z: number; doc: number };
  day: DayTotals;
  readonly period: DayTotals;
  open: OpenReceipt | undefined;
  notFiscal: { text: string[] } | undefined;
  lastIdCmd: { id: string; tag: string } | undefined;
  lastCommand: string;
  lastCheck: ReferenceCheck | undefined;
  dayOpenedAt: number | undefined;
  lastZAt: number | undefined;
  nonFiscalNumber: number;
  /** How often a reset cancelled another terminal's document (never, from this agent). */
  foreignResets: number;
  printerStatus(): string;
  fpStatus(): string;
  receiptStep(): string;
  local(at?: number): LocalDateTime;
  isoDateTime(at?: number): string;
  dayExpired(): boolean;
  lastDocument(fiscalOnly: boolean): CustomPrintedDocument | undefined;
  emit(
    ex: Exchange,
    d: Pick<CustomPrintedDocument, 'kind' | 'totalCents' | 'vat' | 'lines' | 'payments' | 'text'> &
      Partial<CustomPrintedDocument>,
  ): CustomPrintedDocument;
}
