import type { JobResult } from '../../src/drivers-api/types.js';
import type { LastDocument } from './last-document.js';
import { formatEuro, parseCommaAmount } from './money.js';
import { docLabel, receiptDateTime } from './protocol.js';
import type { DocumentReference } from './reference.js';
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
  warnings: string[];
}

/**
 * The result of a document the printer's memory shows it emitted after its answer was lost
 * (recovery after a restart, a pending void): `serial` stands in when the memory did not say.
 */
export function recoveredResult(
  found: LastDocument,
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

/**
 * The job result of a printed receipt. Notes keep the form the platform (and its simulator)
 * parses — `Receipt 0012-0034 on RT 99MEY123456, 2026-11-21 14:05, total 123.45 EUR` — with the
 * document number first and the serial right after "RT ".
 */
export function receiptResult(printed: PrintedReceipt, currency: string): JobResult {
  const label = docLabel(printed);
  const word = { sale: 'Receipt', refund: 'Refund', void: 'Void' }[printed.kind];
  const parts = [`${word} ${label} on RT ${printed.serial ?? 'unknown'}`];
  if (printed.dateTime) parts.push(printed.dateTime);
  if (printed.totalCents !== undefined) parts.push(`total ${formatEuro(printed.totalCents)} ${currency}`);
  let notes = parts.join(', ');
  if (printed.reference) {
    const r = printed.reference;
    notes += ` (${r.kind === 'VOID' ? 'void' : 'refund'} of Z ${r.z} no. ${r.doc} of ${r.date.slice(0, 2)}/${r.date.slice(2, 4)}/${r.date.slice(4)})`;
  }
  if (printed.recovered) notes += '. Confirmed from the printer’s memory after its answer was lost';
  if (printed.warnings.length > 0) notes += `. Printer: ${printed.warnings.join('; ')}`;
  const details: Record<string, unknown> = {
    receiptNumber: label,
    zNumber: printed.z,
    documentNumber: printed.doc,
    documentType: printed.kind,
    recovered: printed.recovered,
  };
  if (printed.dateTime) details.dateTime = printed.dateTime;
  if (printed.serial) details.printerSerial = printed.serial;
  if (printed.totalCents !== undefined) details.total = formatEuro(printed.totalCents);
  if (printed.reference) details.refundOf = { ...printed.reference };
  if (printed.warnings.length > 0) details.warnings = [...printed.warnings];
  return { notes, details };
}

/** The result of a non-receipt payload (report, command, non-fiscal text). */
export function documentResult(
  root: string,
  serial: string | undefined,
  response: FpmateResponse,
): JobResult {
  const what: Record<string, string> = {
    printerFiscalReport: 'Fiscal report printed',
    printerNonFiscal: 'Non-fiscal document printed',
    printerCommand: 'Printer command done',
    printerFiscalReceipt: 'Fiscal document printed',
  };
  const z = response.addInfo.zRepNumber;
  const notes = `${what[root] ?? 'Document sent'} on RT ${serial ?? 'unknown'}${z ? `, Z ${z}` : ''}`;
  const details: Record<string, unknown> = { root };
  if (serial) details.printerSerial = serial;
  if (z) details.zNumber = Number(z);
  if (response.addInfo.responseData) details.responseData = response.addInfo.responseData;
  return { notes, details };
}
