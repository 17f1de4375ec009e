import type { JobResult } from '../../../src/drivers-api/types.js';
import type { AgentError } from '../../../src/errors.js';
import type { Message } from '../../../src/messages/message.js';
import type { PostResult } from './http.js';
import type { ReadWitnesses } from './printer-read.js';
import type { DecisionWords, Witness } from './witnesses.js';

/**
 * What a family hands the kit for one fiscal document (`send.ts` sends it): protocol only. The
 * kit owns the order — baseline, checkpoint on disk, the POST, the answer's class, the witnesses,
 * the decision — and the family says what its bytes and codes mean.
 *
 * `B` is the family's baseline (what its witnesses are compared to), `E` its evidence (one read
 * of the witnesses), `D` its reading of a printed document (numbers, total).
 */

/** What the answer to a document's POST means; each family classifies its codes with a source. */
export type AnswerClass<D> =
  /**
   * Printed. Without `document` (an answer without numbers) the witnesses are read for them;
   * with `confirm` (a "done" a public implementation reads from a code that is not a success:
   * Custom's 76) the witnesses must not say otherwise, or the outcome is unknown.
   */
  | { kind: 'printed'; document?: D; warnings?: Message[]; confirm?: string; answer?: unknown }
  /** Refused before the document closed: nothing printed; the agent's own open document is reset. */
  | { kind: 'refused'; error: AgentError }
  /** Not taken at all (connection refused, busy): nothing printed, nothing of ours left open. */
  | { kind: 'not-taken'; error: AgentError }
  /** Another terminal's document holds the printer: nothing taken; wait and send again. */
  | { kind: 'other-till'; read: string }
  /**
   * The answer does not prove the outcome (lost, unreadable, paper out mid-document, a silent
   * fiscal unit): the witnesses decide. `busy`: the printer may still be at it (Epson
   * `LAN_TIME_OUT`); `standing`: the complaint that stands when the witnesses prove not printed.
   */
  | { kind: 'uncertain'; reason: string; busy?: boolean; standing?: AgentError };

/** What the witnesses say right after a document, in the family's reading. */
export interface WitnessReading<D> {
  witnesses: Witness[];
  /** The document the witnesses identify as printed (numbers, total), if they do. */
  document?: D;
  /** A document is open on the printer and it is the agent's own (its id was taken last). */
  ownDocumentOpen?: boolean;
}

/** The printer's state just before a document leaves. */
export type BeforeSend<B> =
  | { kind: 'ready'; baseline: B | null }
  /** A document is open that the agent did not open (another till's): never reset it. */
  | { kind: 'other-till'; read: string }
  /** A document the agent opened for this command is still open (a failed attempt): reset it first. */
  | { kind: 'own-open'; baseline: B | null };

/** How the printed outcome reached the kit: from the answer, or recovered from the witnesses. */
export interface PrintedOutcome<D> {
  document: D | undefined;
  recovered: boolean;
  warnings: Message[];
  /** The complaint of an uncertain answer the witnesses settled as printed (Epson paper end). */
  standing?: AgentError | undefined;
  /** The family's parsed answer, when one proved the printing (for a result without numbers). */
  answer?: unknown;
}

/** The family's sentences for one document's outcomes (each family keeps its catalogue keys). */
export interface OutgoingWords extends DecisionWords {
  /** The witnesses could not tell: Error "check the printer". */
  unknown(reason: string, decisionReason: Message): AgentError;
  /** The printer went away and did not come back in time (or the wait was stopped). */
  away(reason: string, aborted: boolean): AgentError;
  /** Proven not printed and not sent again. */
  notPrinted(reason: string, busy: boolean): AgentError;
  /** Another till kept its document open past the wait: nothing printed (default: the kit's `otherTillError`). */
  otherTill?(read: string): AgentError;
  /**
   * The page's warning while the document waits for a printer that went away (default: the kit's
   * "waiting for the printer until …", `waitingWarning`).
   */
  waiting?(sentAt: number, until: number): Message;
}

export interface OutgoingDocument<B, E, D> {
  /** Reads the baseline (and who has a document open) right before sending; rejects when it cannot send. */
  before(signal: AbortSignal): Promise<BeforeSend<B>>;
  /** The `sending` checkpoint: on disk before the document leaves. */
  checkpoint(baseline: B | null, sentAt: number, resent: boolean): unknown;
  /**
   * The POST; the document is written only once `holdUntil` resolves. Never throws, and takes no
   * abort signal: a stop never cuts a fiscal document in the middle.
   */
  post(holdUntil: Promise<unknown>): Promise<PostResult>;
  classify(result: PostResult): AnswerClass<D>;
  /** One read of the witnesses (the kit asks again while busy, and waits while away). */
  read: ReadWitnesses<E>;
  witnesses(baseline: B | null, evidence: E): WitnessReading<D>;
  /** The baseline for a resend the witnesses allowed (the counters just read). */
  rebase(baseline: B | null, evidence: E): B | null;
  /** Cancels the agent's own open document (a refused or proven-unprinted one). Best effort. */
  resetOwn(): Promise<void>;
  /** The result, once printed; the kit then stores the final checkpoint. */
  result(printed: PrintedOutcome<D>): JobResult;
  words: OutgoingWords;
  /**
   * The document to send instead after this one's `refused` answer, when the family can do
   * without what the printer refused (Epson status 30 on the lottery code: the receipt without
   * it, lottery.ts); undefined: the refusal stands. The kit sends it only once the witnesses
   * prove this one unprinted (`send.ts`), never twice a printed document.
   */
  fallback?(refusal: AgentError): OutgoingDocument<B, E, D> | undefined;
}

/** When the kit may send a document again itself, once the witnesses proved it unprinted. */
export interface ResendPolicy {
  /** After a lost or unreadable answer (Epson `resendWhenNotPrinted`: 1; Custom: 0, the engine retries). */
  afterLost: number;
  /** After a busy answer (Epson `busyRetries` after `LAN_TIME_OUT`). */
  afterBusy: number;
  busyDelayMs: number;
  /** The wait for a printer that went away after a document (`settleUnansweredForMinutes`). */
  settleMinutes: number;
  /** Reads while the printer answers busy. */
  busyRetries: number;
  busyRetryDelayMs: number;
}
