import { AgentError, type ErrorCode } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { epsonAnswers as a } from './messages.js';
import { decodePrinterStatus } from './protocol.js';
import type { FpmateResponse } from './xml-response.js';

/**
 * What a failed fpmate answer means for the document just sent:
 * - `busy`: LAN_TIME_OUT — fpmate timed out talking to the fiscal unit while processing the
 *   document's lines (fiskaltrust `scu-it` `Models/ErrorInfoFactory.cs`): the outcome is unknown
 *   and the counters decide, as for a lost answer — never a blind resend;
 * - `ambiguous`: the answer does not prove that nothing was printed (FP_NO_ANSWER, the paper-low
 *   warning 2 raised at payment/closure, EPTR_REC_EMPTY): the counters decide, and `error` is what
 *   staff read when they prove it was not printed;
 * - `failed`: the printer refused; nothing was printed; `error` is what staff read.
 */
export type FailureMeaning =
  | { kind: 'busy' }
  | { kind: 'ambiguous'; error: AgentError }
  | { kind: 'failed'; error: AgentError };

interface Rule {
  code: ErrorCode;
  /** What staff read, given the sentence that the document was not printed. */
  notes: (args: { notPrinted: Message }) => Message;
  retryable?: boolean;
}

/** The documents whose answers are read here, as their callers name them. */
export type FiscalDocumentName = 'receipt' | 'refund receipt' | 'void receipt' | 'X report' | 'Z report';

const DOCUMENT_KEY: Record<FiscalDocumentName, string> = {
  receipt: 'receipt',
  'refund receipt': 'refund',
  'void receipt': 'void',
  'X report': 'x',
  'Z report': 'z',
};

/**
 * `EPTR_REC_EMPTY` ("cover open, printer offline or no paper roll loaded": fiskaltrust `scu-it`
 * `Models/ErrorInfoFactory.cs` L19). The printer says paper-low at the payment or closure step
 * (status 2, the same file L27), so a roll can run out *after* the amounts were committed to the
 * fiscal memory: the answer proves nothing about the document (ErpNet.FP #126 and #98 show fiscal
 * printers registering a receipt yet answering an error). The counters decide, as for
 * FP_NO_ANSWER; when they prove nothing was printed, this is what staff read.
 */
const PAPER_END: Rule = { code: 'PAPER_OUT', notes: a.paperOutOrCover };

const CODE_RULES: Record<string, Rule> = {
  LAN_ERROR: {
    code: 'DEVICE_UNAVAILABLE',
    notes: a.lanError,
  },
  'TM_NO_ANSWER/OFF_LINE': {
    code: 'DEVICE_UNAVAILABLE',
    notes: a.offLine,
  },
  TM_NO_ANSWER: {
    code: 'DEVICE_UNAVAILABLE',
    notes: a.offLine,
  },
  OFF_LINE: {
    code: 'DEVICE_UNAVAILABLE',
    notes: a.offLine,
  },
  PARSER_ERROR: {
    code: 'FISCAL_REJECTED',
    notes: a.malformed,
  },
  'INCOMPLETE FILE': {
    code: 'FISCAL_REJECTED',
    notes: a.incomplete,
  },
  'Non valid XML command': {
    code: 'FISCAL_REJECTED',
    notes: a.badCommand,
  },
  NO_DATA: {
    code: 'FISCAL_REJECTED',
    notes: a.emptyRequest,
  },
  NO_RAM: {
    code: 'DEVICE_ERROR',
    notes: a.noMemory,
  },
};

