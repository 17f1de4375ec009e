import type { JobResult } from '../../src/drivers-api/types.js';
import type { DocumentReference } from '../fiscal-it/reference.js';
import { customResults as m } from './messages.js';

/** A printed fiscal document as the driver reports it. */
export interface Printed {
  kind: 'sale' | 'refund' | 'void';
  z: number | undefined;
  doc: number | undefined;
  serial: string | undefined;
  totalCents?: number | undefined;
  dateTime?: string | undefined;
  reference?: DocumentReference | undefined;
  recovered: boolean;
}

const pad4 = (n: number) => String(n).padStart(4, '0');

/** `zzzz-nnnn`, the number an Italian RT prints on a document. */
export function docLabel(z: number, doc: number): string {
  return `${pad4(z)}-${pad4(doc)}`;
}

/** The answer's own numbers: `nClose` (the Z the document belongs to) and `fiscalDoc` (XML p.27). */
export function numbersOf(addInfo: Record<string, string>): { z: number; doc: number } | undefined {
  const z = addInfo.nClose?.trim();
  const doc = addInfo.fiscalDoc?.trim();
  if (!z || !doc || !/^\d+$/.test(z) || !/^\d+$/.test(doc)) return undefined;
  return { z: Number(z), doc: Number(doc) };
}

export function printedResult(p: Printed): JobResult {
  const serial = p.serial ?? m.unknownSerial();
  const details: Record<string, unknown> = { printerSerial: p.serial ?? null };
  if (p.z === undefined || p.doc === undefined) {
    return { notes: m.printedUnnumbered({ serial }), details: { ...details, recovered: p.recovered } };
  }
  const label = docLabel(p.z, p.doc);
  details.receiptNumber = label;
  details.zNumber = p.z;
  details.documentNumber = p.doc;
  if (p.dateTime) details.dateTime = p.dateTime;
  if (p.reference)
    details.reference = `${p.reference.kind} ${docLabel(p.reference.z, p.reference.doc)} ${p.reference.date}`;
  if (p.recovered) details.recovered = true;
  const notes = p.recovered
    ? m.recovered({ kind: p.kind, label, serial })
    : m.printed({ kind: p.kind, label, serial });
  return { notes, details };
}
