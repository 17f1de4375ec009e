import type { Clock } from '../../../src/clock.js';
import type { JobResult, Reconciliation } from '../../../src/drivers-api/types.js';
import { AgentError } from '../../../src/errors.js';
import type { Logger } from '../../../src/log.js';
import type { Message } from '../../../src/messages/message.js';
import type { CheckpointRead } from './checkpoint.js';
import type { RtOptions } from './options.js';
import type { OutgoingDocument } from './outgoing.js';
import { awaitPrinter, readPatiently, type WaitBoard } from './printer-read.js';
import { decideRead, waitingWarning } from './send.js';
import { witnessLine } from './witnesses.js';

const MINUTE = 60_000;

/** A `sending` checkpoint as the family hands it to the kit's reconcile. */
export interface SendingRecord<B, E, D> {
  /** The document's witnesses, as at send time (its baseline, its ids). */
  document: Pick<OutgoingDocument<B, E, D>, 'read' | 'witnesses' | 'words' | 'resetOwn'>;
  baseline: B | null;
  sentAt: number | undefined;
  /** Why this checkpoint cannot be settled from the printer at all (Epson: a payload that is no receipt). */
  cannotTell?: Message | undefined;
  /** The result when the witnesses say printed. */
  result(document: D | undefined): JobResult;
}

/** The family's words for a job a restart found unfinished. */
export interface ReconcileWords {
  /** "The agent stopped while … was being sent and <reason>": the family's sentence. */
  stopped(reason: Message): Message;
  stoppedUnreadable(): Message;
  noAddress(): Message;
  awayReason(args: { minutes: number }): Message;
}

/**
 * The reconcile words of a family whose results catalogue registers the kit's `RT_RESULT_TEXTS`
 * (`messages.ts`) under its own ids, as Custom and RCH do.
 */
export function rtReconcileWords(results: {
  stopped(values: { reason: Message }): Message;
  stoppedUnreadable(): Message;
  noAddress(): Message;
  awayReason(values: { minutes: number }): Message;
}): ReconcileWords {
  return {
    stopped: (reason) => results.stopped({ reason }),
    stoppedUnreadable: () => results.stoppedUnreadable(),
    noAddress: () => results.noAddress(),
    awayReason: (args) => results.awayReason(args),
  };
}

export interface ReconcileContext<C> {
  clock: Clock;
  log: Logger;
  board: WaitBoard & { touched(): void };
  settleMinutes: number;
  busyRetries: number;
  busyRetryDelayMs: number;
  /** The job's checkpoint in the family's schema. */
  checkpoint: CheckpointRead<C>;
  /** The `done` phase's result, when the checkpoint has one. */
  done(checkpoint: C): JobResult | undefined;
  /** The `sending` phase as a record the kit settles; undefined when the printer is not known. */
  sending(checkpoint: C): SendingRecord<unknown, unknown, unknown> | 'no-address';
  words: ReconcileWords;
  /** Runs `work` alone with the printer (the line's mutex). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

/** Every family's checkpoint: a `sending` phase of its own shape, or the `done` result. */
export type PhasedCheckpoint = { phase: 'sending' } | { phase: 'done'; result: JobResult };

/** A family's reconcile context: the kit's waits from its options, its checkpoint, its words. */
export function reconcileContextOf<C extends PhasedCheckpoint>(
  d: {
    clock: Clock;
    log: Logger;
    board: ReconcileContext<C>['board'];
    options: Pick<RtOptions, 'settleUnansweredForMinutes' | 'busyRetries' | 'busyRetryDelayMs'>;
  },
  checkpoint: CheckpointRead<C>,
  sending: (c: Extract<C, { phase: 'sending' }>) => ReturnType<ReconcileContext<C>['sending']>,
  words: ReconcileWords,
): Omit<ReconcileContext<C>, 'exclusive'> {
  return {
    clock: d.clock,
    log: d.log,
    board: d.board,
    settleMinutes: d.options.settleUnansweredForMinutes,
    busyRetries: d.options.busyRetries,
    busyRetryDelayMs: d.options.busyRetryDelayMs,
    checkpoint,
    done: (c) => (c.phase === 'done' ? (c as Extract<C, { phase: 'done' }>).result : undefined),
    sending: (c) => (c.phase === 'sending' ? sending(c as Extract<C, { phase: 'sending' }>) : 'no-address'),
    words,
  };
}

/**
 * `reconcile()` for every RT family: the fate of a document whose answer a crash took, from the
 * job's checkpoint (README "The guarantees"). None → not-done; unreadable → unknown (never "not
 * sent"); finished → done; taken while sending → the witnesses decide (`witnesses.ts`). A
 * printer that is away gets `settleUnansweredForMinutes` from now to answer (after a restart — a
 * power cut takes the PC and the printer together — it gets the whole time again), then the
 * outcome is unknown; with no wait configured, "away" is the engine's to retry. Proven
 * unprinted, the agent's own open document is reset (never another till's).
 */
export async function reconcileSending<C>(
  r: ReconcileContext<C>,
  signal: AbortSignal,
): Promise<Reconciliation> {
  const read = r.checkpoint;
  if (read.kind === 'absent') return { outcome: 'not-done' };
  if (read.kind === 'unreadable') {
    r.log.warn('unreadable checkpoint: the outcome is unknown', { problem: read.problem });
    return { outcome: 'unknown', reason: r.words.stoppedUnreadable() };
  }
  const done = r.done(read.checkpoint);
  if (done) return { outcome: 'done', result: done };
  const record = r.sending(read.checkpoint);
  if (record === 'no-address') return { outcome: 'unknown', reason: r.words.stopped(r.words.noAddress()) };
  if (record.cannotTell) return { outcome: 'unknown', reason: r.words.stopped(record.cannotTell) };
  const doc = record.document;
  return r.exclusive(async () => {
    const minutes = r.settleMinutes;
    const patient = () => readPatiently(doc.read, r.clock, r, signal);
    const until = r.clock.now() + minutes * MINUTE;
    const now =
      minutes === 0 || record.baseline === null
        ? await patient()
        : await awaitPrinter(patient, r, {
            until,
            warning: waitingWarning(doc.words, record.sentAt ?? r.clock.now(), until),
            signal,
          });
    if (now.kind === 'away') {
      r.board.unreachable(now.reason);
      // Away is not "cannot tell": without a wait of its own (or stopped), the engine asks again.
      if (minutes === 0 || signal.aborted || record.baseline === null) {
        throw new AgentError('DEVICE_UNAVAILABLE', `Printer not reachable (${now.reason})`, {
          retryable: true,
        });
      }
      return { outcome: 'unknown', reason: r.words.stopped(r.words.awayReason({ minutes })) };
    }
    if (now.kind === 'read') r.board.touched();
    const decision = decideRead(doc, record.baseline, now);
    r.log.info('unfinished document checked against the printer', {
      outcome: decision.outcome,
      witnesses: witnessLine(decision.witnesses),
    });
    if (decision.outcome === 'unknown')
      return { outcome: 'unknown', reason: r.words.stopped(decision.reason) };
    if (decision.outcome === 'not-printed') {
      if (now.kind === 'read' && doc.witnesses(record.baseline, now.evidence).ownDocumentOpen) {
        await doc.resetOwn();
      }
      return { outcome: 'not-done' };
    }
    return { outcome: 'done', result: record.result(decision.document) };
  });
}
