import type { JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { parseReceiptLabel } from '../fiscal-it/reference.js';
import type { FiscalState } from './fiscal-state.js';
import type { PrinterLink } from './link.js';
import { fiscalNotes } from './messages.js';
import { epsonPrinterWords as w } from './messages-printer.js';
import { docLabel, pad4 } from './protocol.js';
import { ddMMyyyyOf, fromStamp } from './void-receipt.js';
import { directIoXml } from './xml-build.js';

/**
 * A copy of a receipt (the page's "Print a copy of a receipt", `frontdesk-agent reprint`): the
 * printer prints its own copy from the electronic journal — not a fiscal document, no counter
 * moves, so nothing here needs a checkpoint: a copy printed twice is two pieces of paper.
 *
 * `directIO 3098`, `data` = operator (2), date `DDMMYY`, first and last receipt number (4 + 4):
 * linokoetting/iconic.mytrade.gutenbergPrinter-epson `report/Report.java` sends
 * `"01" + date + ticketStart + ticketEnd`, the date cut from the JavaPOS `ddmmyyyy` form (Odoo
 * `l10n_it_pos` prints the same copy with the XML `printContentByNumbers`: day, month, year,
 * numbers). The journal is kept per day, so the receipt's date is needed: from the form, else
 * from what the agent printed itself, else from the printer's last document (as for a void).
 */

export interface ReprintParams {
  receipt: string;
  /** YYYY-MM-DD or DD/MM/YYYY; optional when the agent knows the receipt. */
  date?: string | undefined;
}

export interface ReprintDeps {
  link: PrinterLink;
  state: FiscalState;
  operator: string;
  serial(): string | undefined;
}

export const JOURNAL_COPY_COMMAND = '3098';

/** The 3098 `data` for receipt `doc` of day `ddMMyyyy`. */
export function journalCopyData(operator: string, ddMMyyyy: string, doc: number): string {
  return `${operator.padStart(2, '0')}${ddMMyyyy.slice(0, 4)}${ddMMyyyy.slice(6, 8)}${pad4(doc)}${pad4(doc)}`;
}

function invalid(message: string, notes: ReturnType<typeof w.reprintReceiptMissing>): AgentError {
  return new AgentError('COMMAND_INVALID', message, { notes });
}

/** Prints the journal copy of `params.receipt`; resolves to its Notes, rejects with Notes for staff. */
export async function reprintReceipt(
  d: ReprintDeps,
  params: ReprintParams,
  signal: AbortSignal,
): Promise<JobResult> {
  const position = parseReceiptLabel(params.receipt);
  if (!position) throw invalid(`Not a receipt number: ${params.receipt}`, w.reprintReceiptMissing());
  const label = docLabel(position);
  let date = params.date ? ddMMyyyyOf(params.date) : undefined;
  if (params.date && !date) throw invalid(`Not a date: ${params.date}`, fiscalNotes.voidDateMissing(label));
  const known = d.state.find(position.z, position.doc);
  date ??= known?.dateTime ? fromStamp(known.dateTime) : undefined;
  if (!date) {
    const last = await d.link.readLastDocument(signal);
    if (last && last.z === position.z && last.doc === position.doc) date = fromStamp(last.dateTime);
  }
  if (!date) throw invalid(`No date for receipt ${label}`, fiscalNotes.voidDateMissing(label));
  const shown = `${date.slice(0, 2)}/${date.slice(2, 4)}/${date.slice(4)}`;
  const answer = await d.link.exchange(
    directIoXml(JOURNAL_COPY_COMMAND, journalCopyData(d.operator, date, position.doc)),
    signal,
  );
  if (!answer) {
    throw new AgentError('DEVICE_UNAVAILABLE', `Copy of ${label}: no answer`, {
      notes: w.reprintUnconfirmed(),
    });
  }
  const details = { receiptNumber: label, date: shown, copy: true };
  if (answer.success) {
    return {
      notes: w.reprintPrinted({ label, date: shown, serial: d.serial() ?? '?' }),
      details,
    };
  }
  if (answer.code === 'PRINTER ERROR' && answer.status === '13') {
    throw new AgentError('COMMAND_INVALID', `The journal has no receipt ${label} of ${shown}`, {
      notes: w.reprintNotFound({ doc: label, date: shown, status: answer.status }),
      details: { ...details, printerCode: answer.code, printerStatusCode: answer.status },
    });
  }
  // The printer's own code, as its display and manual name it (paper out, cover open, 16 …).
  const why = answer.code === 'PRINTER ERROR' ? `${answer.code} ${answer.status}` : answer.code;
  throw new AgentError('DEVICE_ERROR', `Copy of ${label} refused: ${why}`, {
    notes: w.reprintRefused({ why }),
    details: { ...details, printerCode: answer.code, printerStatusCode: answer.status },
  });
}
