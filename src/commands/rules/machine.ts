import { type BackoffRange, backoffCeiling } from '../../backoff.js';
import type { CommandState } from '../../connector/wire.js';
import type { SerializedError } from '../../errors.js';
import type { Message } from '../../messages/message.js';
import { deviceUnreachableReason, errorNotes, unknownOutcomeNotes } from './notes.js';
import type { MachineState, Phase } from './phases.js';
import type { ReportedResult } from './records.js';

export { INITIAL_STATE, type MachineState, PHASES, type Phase } from './phases.js';

/**
 * The command lifecycle as a pure function `(state, event, policy) → {state, effects}`: no I/O,
 * no clock, no randomness. The lifecycle (`run/lifecycle.ts`) persists the returned state (and the
 * outbox items of its `report` effects) in one journal transaction **before** the executor
 * performs any effect, so a state is always on disk before the platform hears of it.
 *
 * Retries are the machine's decisions too: whether a failure is tried again, after how long
 * (`delayMs` on the effect), and when to give up. The executor only waits and tries; it echoes the
 * count back in the next failure event. The phases and what they mean: `phases.ts`.
 */

/** Device errors worth another try, but only while nothing may have reached the device. */
export const RETRYABLE_DEVICE_CODES: readonly string[] = ['DEVICE_BUSY', 'DEVICE_UNAVAILABLE'];

/**
 * How the command machine retries a command (its device calls and its re-read before start); the
 * engine builds it from its tuning. Not the connector's `RetryPolicy` (`src/connector/retry.ts`),
 * which retries one platform request.
 */
export interface CommandRetryPolicy {
  /** Device retries: a busy or unavailable device before anything was sent, and a failed reconcile. */
  device: { maxRetries: number; delay: BackoffRange };
  /**
   * The re-read before start while the platform cannot be reached (after PLATFORM_AUTH,
   * `authPauseMs`), and the wait of a command held back for a state the agent does not know.
   */
  reread: { delay: BackoffRange; authPauseMs: number };
}

export const DEFAULT_COMMAND_RETRY_POLICY: CommandRetryPolicy = {
  device: { maxRetries: 3, delay: { minMs: 2000, maxMs: Number.POSITIVE_INFINITY } },
  reread: { delay: { minMs: 1000, maxMs: 30_000 }, authPauseMs: 5 * 60_000 },
};

export type MachineEvent =
  /** Intake found a new command of ours in an active state. */
  | { type: 'accept'; platformState: 'Pending' | 'Received' }
  /** Intake found a malformed command of ours: it ends in Error, nothing runs. */
  | { type: 'invalid'; platformState: 'Pending' | 'Received'; error: SerializedError }
  /** The outbox confirmed that the platform took an update. */
  | { type: 'delivered'; state: CommandState }
  /** The device queue reached this command. */
  | { type: 'turn' }
  /**
   * The re-read before the first side effect: `proceed` when it is still ours to run, `skip`
   * when it is cancelled, terminal or gone (`platformState` undefined for gone).
   */
  | { type: 'reread'; verdict: 'proceed' }
  | { type: 'reread'; verdict: 'skip'; platformState?: CommandState }
  /**
   * The platform shows a state this agent does not know (or none): never a reason to start.
   * `holds` counts the holds of this command so far.
   */
  | { type: 'reread'; verdict: 'hold'; platformState: string; holds: number }
  /** The re-read could not reach the platform; `failures` before this one in a row. */
  | { type: 'rereadFailed'; error: SerializedError; failures: number }
  /** The platform has the command terminal (WebSocket event, outbox re-read …). */
  | { type: 'platformTerminal'; platformState: CommandState }
  | { type: 'executed'; result: ReportedResult }
  /**
   * The driver rejected. `sideEffectPossible` is true once the driver stored a checkpoint in
   * this attempt (it checkpoints before every side effect), or the open/execute may have sent
   * something; `retriesUsed` counts device retries in this run.
   */
  | { type: 'failed'; error: SerializedError; sideEffectPossible: boolean; retriesUsed: number }
  | { type: 'reconciled'; outcome: 'done'; result: ReportedResult }
  | { type: 'reconciled'; outcome: 'not-done' }
  | { type: 'reconciled'; outcome: 'failed'; error: SerializedError }
  | { type: 'reconciled'; outcome: 'unknown'; reason: Message }
  /** The driver could not be asked (`retriesUsed` retries so far); the signal had not fired. */
  | { type: 'reconcileFailed'; error: SerializedError; retriesUsed: number }
  /** The agent started again and found the command in this phase. */
  | { type: 'restart' };

