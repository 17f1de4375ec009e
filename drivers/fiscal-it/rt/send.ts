import { Backoff } from '../../../src/backoff.js';
import type { Clock } from '../../../src/clock.js';
import type { ExecuteContext, JobResult } from '../../../src/drivers-api/types.js';
import { AgentError } from '../../../src/errors.js';
import type { Logger } from '../../../src/log.js';
import type { Message } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { doneCheckpointOf } from './checkpoint.js';
import { rtCardWords, rtKitWords } from './messages.js';
import type { RtOptions } from './options.js';
import type {
  BeforeSend,
  OutgoingDocument,
  OutgoingWords,
  PrintedOutcome,
  ResendPolicy,
  WitnessReading,
} from './outgoing.js';
import { awaitPrinter, type PrinterRead, readPatiently, type WaitBoard } from './printer-read.js';
import { decide, type WitnessDecision, witnessLine } from './witnesses.js';

const MINUTE = 60_000;

/**
 * How long a document waits for another till's document to close before the command ends in
 * Error (never a reset: XML protocol manual rev 2.00 p.133, status 21 "A remote terminal is
 * sending a document. Wait for the end of current operation."). A receipt takes seconds; two
 * minutes cover a slow one and a payment at the other till.
 */
export const OTHER_TILL_WAIT_MS = 120_000;
const OTHER_TILL_BACKOFF = { minMs: 1_000, maxMs: 15_000 };

export interface SendContext {
  clock: Clock;
  log: Logger;
  board: WaitBoard & { touched(): void };
  policy: ResendPolicy;
  /** The family's checkpoint version, for the final `done` checkpoint. */
  checkpointVersion: number;
}

/** A family's send context from its options: the waits and busy reads are the kit's options. */
export function sendContextOf(
  d: Pick<SendContext, 'clock' | 'log' | 'board'> & {
    options: Pick<RtOptions, 'settleUnansweredForMinutes' | 'busyRetries' | 'busyRetryDelayMs'>;
  },
  checkpointVersion: number,
  resend: Pick<ResendPolicy, 'afterLost' | 'afterBusy'>,
): SendContext {
  const o = d.options;
  return {
    clock: d.clock,
    log: d.log,
    board: d.board,
    checkpointVersion,
    policy: {
      ...resend,
      busyDelayMs: o.busyRetryDelayMs,
      settleMinutes: o.settleUnansweredForMinutes,
      busyRetries: o.busyRetries,
      busyRetryDelayMs: o.busyRetryDelayMs,
    },
  };
}

/**
 * Sends one document and settles its fate exactly once, for every RT family:
 * 1. the baseline is read; a document another till left open is waited for (bounded), never
 *    reset; one this command left open is reset;
 * 2. the `sending` checkpoint is on disk before a byte of the document leaves;
 * 3. the answer is classified by the family; a proof of printing ends it;
 * 4. anything unproven asks the witnesses (waiting for a printer that went away), and
 *    `witnesses.ts` decides: printed → the result; unknown → Error "check the printer", never a
 *    resend; not printed → the agent's own open document is reset, then sent again only as the
 *    family's policy allows, else the command fails with `nothingSent`.
 */
