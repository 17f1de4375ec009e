import type { JobResult } from '../../src/drivers-api/types.js';
import type { Message } from '../../src/messages/message.js';
import type { DocumentReference } from '../fiscal-it/reference.js';
import { epsonResults as m, oneAfterAnother, serialWords } from './messages-results.js';
import { parseCommaAmount } from './money.js';
import { docLabel, receiptDateTime } from './protocol.js';
import type { FpmateResponse } from './xml-response.js';

/** What is known of a printed fiscal document, from the answer or from the printer's memory. */
export interface PrintedReceipt {
  z: number;
  doc: number;
  /** "yyyy-MM-dd HH:mm" as the printer stamped it. */
  dateTime?: string | undefined;
  serial?: string | undefined;
  totalCents?: number | undefined;
  kind: 'sale' | 'refund' | 'void';
  reference?: DocumentReference | undefined;
  /** Confirmed by reading the printer after the answer was lost. */
  recovered: boolean;
  /** What the printer's answer said besides "printed" (paper running low …). */
  warnings: Message[];
}

/**
 * The result of a document the printer's memory shows it emitted after its answer was lost
 * (recovery after a restart, a pending void): `serial` stands in when the memory did not say.
 */
export function recoveredResult(
  found: Pick<PrintedReceipt, 'z' | 'doc' | 'dateTime' | 'totalCents' | 'serial'>,
  printed: Pick<PrintedReceipt, 'kind' | 'reference'>,
  serial: string | undefined,
  currency: string,
): JobResult {
  const { z, doc, dateTime, totalCents } = found;
  return receiptResult(
    {
      z,
      doc,
      dateTime,
      totalCents,
      serial: found.serial || serial,
      ...printed,
      recovered: true,
      warnings: [],
    },
    currency,
  );
}

/** The receipt's numbers from a successful answer; undefined when the answer lacks them. */
export function printedFromAnswer(
  response: FpmateResponse,
  base: Omit<PrintedReceipt, 'z' | 'doc' | 'dateTime' | 'totalCents'>,
): PrintedReceipt | undefined {
  const info = response.addInfo;
  const doc = Number(info.fiscalReceiptNumber);
  const z = Number(info.zRepNumber);
  if (!info.fiscalReceiptNumber || !info.zRepNumber || !Number.isInteger(doc) || !Number.isInteger(z)) {
    return undefined;
  }
  return {
    ...base,
    z,
    doc,
    dateTime: receiptDateTime(info.fiscalReceiptDate, info.fiscalReceiptTime),
    totalCents: parseCommaAmount(info.fiscalReceiptAmount),
  };
}

/** The original receipt a refund or void names: "refund of Z 12 no. 34 of 15/01/2026". */
export function referenceWords(reference: DocumentReference): Message {
  const { kind, z, doc, date } = reference;
  return m.reference({ kind, z, doc, date: `${date.slice(0, 2)}/${date.slice(2, 4)}/${date.slice(4)}` });
}

/**
 * The job result of a printed receipt. Notes keep the form the platform (and its simulator)
 * parses — `Receipt 0012-0034 on RT 99MEY123456, 2026-11-21 14:05, total 123.45 EUR` /
 * `Scontrino 0012-0034 su RT 99MEY123456, 2026-11-21 14:05, totale 123,45 EUR` — with the
 * document number first and the serial right after "RT ".
 */
export function receiptResult(printed: PrintedReceipt, currency: string): JobResult {
  const label = docLabel(printed);
  let notes = m.receipt({ kind: printed.kind, label, serial: serialWords(printed.serial) });
  if (printed.dateTime) notes = m.withDate({ notes, dateTime: printed.dateTime });
  if (printed.totalCents !== undefined)
    notes = m.withTotal({ notes, total: printed.totalCents / 100, currency });
  if (printed.reference) notes = m.withReference({ notes, reference: referenceWords(printed.reference) });
  if (printed.recovered) notes = m.recovered({ notes });
  const warnings = oneAfterAnother(printed.warnings);
  if (warnings) notes = m.withPrinterWarnings({ notes, warnings });
  const details: Record<string, unknown> = {
    receiptNumber: label,
    zNumber: printed.z,
    documentNumber: printed.doc,
    documentType: m.documentType({ kind: printed.kind }),
    recovered: printed.recovered,
  };
  if (printed.dateTime) details.dateTime = printed.dateTime;
  if (printed.serial) details.printerSerial = printed.serial;
  if (printed.totalCents !== undefined) details.total = { money: printed.totalCents / 100, currency };
  if (printed.reference) {
    details.refundOf = m.referenceOnRt({
      reference: referenceWords(printed.reference),
      serial: printed.reference.serial,
    });
  }
  if (warnings) details.warnings = warnings;
  return { notes, details };
}

/** The result of a non-receipt payload (report, command, non-fiscal text). */
export function documentResult(
  root: string,
  serial: string | undefined,
  response: FpmateResponse,
): JobResult {
  const z = response.addInfo.zRepNumber;
  const done = m.document({ root, serial: serialWords(serial) });
  const notes = z ? m.withZ({ notes: done, z }) : done;
  const details: Record<string, unknown> = { root };
  if (serial) details.printerSerial = serial;
  if (z) details.zNumber = Number(z);
  if (response.addInfo.responseData) details.responseData = response.addInfo.responseData;
  return { notes, details };
}