export type EventType = MachineEvent['type'];

/** A retry the machine decided: the how-manieth, and how long to wait first. */
export interface Retry {
  retry: number;
  delayMs: number;
}

export type Effect =
  /** Queue an update for the platform (outbox). Progress-only updates may be superseded. */
  | { type: 'report'; state: CommandState; progress?: number; notes?: Message }
  /** Drop every not-yet-sent update of this command. */
  | { type: 'dropReports' }
  /** Put the command in its device queue (at the front with `front`). */
  | { type: 'enqueue'; front?: boolean }
  /** Take the command out of its device queue if it is still waiting there. */
  | { type: 'dequeue' }
  /** Read the command again before it starts (after `delayMs` when it is a retry). */
  | ({ type: 'reread' } & Partial<Retry>)
  | { type: 'execute'; attempt: number }
  /** Leave the queue, and come back to it for another read after `delayMs`. */
  | ({ type: 'hold'; platformState: string } & Retry)
  /** Wait `delayMs`, then execute again (nothing reached the device). */
  | ({ type: 'retry'; attempt: number } & Retry)
  | { type: 'abort' }
  /** Ask the driver what became of it (after `delayMs` when it is a retry). */
  | ({ type: 'reconcile' } & Partial<Retry>);

export type Transition = { ok: true; state: MachineState; effects: Effect[] } | { ok: false; reason: string };

type Handler<E extends EventType> = (
  state: MachineState,
  event: Extract<MachineEvent, { type: E }>,
  policy: CommandRetryPolicy,
) => Transition;
/** A cell of the table: a handler, or the reason the pair can never legitimately happen. */
type Cell<E extends EventType> = Handler<E> | { rejected: string };
type Row = { [E in EventType]: Cell<E> };

const to = (state: MachineState, patch: Partial<MachineState>, effects: Effect[] = []): Transition => ({
  ok: true,
  state: { ...state, ...patch },
  effects,
});
const stay = (state: MachineState): Transition => ({ ok: true, state, effects: [] });
const reject = (rejected: string) => ({ rejected });

const notJournaled = reject('the command is not in the journal yet');
const alreadyJournaled = reject('the command is already in the journal (dedup happens before the machine)');
const noReread = reject('no re-read is in flight in this phase');
const notRunning = reject('no driver is executing this command');
const notReconciling = reject('no reconciliation is in flight');
const terminal = reject('the command is terminal');

/** Received, unless the platform already has it so. */
const receivedReport = (platformState: 'Pending' | 'Received'): Effect[] =>
  platformState === 'Pending' ? [{ type: 'report', state: 'Received' }] : [];

/** Cells that are the same in every phase after `new`. */
const journaled = { accept: alreadyJournaled, invalid: alreadyJournaled } as const;

const queued = (): Row => ({
  ...journaled,
  delivered: (s, e) =>
    s.phase === 'accepted' && e.state === 'Received' ? to(s, { phase: 'received' }) : stay(s),
  turn: (s) => to(s, { phase: 'starting' }, [{ type: 'reread' }]),
  reread: noReread,
  rereadFailed: noReread,
  platformTerminal: (s, e) =>
    to(s, { phase: 'skipped', state: e.platformState }, [{ type: 'dropReports' }, { type: 'dequeue' }]),
  executed: notRunning,
  failed: notRunning,
  reconciled: notReconciling,
  reconcileFailed: notReconciling,
  restart: (s) => to(s, {}, [{ type: 'enqueue' }]),
});

const start = (s: MachineState): Transition => {
  const attempt = s.attempt + 1;
  const report: Effect[] =
    s.state === 'Processing' ? [] : [{ type: 'report', state: 'Processing', progress: 0 }];
  return to(s, { phase: 'running', attempt, state: 'Processing' }, [...report, { type: 'execute', attempt }]);
};