export async function sendDocument<B, E, D>(
  c: SendContext,
  doc: OutgoingDocument<B, E, D>,
  ectx: ExecuteContext,
): Promise<JobResult> {
  let baseline: B | null = await readyToSend(c, doc, ectx.signal);
  let resent = false;
  let busyResends = 0;
  let lostResends = 0;
  for (;;) {
    if (ectx.signal.aborted) throw new AgentError('ABORTED', 'Stopped before sending the document');
    const sentAt = c.clock.now();
    // The connection opens while the checkpoint reaches the disk; the document is written only
    // after it. A checkpoint that cannot be saved stops the job here, with nothing sent.
    const saved = ectx.checkpoint(doc.checkpoint(baseline, sentAt, resent));
    saved.catch(() => undefined);
    ectx.progress(0.5);
    // The document's exchange is not aborted: a stop never cuts a fiscal document in the middle.
    const answer = await doc.post(saved);
    await saved;
    const meaning = doc.classify(answer);
    if (meaning.kind === 'printed') {
      let document = meaning.document;
      if (document === undefined || meaning.confirm) {
        const read = await readPatiently(doc.read, c.clock, c.policy);
        const decision = decideRead(doc, baseline, read);
        if (meaning.confirm && decision.outcome === 'not-printed') {
          throw doc.words.unknown(
            `${meaning.confirm}; ${witnessLine(decision.witnesses)}`,
            doc.words.disagree(),
          );
        }
        if (decision.outcome === 'printed') document ??= decision.document;
      }
      const printed: PrintedOutcome<D> = { document, recovered: false, warnings: meaning.warnings ?? [] };
      if (meaning.answer !== undefined) printed.answer = meaning.answer;
      return finish(c, doc, ectx, printed);
    }
    if (meaning.kind === 'not-taken') throw meaning.error;
    if (meaning.kind === 'refused') {
      await doc.resetOwn();
      const instead = doc.fallback?.(meaning.error);
      if (!instead) throw meaning.error;
      return sendInstead(c, doc, instead, baseline, meaning.error, ectx);
    }
    if (meaning.kind === 'other-till') {
      baseline = await readyToSend(c, doc, ectx.signal, meaning.read);
      continue;
    }
    const read = await witnessesAfter(c, doc, baseline, sentAt, ectx.signal);
    if (read.kind === 'read') c.board.touched();
    const decision = decideAndLog(c, doc, baseline, read, 'unproven answer checked against the printer', {
      reason: meaning.reason,
    });
    if (decision.outcome === 'printed') {
      const printed: PrintedOutcome<D> = {
        document: decision.document,
        recovered: true,
        warnings: [],
        standing: meaning.standing,
      };
      return finish(c, doc, ectx, printed);
    }
    if (decision.outcome === 'unknown') {
      const reason = `${meaning.reason}; ${english(decision.reason)} (${witnessLine(decision.witnesses)})`;
      if (read.kind === 'away') throw doc.words.away(reason, ectx.signal.aborted);
      throw doc.words.unknown(reason, decision.reason);
    }
    if (read.kind !== 'read') throw new AgentError('INTERNAL', 'not printed without a read');
    if (ownOpen(doc, baseline, read.evidence)) await doc.resetOwn();
    if (meaning.standing && meaning.standing.code !== 'STATE_UNKNOWN') throw meaning.standing;
    if (meaning.busy) {
      if (busyResends >= c.policy.afterBusy) throw doc.words.notPrinted(meaning.reason, true);
      busyResends++;
      await c.clock.sleep(c.policy.busyDelayMs, ectx.signal);
    } else {
      if (lostResends >= c.policy.afterLost) throw doc.words.notPrinted(meaning.reason, false);
      lostResends++;
    }
    resent = true;
    baseline = doc.rebase(baseline, read.evidence);
    c.log.warn('document not printed, as the witnesses prove: sending it once more', {
      reason: meaning.reason,
    });
  }
}

/**
 * A refused document's fallback (`OutgoingDocument.fallback`). A refusal says the printer did not
 * close the document, but the witnesses decide, as after any answer: the refused document is
 * printed when they say so (the result, nothing sent again), unknown when they cannot tell (Error
 * "check the printer", nothing sent again), and only when they prove it unprinted is the fallback
 * sent, with its own baseline and checkpoint.
 */
async function sendInstead<B, E, D>(
  c: SendContext,
  doc: OutgoingDocument<B, E, D>,
  instead: OutgoingDocument<B, E, D>,
  baseline: B | null,
  refusal: AgentError,
  ectx: ExecuteContext,
): Promise<JobResult> {
  const read = await readPatiently(doc.read, c.clock, c.policy, ectx.signal);
  const decision = decideAndLog(
    c,
    doc,
    baseline,
    read,
    'refused document checked against the printer before its fallback',
    {
      refusal: refusal.message,
    },
  );
  if (decision.outcome === 'printed') {
    return finish(c, doc, ectx, { document: decision.document, recovered: true, warnings: [] });
  }
  if (decision.outcome === 'unknown') {
    throw doc.words.unknown(`${refusal.message}; ${english(decision.reason)}`, decision.reason);
  }
  return sendDocument(c, instead, ectx);
}

/** Another till kept its document open past `OTHER_TILL_WAIT_MS`: nothing printed, nothing reset. */
/** The page's warning while a document waits for its printer: the family's words, else the kit's. */
export function waitingWarning(words: OutgoingWords, sentAt: number, until: number): Message {
  return words.waiting?.(sentAt, until) ?? rtCardWords.waiting({ until: { at: until, show: 'time' } });
}

/**
 * The printer could not be reached, so nothing was sent (DEVICE_UNAVAILABLE, `nothingSent`: the
 * core may run the job again); `notes` is the family's sentence.
 */
export function notReachedError(reason: string, notes: Message): AgentError {
  return new AgentError('DEVICE_UNAVAILABLE', `Printer not reachable (${reason})`, {
    notes,
    details: { reason, nothingSent: true },
  });
}

export function otherTillError(read: string): AgentError {
  return new AgentError('DEVICE_BUSY', `Another till kept a document open on the printer (${read})`, {
    notes: rtKitWords.otherTill({ minutes: Math.round(OTHER_TILL_WAIT_MS / 60_000) }),
    details: { reason: read, otherTill: true, nothingSent: true },
  });
}

