import type { Clock } from '../../../src/clock.js';
import type { ExecuteContext, JobResult } from '../../../src/drivers-api/types.js';
import { toAgentError } from '../../../src/errors.js';
import type { Message } from '../../../src/messages/message.js';
import type { CheckpointRead } from './checkpoint.js';
import type { FiscalState } from './fiscal-state.js';
import type { PhasedCheckpoint } from './reconcile.js';
import type { WitnessDecision } from './witnesses.js';

/**
 * A fiscal document a staff action prints (a void from the page or `frontdesk-agent void`), with
 * the same exactly-once rules as a command's: no journal row holds its checkpoint, so the fiscal
 * state does (`pendingAction`), on disk before the document leaves; a kill in between is settled
 * from the printer's witnesses at the next start (`settleStaffDocument`), and the page shows the
 * outcome as the last action. One place for every RT family.
 */
export async function runStaffDocument(
  d: { state: FiscalState; clock: Clock },
  action: string,
  signal: AbortSignal,
  send: (ectx: ExecuteContext) => Promise<JobResult>,
): Promise<JobResult> {
  const { state, clock } = d;
  const ectx: ExecuteContext = {
    signal,
    progress: () => undefined,
    checkpoint: async (value) => {
      state.setPendingAction({ action, checkpoint: value });
      await state.flush();
    },
  };
  try {
    const result = await send(ectx);
    state.setLastAction({ action, at: clock.now(), ok: true, notes: result.notes });
    return result;
  } catch (e) {
    const error = toAgentError(e);
    // An outcome nobody can tell stays on the page until staff have looked at the printer.
    if (error.code === 'STATE_UNKNOWN')
      state.setLastAction({ action, at: clock.now(), ok: false, notes: error.notes });
    throw error;
  } finally {
    state.setPendingAction(null);
  }
}

type Sending<C> = Extract<C, { phase: 'sending' }>;

/** How a family settles its staff document's `sending` checkpoint, and says the outcome. */
export interface StaffSettling<C extends PhasedCheckpoint, D> {
  /** The family's reading of the stored checkpoint. */
  read(value: unknown): CheckpointRead<C>;
  /** The witnesses' decision on a `sending` checkpoint; `away` when the printer did not answer. */
  decide(checkpoint: Sending<C>, signal: AbortSignal): Promise<WitnessDecision<D> | 'away'>;
  words: {
    printed(checkpoint: Sending<C>, decision: Extract<WitnessDecision<D>, { outcome: 'printed' }>): Message;
    notPrinted(): Message;
    unknown(): Message;
  };
}

/**
 * A staff document a kill left in flight: the last action becomes what the printer's witnesses
 * say (printed, not printed, or unknown — an unreadable record is unknown too) and the pending
 * record is cleared. A printer that does not answer keeps it for the next start.
 */
export async function settleStaffDocument<C extends PhasedCheckpoint, D>(
  d: { state: FiscalState; clock: Clock },
  s: StaffSettling<C, D>,
  signal: AbortSignal,
): Promise<void> {
  const pending = d.state.pendingAction();
  if (!pending) return;
  const read = s.read(pending.checkpoint);
  const at = d.clock.now();
  const record = (ok: boolean, notes: Message) =>
    d.state.setLastAction({ action: pending.action, at, ok, notes });
  if (read.kind === 'unreadable') record(false, s.words.unknown());
  if (read.kind === 'ok') {
    const c = read.checkpoint;
    if (c.phase === 'done') record(true, (c as Extract<C, { phase: 'done' }>).result.notes);
    else {
      const sending = c as Sending<C>;
      const decision = await s.decide(sending, signal);
      if (decision === 'away') return;
      if (decision.outcome === 'printed') record(true, s.words.printed(sending, decision));
      else if (decision.outcome === 'not-printed') record(false, s.words.notPrinted());
      else record(false, s.words.unknown());
    }
  }
  d.state.setPendingAction(null);
}