const finishWith = (s: MachineState, state: 'Processed' | 'Error', notes: Message): Transition =>
  to(s, { phase: 'finished', state }, [{ type: 'report', state, notes }]);

/** The next device retry after `retriesUsed`, or undefined when none is left. */
function deviceRetry(retriesUsed: number, policy: CommandRetryPolicy): Retry | undefined {
  if (retriesUsed >= policy.device.maxRetries) return undefined;
  return { retry: retriesUsed + 1, delayMs: backoffCeiling(retriesUsed, policy.device.delay) };
}

/** A re-read that could not reach the platform is tried again, for as long as it takes. */
function rereadRetry(e: Extract<MachineEvent, { type: 'rereadFailed' }>, policy: CommandRetryPolicy): Retry {
  const { delay, authPauseMs } = policy.reread;
  const delayMs = e.error.code === 'PLATFORM_AUTH' ? authPauseMs : backoffCeiling(e.failures, delay);
  return { retry: e.failures + 1, delayMs };
}

const TABLE: { [P in Phase]: Row } = {
  new: {
    accept: (s, e) =>
      to(s, { phase: e.platformState === 'Received' ? 'received' : 'accepted', state: 'Received' }, [
        ...receivedReport(e.platformState),
        { type: 'enqueue' },
      ]),
    invalid: (s, e) =>
      to(s, { phase: 'finished', state: 'Error' }, [
        ...receivedReport(e.platformState),
        { type: 'report', state: 'Error', notes: errorNotes(e.error) },
      ]),
    delivered: notJournaled,
    turn: notJournaled,
    reread: notJournaled,
    rereadFailed: notJournaled,
    platformTerminal: notJournaled,
    executed: notJournaled,
    failed: notJournaled,
    reconciled: notJournaled,
    reconcileFailed: notJournaled,
    restart: notJournaled,
  },
  accepted: queued(),
  received: queued(),
  starting: {
    ...journaled,
    delivered: stay,
    turn: reject('the command already has its turn'),
    reread: (s, e, policy) => {
      if (e.verdict === 'proceed') return start(s);
      if (e.verdict === 'hold') {
        const delayMs = backoffCeiling(e.holds, policy.reread.delay);
        return to(s, {}, [{ type: 'hold', platformState: e.platformState, retry: e.holds + 1, delayMs }]);
      }
      return to(s, { phase: 'skipped', state: e.platformState ?? 'Cancelled' }, [{ type: 'dropReports' }]);
    },
    rereadFailed: (s, e, policy) => to(s, {}, [{ type: 'reread', ...rereadRetry(e, policy) }]),
    platformTerminal: (s, e) =>
      to(s, { phase: 'skipped', state: e.platformState }, [{ type: 'dropReports' }]),
    executed: notRunning,
    failed: notRunning,
    reconciled: notReconciling,
    reconcileFailed: notReconciling,
    // Nothing reached the device before the re-read: queue it again (it is re-read again).
    restart: (s) => to(s, { phase: 'accepted' }, [{ type: 'enqueue' }]),
  },
  running: {
    ...journaled,
    delivered: stay,
    turn: reject('the command is already running'),
    reread: noReread,
    rereadFailed: noReread,
    // Progress not sent yet would move the command back out of the platform's end: dropped now.
    platformTerminal: (s, e) =>
      to(s, { phase: 'cancelling', state: e.platformState }, [{ type: 'abort' }, { type: 'dropReports' }]),
    executed: (s, e) => finishWith(s, 'Processed', e.result.notes),
    failed: (s, e, policy) => {
      const retryable = RETRYABLE_DEVICE_CODES.includes(e.error.code) && !e.sideEffectPossible;
      const retry = retryable ? deviceRetry(e.retriesUsed, policy) : undefined;
      if (!retry) return finishWith(s, 'Error', errorNotes(e.error));
      const attempt = s.attempt + 1;
      return to(s, { attempt }, [{ type: 'retry', attempt, ...retry }]);
    },
    reconciled: notReconciling,
    reconcileFailed: notReconciling,
    restart: (s) => to(s, { phase: 'reconciling' }, [{ type: 'enqueue', front: true }]),
  },
  cancelling: {
    ...journaled,
    delivered: stay,
    turn: reject('the command is already running'),
    reread: noReread,
    rereadFailed: noReread,
    platformTerminal: stay,
    // The side effect had already happened: keep the real outcome, tell the platform nothing
    // (it has the command terminal). Nothing of ours waits in the outbox since the cancel but
    // a restore of the platform's end (`outbox/restore.ts`), which must still go.
    executed: (s) => to(s, { phase: 'closed' }),
    failed: (s) => to(s, { phase: 'cancelled' }),
    reconciled: notReconciling,
    reconcileFailed: notReconciling,
    restart: (s) => to(s, { phase: 'reconciling' }, [{ type: 'enqueue', front: true }]),
  },
  reconciling: {
    ...journaled,
    delivered: stay,
    turn: (s) => to(s, {}, [{ type: 'reconcile' }]),
    reread: noReread,
    rereadFailed: noReread,
    // Let the driver finish deciding; the outbox's re-read settles a refused report later.
    platformTerminal: stay,
    executed: notRunning,
    failed: notRunning,
    reconciled: (s, e) => {
      switch (e.outcome) {
        case 'done':
          return finishWith(s, 'Processed', e.result.notes);
        case 'failed':
          return finishWith(s, 'Error', errorNotes(e.error));
        case 'unknown':
          return finishWith(s, 'Error', unknownOutcomeNotes(e.reason));
        case 'not-done':
          // Certainly not done: re-read it, then run it again (attempt + 1).
          return to(s, { phase: 'starting' }, [{ type: 'reread' }]);
      }
    },
    reconcileFailed: (s, e, policy) => {
      const retry = e.error.retryable ? deviceRetry(e.retriesUsed, policy) : undefined;
      if (retry) return to(s, {}, [{ type: 'reconcile', ...retry }]);
      return finishWith(s, 'Error', unknownOutcomeNotes(deviceUnreachableReason(e.error)));
    },
    restart: (s) => to(s, {}, [{ type: 'enqueue', front: true }]),
  },
  finished: {
    ...journaled,
    delivered: (s, e) => (e.state === s.state ? to(s, { phase: 'closed' }) : stay(s)),
    turn: reject('the command has finished'),
    reread: noReread,
    rereadFailed: noReread,
    platformTerminal: (s, e) => to(s, { phase: 'closed', state: e.platformState }, [{ type: 'dropReports' }]),
    executed: notRunning,
    failed: notRunning,
    reconciled: notReconciling,
    reconcileFailed: notReconciling,
    // The outbox still holds its result and delivers it.
    restart: stay,
  },
  skipped: terminalRow(),
  cancelled: terminalRow(),
  closed: terminalRow(),
};

