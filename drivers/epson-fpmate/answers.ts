import { AgentError, type ErrorCode } from '../../src/errors.js';
import { decodePrinterStatus } from './protocol.js';
import type { FpmateResponse } from './xml-response.js';

/**
 * What a failed fpmate answer means for the document just sent:
 * - `busy`: LAN_TIME_OUT — fpmate timed out talking to the fiscal unit while processing the
 *   document's lines (fiskaltrust `scu-it` `Models/ErrorInfoFactory.cs`): the outcome is unknown
 *   and the counters decide, as for a lost answer — never a blind resend;
 * - `ambiguous`: the answer does not prove that nothing was printed (FP_NO_ANSWER, the paper-low
 *   warning 2 raised at payment/closure): the counters decide;
 * - `failed`: the printer refused; nothing was printed; `error` is what staff read.
 */
export type FailureMeaning =
  | { kind: 'busy' }
  | { kind: 'ambiguous'; error: AgentError }
  | { kind: 'failed'; error: AgentError };

interface Rule {
  code: ErrorCode;
  notes: string;
  retryable?: boolean;
}

const NOT_PRINTED = 'the {what} was not printed';

const CODE_RULES: Record<string, Rule> = {
  EPTR_REC_EMPTY: {
    code: 'PAPER_OUT',
    notes: `Printer out of paper or its cover is open — replace the roll and close the cover; ${NOT_PRINTED}. Then try again.`,
  },
  LAN_ERROR: {
    code: 'DEVICE_UNAVAILABLE',
    notes: `The printer’s network service could not talk to its fiscal unit; ${NOT_PRINTED}. The agent tries again.`,
  },
  'TM_NO_ANSWER/OFF_LINE': {
    code: 'DEVICE_UNAVAILABLE',
    notes: `The printer is off line (switched off or disconnected); ${NOT_PRINTED}. Check it; the agent tries again.`,
  },
  TM_NO_ANSWER: {
    code: 'DEVICE_UNAVAILABLE',
    notes: `The printer is off line (switched off or disconnected); ${NOT_PRINTED}. Check it; the agent tries again.`,
  },
  OFF_LINE: {
    code: 'DEVICE_UNAVAILABLE',
    notes: `The printer is off line (switched off or disconnected); ${NOT_PRINTED}. Check it; the agent tries again.`,
  },
  PARSER_ERROR: {
    code: 'FISCAL_REJECTED',
    notes: `The printer could not read the document (malformed XML); ${NOT_PRINTED}. Report this to IT.`,
  },
  'INCOMPLETE FILE': {
    code: 'FISCAL_REJECTED',
    notes: `The printer refused an incomplete document; ${NOT_PRINTED}. Report this to IT.`,
  },
  'Non valid XML command': {
    code: 'FISCAL_REJECTED',
    notes: `The printer refused a command in the document; ${NOT_PRINTED}. Report this to IT.`,
  },
  NO_DATA: {
    code: 'FISCAL_REJECTED',
    notes: `The printer received an empty request; ${NOT_PRINTED}. Report this to IT.`,
  },
  NO_RAM: {
    code: 'DEVICE_ERROR',
    notes: `The printer ran out of memory; ${NOT_PRINTED}. Switch it off and on, then try again.`,
  },
};

const STATUS_RULES: Record<string, Rule> = {
  '3': {
    code: 'COVER_OPEN',
    notes: `Printer off line: its cover is open or the paper ran out — close the cover and check the roll; ${NOT_PRINTED}. Then try again.`,
  },
  '9': {
    code: 'DEVICE_ERROR',
    notes: `The printer’s date is earlier than its last daily closure; ${NOT_PRINTED}. Ask IT to correct the printer’s clock.`,
  },
  '11': {
    code: 'FISCAL_REJECTED',
    notes: `The printer refused the document at this point (wrong sequence); ${NOT_PRINTED}. Try again; if it repeats, report it to IT.`,
  },
  '13': {
    code: 'FISCAL_REJECTED',
    notes: `The printer refused a value in the document; ${NOT_PRINTED}. Report this to IT.`,
  },
  '17': {
    code: 'DEVICE_ERROR',
    notes: `The printer cannot print receipts right now — if the fiscal day has been open for more than 24 hours, run the daily closure (Z report) first; ${NOT_PRINTED}.`,
  },
  '20': {
    code: 'FISCAL_REJECTED',
    notes: `An amount is above the printer’s limit; ${NOT_PRINTED}. Check the bill.`,
  },
  '21': {
    code: 'FISCAL_REJECTED',
    notes: `A value is outside the printer’s limits (or its daily total is reached); ${NOT_PRINTED}. Check the bill.`,
  },
  '30': {
    code: 'FISCAL_REJECTED',
    notes: `The customer’s tax code, VAT number or lottery code is invalid; ${NOT_PRINTED}. Correct it and try again.`,
  },
  '39': { code: 'FISCAL_REJECTED', notes: `The original receipt has already been voided; ${NOT_PRINTED}.` },
  '40': { code: 'FISCAL_REJECTED', notes: `The original receipt has already been refunded; ${NOT_PRINTED}.` },
  '41': {
    code: 'FISCAL_REJECTED',
    notes: `The printer does not find a sale receipt with that number, Z number, date and serial to void; ${NOT_PRINTED}. Check the original receipt.`,
  },
  '42': {
    code: 'FISCAL_REJECTED',
    notes: `The printer does not find a sale receipt with that number, Z number, date and serial to refund; ${NOT_PRINTED}. Check the original receipt.`,
  },
};

function build(rule: Rule, response: FpmateResponse, what: string): AgentError {
  const details: Record<string, unknown> = { printerCode: response.code, printerStatusCode: response.status };
  const status = response.addInfo.printerStatus ?? response.addInfo.fpStatus;
  if (status) details.printerStatus = status;
  return new AgentError(
    rule.code,
    `Printer answered ${response.code || 'failure'}${response.status ? ` status ${response.status}` : ''}`,
    {
      notes: rule.notes.replaceAll('{what}', what),
      details,
      ...(rule.retryable === undefined ? {} : { retryable: rule.retryable }),
    },
  );
}

/** Interprets a `success="false"` answer to a document; `what` names it ("receipt"). */
export function failureMeaning(response: FpmateResponse, what: string): FailureMeaning {
  const code = response.code;
  if (code === 'LAN_TIME_OUT') return { kind: 'busy' };
  if (code === 'FP_NO_ANSWER' || code === 'FP_NO_ANSWER_NETWORK') {
    const error = new AgentError('STATE_UNKNOWN', `Printer answered ${code}`, {
      notes: `The printer’s fiscal unit stopped answering while taking the ${what}; it may or may not have been printed. Check the printer’s last receipt before trying again.`,
      details: { printerCode: code },
    });
    return { kind: 'ambiguous', error };
  }
  if (code === 'PRINTER ERROR' || code === '') {
    if (response.status === '2') {
      const paper = build(
        {
          code: 'PAPER_OUT',
          notes: `The printer’s paper is running low and it stopped; ${NOT_PRINTED}. Replace the roll, then try again.`,
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
          notes: `The printer reported error ${response.status || 'without a code'}; ${NOT_PRINTED}. Check the printer’s display, then try again.`,
        };
    return { kind: 'failed', error: build(fallback, response, what) };
  }
  const rule: Rule = CODE_RULES[code] ?? {
    code: 'DEVICE_ERROR',
    notes: `The printer answered “${code}”; ${NOT_PRINTED}. Check the printer, then try again.`,
  };
  return { kind: 'failed', error: build(rule, response, what) };
}
