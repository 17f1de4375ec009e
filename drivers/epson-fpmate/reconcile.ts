import type { Clock } from '../../src/clock.js';
import type { Job, Reconciliation } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import type { Message } from '../../src/messages/message.js';
import type { EpsonFpmateOptions } from './config.js';
import type { PrinterLink } from './link.js';
import { epsonAnswers } from './messages.js';
import { epsonPrinterWords } from './messages-printer.js';
import { epsonResults } from './messages-results.js';
import type { PrinterMemory } from './plan.js';
import { decide, readCheckpoint } from './recovery.js';
import { recoveredResult } from './results.js';
import { awaitCounters, isAway } from './settle.js';
import type { StatusBoard } from './status.js';

/**
 * `reconcile()`: the fate of a receipt whose answer was lost to a crash, from the job's
 * checkpoint (README "Exactly once"). None → not-done; one this driver cannot read → unknown; a
 * finished one → done; one taken while sending → the printer's counters decide. A printer that is
 * away gets `settleUnansweredForMinutes` from now to answer (settle.ts: after a restart — a power
 * cut takes the PC and the printer together — it gets the whole time again), then the outcome is
 * unknown; with no wait configured, "away" is the engine's to retry (DEVICE_UNAVAILABLE).
 */

export interface ReconcileDeps {
  options: EpsonFpmateOptions;
  memory: PrinterMemory;
  board: StatusBoard;
  clock: Clock;
  log: Logger;
  /** The printer the job names, or a reason it has none. */
  link(job: Job): PrinterLink | undefined;
  /** Runs `work` alone with the printer (the driver's mutex). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

const MINUTE = 60_000;

export async function reconcileJob(d: ReconcileDeps, job: Job, signal: AbortSignal): Promise<Reconciliation> {
  const read = readCheckpoint(job.checkpoint);
  if (read.kind === 'absent') return { outcome: 'not-done' };
  if (read.kind === 'unreadable') {
    // It exists, so something may have been sent; what, this driver cannot read.
    d.log.warn('unreadable checkpoint: the outcome is unknown', { problem: read.problem });
    return { outcome: 'unknown', reason: epsonResults.stoppedUnreadable() };
  }
  const checkpoint = read.checkpoint;
  if (checkpoint.phase === 'done') return { outcome: 'done', result: checkpoint.result };
  const what =
    checkpoint.label === 'refund' || checkpoint.label === 'void'
      ? checkpoint.label
      : checkpoint.kind === 'receipt'
        ? 'receipt'
        : 'document';
  const staff = (reason: Message) => epsonResults.stopped({ what, reason });
  if (checkpoint.kind !== 'receipt') return { outcome: 'unknown', reason: staff(epsonResults.cannotTell()) };
  const link = d.link(job);
  if (!link) return { outcome: 'unknown', reason: staff(epsonResults.noAddress()) };
  return d.exclusive(async () => {
    const minutes = d.options.settleUnansweredForMinutes;
    const counters =
      minutes === 0 || !checkpoint.baseline
        ? await link.settleCounters(d.clock, signal)
        : await awaitCounters(
            { link, clock: d.clock, board: d.board, log: d.log },
            {
              until: d.clock.now() + minutes * MINUTE,
              warning: epsonPrinterWords.waitingToSettle({
                document: epsonAnswers.document({ what }),
                at: { at: checkpoint.sentAt ?? d.clock.now(), show: 'time' },
                until: { at: d.clock.now() + minutes * MINUTE, show: 'time' },
              }),
              signal,
            },
          );
    if (isAway(counters)) {
      const reason = counters.kind === 'silent' ? counters.code : counters.reason;
      d.board.unreachable(reason);
      // Away is not "cannot tell": without a wait of its own (or stopped), the engine asks again.
      if (minutes === 0 || signal.aborted || !checkpoint.baseline) {
        throw new AgentError('DEVICE_UNAVAILABLE', `Printer not reachable (${reason})`, { retryable: true });
      }
      return { outcome: 'unknown', reason: staff(epsonPrinterWords.awayReason({ minutes })) };
    }
    const last = counters.kind === 'read' ? counters.document : undefined;
    d.memory.observe(last);
    if (last) {
      d.board.noteSerial(last.serial);
      d.board.touched();
    }
    const decision = decide(checkpoint.baseline, last, checkpoint.expectedCents);
    if (decision.outcome === 'unknown') return { outcome: 'unknown', reason: staff(decision.reason) };
    if (decision.outcome === 'not-printed') {
      await link.reset();
      return { outcome: 'not-done' };
    }
    const kind = checkpoint.label === 'refund' ? 'refund' : checkpoint.label === 'void' ? 'void' : 'sale';
    const result = recoveredResult(
      decision.document,
      { kind, reference: checkpoint.reference },
      d.memory.serial(),
      d.options.currency,
    );
    return { outcome: 'done', result };
  });
}
