import type { FiscalDocument } from '../../src/connector/model.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { localDateTime } from '../../src/time-zone.js';
import { fiscalRefusals as r } from './messages.js';

/**
 * The original a refund (reso) or void (annullo) refers to: its Z (daily closure) number, its
 * document number within that Z, its date in Italian local time and the serial of the RT that
 * emitted it — what AdE's rules ask of a refund (principio di diritto 21/2019: the data of the
 * original certifying document) and what every RT protocol carries (Epson `REFUND zzzz nnnn
 * ddmmyyyy serial`; Custom `docRefZ`, `docRefNumber`, `docDate`, `fiscalSerial`). A refund whose
 * original cannot be known is "ND" (not documented: fiskaltrust `scu-it` `REFUND 0000 0000
 * <today> ND`; Custom `beginRtDocRefundSpecial service="ND"`), printed only when the
 * configuration allows it (`unreferencedRefunds`, off by default).
 */
export interface DocumentReference {
  kind: 'REFUND' | 'VOID';
  z: number;
  doc: number;
  /** ddMMyyyy in the fiscal time zone. */
  date: string;
  serial: string;
}

type Rebated = NonNullable<Extract<FiscalDocument, { type: 'data' }>['rebated']>;

const two = (n: number) => String(n).padStart(2, '0');

/** `instant` as ddMMyyyy in `timeZone`. */
export function ddMMyyyy(instant: number, timeZone: string): string {
  const t = localDateTime(instant, timeZone);
  return `${two(t.day)}${two(t.month)}${t.year}`;
}

function counter(text: string | undefined, what: string, notes: Message): number {
  const trimmed = text?.trim() ?? '';
  if (!/^\d{1,4}$/.test(trimmed) || Number(trimmed) === 0) {
    throw new AgentError('COMMAND_INVALID', `Refund reference: ${what} "${text ?? ''}" is not 1–9999`, {
      notes,
    });
  }
  return Number(trimmed);
}

/**
 * THE mapping from the platform's refund fields to the reference (our reading of the platform's
 * fields — kept in this one function so that it can be corrected in one place):
 * - `RebatedReceiptSequence` → Z number (daily-closure number);
 * - `RebatedReceiptNumber` → document number within that Z (a combined "zzzz-nnnn" is accepted
 *   when the sequence is absent);
 * - `RebatedReceiptDateTimeUtc` → date, converted from UTC to the fiscal time zone (Europe/Rome);
 * - `PrinterSerialNumber` → serial; this printer's own serial when the platform gives none.
 *
 * Rejects with COMMAND_INVALID when a field is missing or malformed.
 */
export function refundReference(
  rebated: Rebated | undefined,
  printerSerialNumber: string | undefined,
  ownSerial: string | undefined,
  timeZone: string,
  kind: DocumentReference['kind'] = 'REFUND',
): DocumentReference {
  let zText = rebated?.sequence;
  let docText = rebated?.receiptNumber;
  const combined = /^\s*(\d{1,4})-(\d{1,4})\s*$/.exec(docText ?? '');
  if (combined && (zText === undefined || zText.trim() === '')) {
    zText = combined[1];
    docText = combined[2];
  }
  const z = counter(zText, 'Z number (RebatedReceiptSequence)', r.referenceZ());
  const doc = counter(docText, 'receipt number (RebatedReceiptNumber)', r.referenceNumber());
  const when = rebated?.dateTimeUtc ? Date.parse(rebated.dateTimeUtc) : Number.NaN;
  if (Number.isNaN(when)) {
    throw new AgentError(
      'COMMAND_INVALID',
      'Refund reference: RebatedReceiptDateTimeUtc is missing or invalid',
      { notes: r.referenceDate() },
    );
  }
  const serial = (printerSerialNumber?.trim() || ownSerial?.trim() || '').toUpperCase();
  if (!/^[0-9A-Z]{1,16}$/.test(serial)) {
    throw new AgentError('COMMAND_INVALID', 'Refund reference: no usable printer serial number', {
      notes: r.referenceSerial(),
    });
  }
  return { kind, z, doc, date: ddMMyyyy(when, timeZone), serial };
}

/** The platform gave no reference at all: no number, no sequence, no date. */
export function isUnreferenced(rebated: Rebated | undefined): boolean {
  const blank = (v: string | undefined) => v === undefined || v.trim() === '';
  return !rebated || (blank(rebated.receiptNumber) && blank(rebated.sequence) && blank(rebated.dateTimeUtc));
}

/** A refund whose original receipt is not known ("ND"), dated `now`. */
export function unreferencedRefund(now: number, timeZone: string): DocumentReference {
  return { kind: 'REFUND', z: 0, doc: 0, date: ddMMyyyy(now, timeZone), serial: 'ND' };
}

/** True for the reference of an unreferenced refund. */
export function isNoReference(ref: DocumentReference): boolean {
  return ref.serial === 'ND' && ref.z === 0 && ref.doc === 0;
}

/** "0012-0034" (or "12-34") → Z 12, document 34; undefined when it is not such a pair. */
export function parseReceiptLabel(text: string): { z: number; doc: number } | undefined {
  const m = /^\s*(\d{1,4})-(\d{1,4})\s*$/.exec(text);
  if (!m) return undefined;
  const z = Number(m[1]);
  const doc = Number(m[2]);
  return z > 0 && doc > 0 ? { z, doc } : undefined;
}
