import type { Job, Reconciliation } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { CustomLink } from './link.js';
import { customResults as m } from './messages.js';
import { decide, readCheckpoint } from './recovery.js';
import { printedResult } from './results.js';
import type { SendDeps } from './send.js';
import { awaitCounters } from './settle.js';

const MINUTE = 60_000;

/**
 * `reconcile()`: the fate of a document whose answer a crash took, from the job's checkpoint
 * (README "Exactly once"). None → not-done; unreadable → unknown; finished → done; taken while
 * sending → the printer decides (`lastIdCmd` and the counters, recovery.ts). A printer that is away
 * gets `settleUnansweredForMinutes` to answer, then the outcome is unknown.
 */
export async function reconcileJob(
  d: Omit<SendDeps, 'link'> & {
    link(job: Job): CustomLink | undefined;
    exclusive<T>(work: () => Promise<T>): Promise<T>;
  },
  job: Job,
  signal: AbortSignal,
): Promise<Reconciliation> {
  const read = readCheckpoint(job.checkpoint);
  if (read.kind === 'absent') return { outcome: 'not-done' };
  if (read.kind === 'unreadable') return { outcome: 'unknown', reason: m.stoppedUnreadable() };
  const c = read.checkpoint;
  if (c.phase === 'done') return { outcome: 'done', result: c.result };
  const link = d.link(job);
  if (!link) return { outcome: 'unknown', reason: m.stopped({ reason: m.noAddress() }) };
  return d.exclusive(async () => {
    const minutes = d.options.settleUnansweredForMinutes;
    const counters =
      minutes === 0
        ? await link.settleCounters(d.clock, signal)
        : await awaitCounters({ ...d, link }, d.clock.now() + minutes * MINUTE, signal);
    if (counters.kind === 'unreachable') {
      d.board.unreachable(counters.reason);
      if (minutes === 0 || signal.aborted) {
        throw new AgentError('DEVICE_UNAVAILABLE', `Printer not reachable (${counters.reason})`, {
          retryable: true,
        });
      }
      return { outcome: 'unknown', reason: m.stopped({ reason: m.awayReason({ minutes }) }) };
    }
    if (counters.kind === 'read') d.board.touched();
    const decision = decide(
      c.baseline,
      c.ids,
      counters.kind === 'read' ? counters.counters : undefined,
      c.expectedCents,
    );
    if (decision.outcome === 'unknown')
      return { outcome: 'unknown', reason: m.stopped({ reason: decision.reason }) };
    if (decision.outcome === 'not-printed') {
      if (decision.documentOpen) await link.reset();
      return { outcome: 'not-done' };
    }
    const doc = decision.document;
    const result = printedResult({
      kind: c.label,
      z: doc ? decision.z : undefined,
      doc: doc?.doc,
      dateTime: doc?.dateTime,
      serial: d.serial(),
      reference: c.reference,
      recovered: true,
    });
    return { outcome: 'done', result };
  });
}
