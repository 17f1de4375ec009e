import type { CommandData, PlatformCommand } from '../../connector/model.js';
import type { DecodedBytes } from '../../transport/base64-stream.js';

/**
 * What the journal keeps of a command's data, and when. Pure functions; the journal calls them.
 *
 * - **Documents apart.** A command's document (a print job's `FileData`, a fiscal payload's
 *   Base64) is kept once, in its own table, and read only for the driver call: the command's
 *   JSON, which every step of its life reads, holds it empty. A 20 MB print job is then parsed
 *   once, not on every step.
 * - **Personal data only while open.** When a command gets its outcome (Processed, Error,
 *   Cancelled) its document goes, and its JSON keeps only what reconciliation, a later refund
 *   and the page need: ids, device, kind, times, the bill's id and number, the fiscal document's
 *   kind and the receipt it refunds, the key job's rooms, count and stay, the print job's
 *   printer, type and copies. Guests' and creators' names, phones, e-mails, tax identifiers, bill
 *   names and lines, and the platform's settings strings are gone. The result (receipt numbers,
 *   totals, serials), Notes and timeline stay with the row.
 */

/** Where a command's document sits in its data. */
export type DocumentField = 'fileData' | 'payload';

/**
 * A command's document: Base64 text, or the bytes the connector decoded as the answer arrived
 * (`PrintJobData.document`).
 */
export type StoredDocument = string | DecodedBytes;

/** `command` with its document taken out (left empty), and the document. */
export function splitDocument(command: PlatformCommand): {
  stored: PlatformCommand;
  document?: { field: DocumentField; text: StoredDocument };
} {
  const data = command.data;
  if (data.kind === 'print' && (data.print.fileData !== '' || data.print.document)) {
    const { document, ...print } = data.print;
    return {
      stored: { ...command, data: { kind: 'print', print: { ...print, fileData: '' } } },
      document: { field: 'fileData', text: document ?? data.print.fileData },
    };
  }
  if (
    data.kind === 'fiscal' &&
    data.fiscal.document.type === 'payload' &&
    data.fiscal.document.base64 !== ''
  ) {
    const document = { type: 'payload' as const, base64: '' };
    return {
      stored: { ...command, data: { kind: 'fiscal', fiscal: { ...data.fiscal, document } } },
      document: { field: 'payload', text: data.fiscal.document.base64 },
    };
  }
  return { stored: command };
}

/** `command` (as stored) with its document put back, for the driver. */
export function withDocument(
  command: PlatformCommand,
  documents: ReadonlyMap<string, StoredDocument>,
): PlatformCommand {
  const data = command.data;
  const fileData = documents.get('fileData');
  if (data.kind === 'print' && fileData !== undefined) {
    const print =
      typeof fileData === 'string'
        ? { ...data.print, fileData }
        : { ...data.print, fileData: '', document: fileData };
    return { ...command, data: { kind: 'print', print } };
  }
  const payload = documents.get('payload');
  if (data.kind === 'fiscal' && data.fiscal.document.type === 'payload' && typeof payload === 'string') {
    const document = { type: 'payload' as const, base64: payload };
    return { ...command, data: { kind: 'fiscal', fiscal: { ...data.fiscal, document } } };
  }
  return command;
}

/** What is kept of a command's data once it is closed (see the module comment). */
export function keptAfterClose(command: PlatformCommand): PlatformCommand {
  const { id, state, createdUtc, device, source } = command;
  return { id, state, createdUtc, device, source, data: keptData(command.data) };
}

function keptData(data: CommandData): CommandData {
  switch (data.kind) {
    case 'fiscal': {
      const { fiscalMachineId, bill, document } = data.fiscal;
      const keptBill: typeof bill = { id: bill.id };
      if (bill.number !== undefined) keptBill.number = bill.number;
      if (bill.issuedUtc !== undefined) keptBill.issuedUtc = bill.issuedUtc;
      if (bill.enterpriseId !== undefined) keptBill.enterpriseId = bill.enterpriseId;
      return {
        kind: 'fiscal',
        fiscal: {
          ...(fiscalMachineId !== undefined ? { fiscalMachineId } : {}),
          machineSettings: { value: {} },
          bill: keptBill,
          document: document.type === 'payload' ? { type: 'payload', base64: '' } : document,
        },
      };
    }
    case 'keys': {
      const { keyCount, lockIds, startUtc, endUtc, reservationId, keyCutterId } = data.keys;
      return {
        kind: 'keys',
        keys: {
          keyCount,
          lockIds,
          startUtc,
          endUtc,
          guest: { lastName: '' },
          ...(reservationId !== undefined ? { reservationId } : {}),
          ...(keyCutterId !== undefined ? { keyCutterId } : {}),
          settings: { value: {} },
        },
      };
    }
    case 'print': {
      const { copyCount, fileType, printerName } = data.print;
      return { kind: 'print', print: { copyCount, fileType, fileData: '', printerName } };
    }
    default:
      return data;
  }
}