const STATUS_RULES: Record<string, Rule> = {
  '3': {
    code: 'COVER_OPEN',
    notes: a.coverOpen,
  },
  '9': {
    code: 'DEVICE_ERROR',
    notes: a.dateBeforeClosure,
  },
  '11': {
    code: 'FISCAL_REJECTED',
    notes: a.wrongSequence,
  },
  '13': {
    code: 'FISCAL_REJECTED',
    notes: a.badValue,
  },
  // "IMPOSSIBILE ORA": not possible at this time, for any reason (fiskaltrust
  // `Models/ErrorInfoFactory.cs` L43) — a closure due is one of them (fiscal-work.ts tells).
  '17': {
    code: 'DEVICE_ERROR',
    notes: a.cannotPrintNow,
  },
  '20': {
    code: 'FISCAL_REJECTED',
    notes: a.amountTooHigh,
  },
  '21': {
    code: 'FISCAL_REJECTED',
    notes: a.outsideLimits,
  },
  '30': {
    code: 'FISCAL_REJECTED',
    notes: a.badCustomerCode,
  },
  '39': { code: 'FISCAL_REJECTED', notes: a.alreadyVoided },
  '40': { code: 'FISCAL_REJECTED', notes: a.alreadyRefunded },
  // "TIPO NON VALIDO (DOC di ANNULLO / DOC di RESO)" (fiskaltrust `Models/ErrorInfoFactory.cs`
  // L64-65): the receipt named is itself a void or a refund, not a sale — not "no such receipt".
  '41': { code: 'FISCAL_REJECTED', notes: a.referenceIsVoid },
  '42': { code: 'FISCAL_REJECTED', notes: a.referenceIsRefund },
};

function build(rule: Rule, response: FpmateResponse, what: FiscalDocumentName): AgentError {
  const details: Record<string, unknown> = { printerCode: response.code, printerStatusCode: response.status };
  const status = response.addInfo.printerStatus ?? response.addInfo.fpStatus;
  if (status) details.printerStatus = status;
  return new AgentError(
    rule.code,
    `Printer answered ${response.code || 'failure'}${response.status ? ` status ${response.status}` : ''}`,
    {
      notes: rule.notes({ notPrinted: a.notPrinted({ what: DOCUMENT_KEY[what] }) }),
      details,
      ...(rule.retryable === undefined ? {} : { retryable: rule.retryable }),
    },
  );
}

/** The document's name, and the sentence that it was not printed, in the staff's words. */
export function documentWords(what: FiscalDocumentName): { document: Message; notPrinted: Message } {
  return {
    document: a.document({ what: DOCUMENT_KEY[what] }),
    notPrinted: a.notPrinted({ what: DOCUMENT_KEY[what] }),
  };
}

/** Interprets a `success="false"` answer to a document; `what` names it ("receipt"). */
export function failureMeaning(response: FpmateResponse, what: FiscalDocumentName): FailureMeaning {
  const code = response.code;
  if (code === 'LAN_TIME_OUT') return { kind: 'busy' };
  if (code === 'FP_NO_ANSWER' || code === 'FP_NO_ANSWER_NETWORK') {
    const error = new AgentError('STATE_UNKNOWN', `Printer answered ${code}`, {
      notes: a.unitSilent({ document: a.document({ what: DOCUMENT_KEY[what] }) }),
      details: { printerCode: code },
    });
    return { kind: 'ambiguous', error };
  }
  if (code === 'EPTR_REC_EMPTY') return { kind: 'ambiguous', error: build(PAPER_END, response, what) };
  if (code === 'PRINTER ERROR' || code === '') {
    if (response.status === '2') {
      const paper = build(
        {
          code: 'PAPER_OUT',
          notes: a.paperLowStopped,
        },
        response,
        what,
      );
      return { kind: 'ambiguous', error: paper };
    }
    const rule = STATUS_RULES[response.status];
    if (rule) return { kind: 'failed', error: build(rule, response, what) };
    const offline = decodePrinterStatus(response.addInfo.printerStatus ?? '').printer === 'offline';
    const fallback: Rule = offline
      ? (STATUS_RULES['3'] as Rule)
      : {
          code: 'DEVICE_ERROR',
          notes: response.status
            ? (args) => a.errorCode({ ...args, status: response.status })
            : a.errorNoCode,
        };
    return { kind: 'failed', error: build(fallback, response, what) };
  }
  const rule: Rule = CODE_RULES[code] ?? {
    code: 'DEVICE_ERROR',
    notes: (args) => a.answered({ ...args, code }),
  };
  return { kind: 'failed', error: build(rule, response, what) };
}