/** `decideRead`, with what led to the read, the outcome and the witnesses in one log line. */
function decideAndLog<B, E, D>(
  c: SendContext,
  doc: OutgoingDocument<B, E, D>,
  baseline: B | null,
  read: PrinterRead<E>,
  what: string,
  context: Record<string, unknown>,
): WitnessDecision<D> {
  const decision = decideRead(doc, baseline, read);
  c.log.info(what, { ...context, outcome: decision.outcome, witnesses: witnessLine(decision.witnesses) });
  return decision;
}

function ownOpen<B, E, D>(doc: OutgoingDocument<B, E, D>, baseline: B | null, evidence: E): boolean {
  return doc.witnesses(baseline, evidence).ownDocumentOpen === true;
}

/** The decision from one read; a read that is not `read` speaks for no witness. */
export function decideRead<B, E, D>(
  doc: Pick<OutgoingDocument<B, E, D>, 'witnesses' | 'words'>,
  baseline: B | null,
  read: PrinterRead<E>,
): WitnessDecision<D> {
  if (read.kind !== 'read') {
    const what = read.kind === 'away' ? read.reason : read.kind === 'busy' ? read.code : read.what;
    return decide(
      [
        {
          name: 'printer',
          verdict: 'unknown',
          read: `${read.kind} (${what})`,
          reason: doc.words.noWitness(),
        },
      ],
      undefined,
      doc.words,
    );
  }
  const reading: WitnessReading<D> = doc.witnesses(baseline, read.evidence);
  return decide(reading.witnesses, reading.document, doc.words);
}

/**
 * The witnesses after an unproven answer. With a baseline a printer that went away is waited
 * for until `settleMinutes` after the document left (`printer-read.ts`); without one they are
 * read once.
 */
function witnessesAfter<B, E, D>(
  c: SendContext,
  doc: OutgoingDocument<B, E, D>,
  baseline: B | null,
  sentAt: number,
  signal: AbortSignal,
): Promise<PrinterRead<E>> {
  const windowMs = c.policy.settleMinutes * MINUTE;
  const patient = () => readPatiently(doc.read, c.clock, c.policy, signal);
  if (baseline === null || windowMs === 0) return patient();
  const until = sentAt + windowMs;
  return awaitPrinter(patient, c, { until, warning: waitingWarning(doc.words, sentAt, until), signal });
}

/**
 * The baseline, once no other till's document is open. Another till's document is waited for on
 * a backoff for `OTHER_TILL_WAIT_MS`, then the command ends in Error naming the other till;
 * nothing of theirs is ever reset.
 */
async function readyToSend<B, E, D>(
  c: SendContext,
  doc: OutgoingDocument<B, E, D>,
  signal: AbortSignal,
  firstRead?: string,
): Promise<B | null> {
  const until = c.clock.now() + OTHER_TILL_WAIT_MS;
  const backoff = new Backoff(OTHER_TILL_BACKOFF);
  let seen = firstRead;
  for (;;) {
    if (seen !== undefined) {
      const left = until - c.clock.now();
      if (left <= 0) throw (doc.words.otherTill ?? otherTillError)(seen);
      c.log.info('another till has a document open on the printer: waiting for it', { read: seen });
      try {
        await c.clock.sleep(Math.min(backoff.next(), left), signal);
      } catch {
        throw new AgentError('ABORTED', 'Stopped while another till’s document was open');
      }
    }
    const state: BeforeSend<B> = await doc.before(signal);
    if (signal.aborted) throw new AgentError('ABORTED', 'Stopped before sending the document');
    if (state.kind === 'ready') return state.baseline;
    if (state.kind === 'own-open') {
      await doc.resetOwn();
      return state.baseline;
    }
    seen = state.read;
  }
}

function finish<B, E, D>(
  c: SendContext,
  doc: OutgoingDocument<B, E, D>,
  ectx: ExecuteContext,
  printed: PrintedOutcome<D>,
): JobResult {
  const result = doc.result(printed);
  c.board.touched();
  // Printed whatever the journal says: report the real outcome. Nothing follows on the printer,
  // so the checkpoint is final: the core puts it on disk with the result.
  const unsaved = (e: unknown) =>
    c.log.error('could not checkpoint a printed document', {
      error: e instanceof Error ? e.message : String(e),
    });
  try {
    ectx.checkpoint(doneCheckpointOf(c.checkpointVersion, result), { final: true }).catch(unsaved);
  } catch (e) {
    unsaved(e);
  }
  ectx.progress(1);
  return result;
}
