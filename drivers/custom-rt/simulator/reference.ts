import { ddmmyy, digits } from './attrs.js';
import {
  type CustomDocReference,
  type CustomPrintedDocument,
  type CustomPrintedLine,
  type CustomPrintedPayment,
  CustomRefusal,
  ST,
  type VatGross,
} from './types.js';

/**
 * RT refund and void documents: `beginRtDocRefund` (XML p.38) and `beginRtDocAnnulment` (p.36)
 * name the original by Z (`docRefZ`, 1–9999), number (`docRefNumber`, 1–9999), date (`docDate`,
 * DDMMYY) and optionally the serial of the device that issued it (`fiscalSerial`). Both answer a
 * one-byte `responseBuf`: 0 document not found, 1 found, 2 operation not allowed; a refund also
 * answers `ejDocVat` with the original's VAT (p.38: rate with 2 implied decimals, 9-digit cents).
 * `checkOnly="1"` only checks (p.72 shows it alone in its request, followed by
 * `getVatTotalsOnDemand vatgroup="2"` for what can still be refunded): it opens nothing, and any
 * node after it in the same request is ignored (lyancoder's check request has none, FT sends no
 * check). Without it, a result other than 1 refuses the document with 5 and that `responseBuf`.
 *
 * "Not allowed" is our reading of when an RT refuses (the manual lists no cases): a void of a
 * document already voided or partly refunded, a refund of a voided document or of one with
 * nothing left to refund. A refund's lines may not exceed what is left per VAT slot (11).
 * `…Special` (pp.37, 39) opens one with no original on this device (`service` POS, VR or ND).
 */

/** A fiscal receipt, refund or void in progress (fpStatus 100). */
export interface OpenReceipt {
  kind: 'sale' | 'refund' | 'void';
  lines: CustomPrintedLine[];
  payments: CustomPrintedPayment[];
  text: string[];
  reference?: CustomDocReference;
  target?: CustomPrintedDocument;
  customerId?: string;
  lottery?: string;
  /** `printRecVoid` was sent: the end node closes it as cancelled (p.100). */
  cancelled: boolean;
  /** Another terminal's document (the bar's till on the same RT): `openForeignDocument`. */
  foreign?: boolean;
}

export type CheckResult = 0 | 1 | 2;

/** What refunds so far left of `doc`, per VAT slot. */
export function refundable(doc: CustomPrintedDocument): VatGross {
  const out: VatGross = {};
  if (doc.voided) return out;
  for (const [slot, gross] of Object.entries(doc.vat)) {
    out[Number(slot)] = Math.max(0, gross - (doc.refunded[Number(slot)] ?? 0));
  }
  return out;
}

const sum = (v: VatGross) => Object.values(v).reduce((s, g) => s + g, 0);

export interface Lookup {
  serial: string;
  documents: readonly CustomPrintedDocument[];
  /** DDMMYY of an instant in the printer's time zone. */
  dateOf(at: number): string;
}

export interface ReferenceCheck {
  result: CheckResult;
  reference: CustomDocReference;
  target?: CustomPrintedDocument;
}

export function checkReference(
  kind: 'refund' | 'void',
  a: Record<string, string>,
  l: Lookup,
): ReferenceCheck {
  const z = digits(a.docRefZ, 1, 9999);
  const doc = digits(a.docRefNumber, 1, 9999);
  const date = ddmmyy(a.docDate);
  const serial = a.fiscalSerial?.trim() || l.serial;
  if (serial.length < 9 || serial.length > 11) throw new CustomRefusal(ST.invalid);
  const reference = { z, doc, date, serial };
  const target = l.documents.find(
    (d) => d.kind === 'sale' && d.z === z && d.doc === doc && l.dateOf(d.at) === date,
  );
  // The printer can only find documents in its own journal.
  if (!target || serial !== l.serial) return { result: 0, reference };
  const refunded = sum(target.refunded) > 0;
  const allowed = kind === 'void' ? !target.voided && !refunded : sum(refundable(target)) > 0;
  return { result: allowed ? 1 : 2, reference, target };
}

/** `…Special` (XML pp.37, 39): a document not on this device. */
export function specialReference(a: Record<string, string>): CustomDocReference {
  const service = a.service ?? '';
  if (!['POS', 'VR', 'ND'].includes(service)) throw new CustomRefusal(ST.invalid);
  return { z: 0, doc: 0, date: ddmmyy(a.docDate), serial: service };
}

/** A refund line may not take back more than is left at its VAT slot. */
export function checkRefundLines(r: OpenReceipt): void {
  if (r.kind !== 'refund' || !r.target) return;
  const left = refundable(r.target);
  const asked: VatGross = {};
  for (const line of r.lines) asked[line.idVat] = (asked[line.idVat] ?? 0) + line.amountCents;
  for (const [slot, gross] of Object.entries(asked)) {
    if (gross > (left[Number(slot)] ?? 0)) throw new CustomRefusal(ST.wrongAmount);
  }
}
