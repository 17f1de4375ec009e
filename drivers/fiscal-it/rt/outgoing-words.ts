import { AgentError } from '../../../src/errors.js';
import type { Message } from '../../../src/messages/message.js';
import { rtKitWords } from './messages.js';
import type { OutgoingWords } from './outgoing.js';

/** What a family says in its own words about one document's outcomes (`rtOutgoingWords`). */
export interface RtOutcomeSentences {
  /** The document in English for the error's message and the log: "receipt", "refund". */
  label: string;
  /** The Notes of an outcome the witnesses could not tell: what to look for on the printer. */
  unconfirmed(): Message;
  /** The witnesses disagreed. */
  disagree(): Message;
  /** A document proven unprinted and not sent again: the error's English message and its Notes. */
  notPrinted: { message: string; notes(): Message };
  /** What the family adds to an untold outcome's details (RCH: the marker to look for). */
  details?: Record<string, unknown>;
}

/**
 * A family's outcome words in the kit's form, for a family whose outcomes differ only in their
 * sentences (Custom, RCH): an outcome the witnesses cannot tell is STATE_UNKNOWN (`printerAway`
 * when the printer went away and did not come back), a document proven unprinted is
 * DEVICE_UNAVAILABLE with nothing sent; no witness speaks in the kit's words. The waiting warning
 * and another till's error are the kit's defaults (`send.ts`).
 */
export function rtOutgoingWords(s: RtOutcomeSentences): OutgoingWords {
  const untold = (reason: string, away: boolean) =>
    new AgentError('STATE_UNKNOWN', `Outcome of the ${s.label} unknown: ${reason}`, {
      notes: s.unconfirmed(),
      details: { reason, ...s.details, ...(away ? { printerAway: true } : {}) },
    });
  return {
    noWitness: () => rtKitWords.noWitness(),
    disagree: () => s.disagree(),
    unknown: (reason) => untold(reason, false),
    away: (reason) => untold(reason, true),
    notPrinted: (reason) =>
      new AgentError('DEVICE_UNAVAILABLE', `${s.notPrinted.message} (${reason})`, {
        notes: s.notPrinted.notes(),
        details: { reason, nothingSent: true },
      }),
  };
}
