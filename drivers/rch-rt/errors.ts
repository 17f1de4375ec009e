import { AgentError, type ErrorCode } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { rchPrinterErrors as e } from './messages-printer.js';
import type { RchAnswer } from './service.js';

/**
 * What an answer that stopped a request means, for staff. The answer's flags are sourced
 * (lyancoder/fiscal-printer `xml-RCH-http.ts`; Leahcim12/optyker-web `Parse-Rch` reads each of
 * them as "not ok"): paper end, cover open, printer error. Of the error codes only 101 is known —
 * a command the printer did not take (optyker `supabase/FISCAL-CONNECTION.md`: a Print!F answered
 * `</?i/*4` with errorCode 101, lastCmd 0); RCH publishes the rest only to partners, so any other
 * code is told by its number (README, "What a first real printer must confirm"). Whether the
 * document printed is never read from a code: `lastCmd` says how far the request went
 * (witnesses.ts), so a refusal is always "not printed" or, once a payment ran, for the witnesses.
 */
export const NOT_ACCEPTED = 101;

function error(code: ErrorCode, answer: RchAnswer, notes: Message): AgentError {
  return new AgentError(
    code,
    `RCH printer answered errorCode ${answer.errorCode}, lastCmd ${answer.lastCmd}`,
    {
      notes,
      details: { printerCode: answer.errorCode },
      retryable: false,
    },
  );
}

/** The error a refusing answer stands for. */
export function refusalOf(answer: RchAnswer): AgentError {
  if (answer.paperEnd) return error('PAPER_OUT', answer, e.paperOut());
  if (answer.coverOpen) return error('COVER_OPEN', answer, e.coverOpen());
  if (answer.printerError) return error('DEVICE_ERROR', answer, e.printerError());
  if (answer.errorCode === NOT_ACCEPTED) return error('DEVICE_ERROR', answer, e.notAccepted());
  return error('FISCAL_REJECTED', answer, e.refused({ code: String(answer.errorCode) }));
}

/** A busy answer (nothing carried out: "la richiesta deve essere inviata nuovamente", WS manual V5 §3). */
export function busyError(): AgentError {
  return new AgentError('DEVICE_BUSY', 'RCH printer answered busy', {
    notes: e.busy(),
    details: { nothingSent: true },
  });
}
