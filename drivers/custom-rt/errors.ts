import { AgentError, type ErrorCode } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { customPrinterErrors as e } from './messages-printer.js';

/**
 * What a refused document (`success="false" status="N"`) means, by the status guide's codes
 * (XML protocol manual rev 2.00, PDF pp.132–149):
 * - `refused`: the printer refused it before printing anything — definitely not printed;
 * - `busy`: it is busy (75 refund/void consolidation, 76 PDF, 213 tax agency, 217/218/221
 *   exports, 21 another terminal's document, 97 wait) and did not take the document;
 * - `closure`: the fiscal day must close first (54, 61, 70, 214);
 * - `ambiguous`: the paper ran out (16) or the cover opened (64) — the printer completes by
 *   itself a receipt interrupted by the paper (directIO manual rev 6.00 p.21), so the counters
 *   decide whether it exists, never a resend.
 */
export type Refusal =
  | { kind: 'refused'; error: AgentError }
  | { kind: 'busy'; error: AgentError }
  | { kind: 'closure'; error: AgentError }
  | { kind: 'ambiguous'; error: AgentError };

const BUSY = new Set([21, 75, 76, 97, 213, 217, 218, 221]);
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
