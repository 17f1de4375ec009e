import { AgentError, type ErrorCode } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { customPrinterErrors as e } from './messages-printer.js';

/**
 * What a document's `success="false" status="N"` means, by the status guide's codes (XML
 * protocol manual rev 2.00, PDF pp.132–149), one class per code (issue 42: done / not done /
 * busy / another terminal's document / refused):
 * - `done`: 76, "the device is busy consolidating a dematerialized receipt" (p.137): the receipt
 *   was taken and is being stored; fiskaltrust reads it as printed and takes its numbers from
 *   the last document (`fiskaltrust/middleware`
 *   `scu-it/src/fiskaltrust.Middleware.SCU.IT.CustomRTPrinter/CustomRTPrinterSCU.cs`,
 *   `PdfBusyStatus`, "Status=76 (PDF busy) after receipt send — querying last fiscal
 *   document"). The agent's witnesses confirm it: if they say not printed, it is unknown;
 * - `other-till`: 21, "a remote terminal is sending a document. Wait for the end of current
 *   operation" (p.133): another till's document holds the printer; nothing of ours was taken,
 *   and theirs is never reset;
 * - `busy`: it is busy (75 refund/void consolidation, p.137; 213 tax agency, 217/218/221
 *   exports, 97 wait) and did not take the document;
 * - `closure`: the fiscal day must close first (54, 61, 70, 214);
 * - `refused`: the printer refused it before it closed — definitely not printed;
 * - `ambiguous`: the paper ran out (16) or the cover opened (64) — the printer completes by
 *   itself a receipt interrupted by the paper (directIO manual rev 6.00 p.21), so the witnesses
 *   decide whether it exists, never a resend.
 */
export type Refusal =
  | { kind: 'refused'; error: AgentError }
  | { kind: 'busy'; error: AgentError }
  | { kind: 'closure'; error: AgentError }
  | { kind: 'ambiguous'; error: AgentError }
  | { kind: 'other-till'; error: AgentError }
  | { kind: 'done'; error: AgentError };

/** Another terminal's document (p.133). */
export const OTHER_TILL_STATUS = 21;
/** Consolidating a dematerialised receipt: taken (p.137; fiskaltrust `PdfBusyStatus`). */
export const CONSOLIDATING_STATUS = 76;
const BUSY = new Set([75, 97, 213, 217, 218, 221]);
const CLOSURE = new Set([54, 61, 70, 214]);
const NOT_IN_SERVICE = new Set([47, 59, 60, 73, 82, 83, 220]);
const VAT = new Set([28, 124, 148, 215]);
const INVALID = new Set([3, 7, 9, 11, 23, 24, 25, 29, 92, 102, 108, 118, 121, 122, 137, 138, 139]);

function error(code: ErrorCode, status: number, notes: Message, retryable?: boolean): AgentError {
  return new AgentError(code, `Custom printer answered status ${status}`, {
    notes,
    details: { printerCode: status },
    ...(retryable === undefined ? {} : { retryable }),
  });
}

export function refusal(status: number): Refusal {
  const code = String(status);
  if (status === 16) return { kind: 'ambiguous', error: error('PAPER_OUT', status, e.paperOut()) };
  if (status === 64 || status === 37)
    return { kind: 'ambiguous', error: error('COVER_OPEN', status, e.coverOpen()) };
  if (status === CONSOLIDATING_STATUS)
    return { kind: 'done', error: error('DEVICE_BUSY', status, e.busy({ code })) };
  if (status === OTHER_TILL_STATUS)
    return { kind: 'other-till', error: error('DEVICE_BUSY', status, e.busy({ code })) };
  if (BUSY.has(status)) return { kind: 'busy', error: error('DEVICE_BUSY', status, e.busy({ code })) };
  if (CLOSURE.has(status))
    return { kind: 'closure', error: error('FISCAL_REJECTED', status, e.closureNeeded({ code }), false) };
  if (status === 30)
    return { kind: 'refused', error: error('DEVICE_ERROR', status, e.journalFull({ code }), false) };
  if (status === 84)
    return { kind: 'refused', error: error('DEVICE_ERROR', status, e.certificateExpired(), false) };
  if (NOT_IN_SERVICE.has(status))
    return { kind: 'refused', error: error('DEVICE_ERROR', status, e.notInService({ code }), false) };
  if (VAT.has(status))
    return { kind: 'refused', error: error('FISCAL_REJECTED', status, e.vatNotProgrammed({ code }), false) };
  if (INVALID.has(status))
    return { kind: 'refused', error: error('FISCAL_REJECTED', status, e.refused({ code }), false) };
  if (status === 5 || status === 117 || status === 134)
    return { kind: 'refused', error: error('FISCAL_REJECTED', status, e.notPossibleNow({ code }), false) };
  return { kind: 'refused', error: error('DEVICE_ERROR', status, e.other({ code }), false) };
}
