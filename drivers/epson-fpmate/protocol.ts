import { type LocalDateTime, localDateTime as zonedDateTime } from '../../src/time-zone.js';
/**
 * Pure facts of the Epson Fiscal ePOS-Print ("fpmate") protocol shared by the driver and the
 * simulator: the `printerStatus` digits, the refund/void reference line, the
 * "last emitted document" record and dates in Italian local time (money lives in `money.ts`).
 *
 * Sources (read for understanding): Epson "ePOS Fiscal Print Solution Development Guide",
 * Epson "Communication Protocol" for FP-81 II RT / FP-90III, OCA l10n-italy `fiscal_epos_print`,
 * fiskaltrust `scu-it` (EpsonRTPrinter). See README.md for what is our own reading.
 */

/** The printer's text line: a receipt line holds at most this many characters. */
export const DEFAULT_LINE_LENGTH = 38;

// ---------------------------------------------------------------------------------------------
// printerStatus: five characters

export type PrinterCondition = 'ok' | 'paper-low' | 'offline' | 'unknown';
export type JournalCondition =
  | 'ok'
  | 'near-full'
  | 'to-format'
  | 'previous'
  | 'other-device'
  | 'full'
  | 'unknown';
export type DocumentState =
  | 'fiscal-open'
  | 'closed'
  | 'non-fiscal-open'
  | 'payment-in-progress'
  | 'error-after-escpos'
  | 'negative-receipt'
  | 'fiscal-document-open'
  | 'other'
  | 'unknown';

export interface DecodedPrinterStatus {
  printer: PrinterCondition;
  journal: JournalCondition;
  document: DocumentState;
  raw: string;
}

const PRINTER_DIGIT: Record<string, PrinterCondition> = { '0': 'ok', '2': 'paper-low', '3': 'offline' };
const JOURNAL_DIGIT: Record<string, JournalCondition> = {
  '0': 'ok',
  '1': 'near-full',
  '2': 'to-format',
  '3': 'previous',
  '4': 'other-device',
  '5': 'full',
};
const DOCUMENT_DIGIT: Record<string, DocumentState> = {
  '0': 'fiscal-open',
  '1': 'closed',
  '2': 'non-fiscal-open',
  '3': 'payment-in-progress',
  '4': 'error-after-escpos',
  '5': 'negative-receipt',
  '6': 'error-after-escpos',
  '7': 'other',
  '8': 'fiscal-document-open',
};

/** Decodes `printerStatus` (e.g. "20110"); unknown digits come back as 'unknown', never a throw. */
export function decodePrinterStatus(raw: string): DecodedPrinterStatus {
  return {
    printer: PRINTER_DIGIT[raw.charAt(0)] ?? 'unknown',
    journal: JOURNAL_DIGIT[raw.charAt(1)] ?? 'unknown',
    document: raw.length >= 4 ? (DOCUMENT_DIGIT[raw.charAt(3)] ?? 'other') : 'unknown',
    raw,
  };
}

/** True when the printer holds a document it has not closed (a reset is due). */
export function hasOpenDocument(status: DecodedPrinterStatus): boolean {
  return ['fiscal-open', 'non-fiscal-open', 'payment-in-progress', 'fiscal-document-open'].includes(
    status.document,
  );
}

// ---------------------------------------------------------------------------------------------
// Document numbers

/** A fiscal document's place: Z is the daily-closure number, doc the number within that day. */
export interface DocPosition {
  z: number;
  doc: number;
}

/** "0012-0034": how a document is shown on receipts and in Notes. */
export function docLabel(position: DocPosition): string {
  return `${pad4(position.z)}-${pad4(position.doc)}`;
}

export function pad4(n: number): string {
  return String(n).padStart(4, '0');
}

/** Compares two positions: negative when `a` is earlier, 0 when equal, positive when later. */
export function comparePositions(a: DocPosition, b: DocPosition): number {
  return a.z !== b.z ? a.z - b.z : a.doc - b.doc;
}

// ---------------------------------------------------------------------------------------------
// Dates in the fiscal (Italian) time zone

export type { LocalDateTime };

/** The wall-clock date and time of `instant` in `timeZone` (IANA), DST included. */
export function localDateTime(instant: Date, timeZone: string): LocalDateTime {
  return zonedDateTime(instant.getTime(), timeZone);
}

const two = (n: number) => String(n).padStart(2, '0');

/** "ddMMyyyy" of `instant` in `timeZone`: the date field of a refund/void reference. */
export function ddMMyyyy(instant: Date, timeZone: string): string {
  const t = localDateTime(instant, timeZone);
  return `${two(t.day)}${two(t.month)}${t.year}`;
}

/** "yyyy-MM-dd HH:mm" from the response's `d/M/yyyy` and `HH:mm`; undefined when malformed. */
export function receiptDateTime(date: string | undefined, time: string | undefined): string | undefined {
  const d = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(date?.trim() ?? '');
  if (!d) return undefined;
  const base = `${d[3]}-${two(Number(d[2]))}-${two(Number(d[1]))}`;
  const t = /^(\d{1,2}):(\d{2})/.exec(time?.trim() ?? '');
  return t ? `${base} ${two(Number(t[1]))}:${t[2]}` : base;
}