function terminalRow(): Row {
  return {
    ...journaled,
    // A late confirmation of an earlier update, or the platform repeating what it has: harmless.
    delivered: stay,
    turn: terminal,
    reread: terminal,
    rereadFailed: terminal,
    platformTerminal: stay,
    executed: terminal,
    failed: terminal,
    reconciled: terminal,
    reconcileFailed: terminal,
    restart: reject('terminal commands are not recovered'),
  };
}

/** Every event type, as the table spells them. */
export const EVENT_TYPES = Object.keys(TABLE.new) as readonly EventType[];

/** Applies one event. Never throws; an impossible pair comes back as `{ok: false, reason}`. */
export function transition(
  state: MachineState,
  event: MachineEvent,
  policy: CommandRetryPolicy = DEFAULT_COMMAND_RETRY_POLICY,
): Transition {
  const cell = TABLE[state.phase][event.type] as Cell<EventType>;
  if ('rejected' in cell) return { ok: false, reason: `${event.type} in ${state.phase}: ${cell.rejected}` };
  return (cell as Handler<EventType>)(state, event, policy);
}

/** Whether the table defines the pair (for the completeness test and diagnostics). */
export function cellOf(phase: Phase, type: EventType): 'handler' | 'rejected' {
  const cell = TABLE[phase][type];
  return 'rejected' in cell ? 'rejected' : 'handler';
}
