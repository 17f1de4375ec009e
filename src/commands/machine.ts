import type { CommandState } from '../connector/wire.js';
import type { JobResult } from '../drivers-api/types.js';
import type { SerializedError } from '../errors.js';
import { errorNotes, unknownOutcomeNotes } from './notes.js';

/**
 * The command lifecycle as a pure function `(state, event) → {state, effects}`: no I/O, no clock,
 * no randomness. The runner persists the returned state (and the outbox items of its `report`
 * effects) in one journal transaction **before** it performs any effect, so a state is always on
 * disk before the platform hears of it.
 *
 * Phases:
 * - `new`          not in the journal (only `accept` / `invalid` apply).
 * - `accepted`     journaled; Received queued for the platform; waiting in its device queue.
 * - `received`     as `accepted`, and the platform has confirmed Received.
 * - `starting`     its turn came: re-reading the command before the first side effect.
 * - `running`      Processing reported; the driver executes it.
 * - `cancelling`   the platform has it terminal (cancelled) while it runs; the driver's signal
 *                  fired. `state` is the platform's state from here on.
 * - `reconciling`  found started-but-unfinished after a restart; the driver decides its fate.
 * - `finished`     outcome journaled; Processed/Error queued, not yet confirmed delivered.
 * - `skipped`      terminal: cancelled or gone before it started; nothing ran.
 * - `cancelled`    terminal: cancelled while running and the driver stopped.
 * - `closed`       terminal: outcome delivered, or the platform already had it terminal.
 */
export const PHASES = [
  'new',
  'accepted',
  'received',
  'starting',
  'running',
  'cancelling',
  'reconciling',
  'finished',
  'skipped',
  'cancelled',
  'closed',
] as const;
export type Phase = (typeof PHASES)[number];

export const TERMINAL_PHASES: readonly Phase[] = ['skipped', 'cancelled', 'closed'];
/** Phases in which a command still needs its device (queued, re-reading, running, reconciling). */
export const ACTIVE_PHASES: readonly Phase[] = [
  'accepted',
  'received',
  'starting',
  'running',
  'cancelling',
  'reconciling',
];

export interface MachineState {
  phase: Phase;
  /** Runs so far (1 after the first start). */
  attempt: number;
  /** The state the agent last reported, or learned the platform has (terminal) on its own. */
  state: CommandState;
}

/** Device errors worth another try, but only while nothing may have reached the device. */
export const RETRYABLE_DEVICE_CODES: readonly string[] = ['DEVICE_BUSY', 'DEVICE_UNAVAILABLE'];

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
  /** The platform has the command terminal (WebSocket event, outbox re-read …). */
  | { type: 'platformTerminal'; platformState: CommandState }
  | { type: 'executed'; result: JobResult }
  /**
   * The driver rejected. `sideEffectPossible` is true once the driver stored a checkpoint in
   * this attempt (it checkpoints before every side effect), or the open/execute may have sent
   * something; `retriesUsed` counts device retries in this run.
   */
  | {
      type: 'failed';
      error: SerializedError;
      sideEffectPossible: boolean;
      retriesUsed: number;
      maxRetries: number;
    }
  | { type: 'reconciled'; outcome: 'done'; result: JobResult }
  | { type: 'reconciled'; outcome: 'not-done' }
  | { type: 'reconciled'; outcome: 'failed'; error: SerializedError }
  | { type: 'reconciled'; outcome: 'unknown'; reason: string }
  /** The agent started again and found the command in this phase. */
  | { type: 'restart' };

export type EventType = MachineEvent['type'];
export const EVENT_TYPES: readonly EventType[] = [
  'accept',
  'invalid',
  'delivered',
  'turn',
  'reread',
  'platformTerminal',
  'executed',
  'failed',
  'reconciled',
  'restart',
];

export type Effect =
  /** Queue an update for the platform (outbox). Progress-only updates may be superseded. */
  | { type: 'report'; state: CommandState; progress?: number; notes?: string }
  /** Drop every not-yet-sent update of this command. */
  | { type: 'dropReports' }
  /** Put the command in its device queue (at the front with `front`). */
  | { type: 'enqueue'; front?: boolean }
  /** Take the command out of its device queue if it is still waiting there. */
  | { type: 'dequeue' }
  | { type: 'reread' }
  | { type: 'execute'; attempt: number }
  /** Wait a backoff, then execute again (nothing reached the device). */
  | { type: 'retry'; attempt: number; retry: number }
  | { type: 'abort' }
  | { type: 'reconcile' };

export type Transition = { ok: true; state: MachineState; effects: Effect[] } | { ok: false; reason: string };

type Handler<E extends EventType> = (
  state: MachineState,
  event: Extract<MachineEvent, { type: E }>,
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

const queued = (): Row => ({
  accept: alreadyJournaled,
  invalid: alreadyJournaled,
  delivered: (s, e) =>
    s.phase === 'accepted' && e.state === 'Received' ? to(s, { phase: 'received' }) : stay(s),
  turn: (s) => to(s, { phase: 'starting' }, [{ type: 'reread' }]),
  reread: noReread,
  platformTerminal: (s, e) =>
    to(s, { phase: 'skipped', state: e.platformState }, [{ type: 'dropReports' }, { type: 'dequeue' }]),
  executed: notRunning,
  failed: notRunning,
  reconciled: notReconciling,
  restart: (s) => to(s, {}, [{ type: 'enqueue' }]),
});

const start = (s: MachineState): Transition => {
  const attempt = s.attempt + 1;
  const report: Effect[] =
    s.state === 'Processing' ? [] : [{ type: 'report', state: 'Processing', progress: 0 }];
  return to(s, { phase: 'running', attempt, state: 'Processing' }, [...report, { type: 'execute', attempt }]);
};

const finishWith = (s: MachineState, state: 'Processed' | 'Error', notes: string): Transition =>
  to(s, { phase: 'finished', state }, [{ type: 'report', state, notes }]);

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
    platformTerminal: notJournaled,
    executed: notJournaled,
    failed: notJournaled,
    reconciled: notJournaled,
    restart: notJournaled,
  },
  accepted: queued(),
  received: queued(),
  starting: {
    accept: alreadyJournaled,
    invalid: alreadyJournaled,
    delivered: stay,
    turn: reject('the command already has its turn'),
    reread: (s, e) =>
      e.verdict === 'proceed'
        ? start(s)
        : to(s, { phase: 'skipped', state: e.platformState ?? 'Cancelled' }, [{ type: 'dropReports' }]),
    platformTerminal: (s, e) =>
      to(s, { phase: 'skipped', state: e.platformState }, [{ type: 'dropReports' }]),
    executed: notRunning,
    failed: notRunning,
    reconciled: notReconciling,
    // Nothing reached the device before the re-read: queue it again (it is re-read again).
    restart: (s) => to(s, { phase: 'accepted' }, [{ type: 'enqueue' }]),
  },
  running: {
    accept: alreadyJournaled,
    invalid: alreadyJournaled,
    delivered: stay,
    turn: reject('the command is already running'),
    reread: noReread,
    platformTerminal: (s, e) => to(s, { phase: 'cancelling', state: e.platformState }, [{ type: 'abort' }]),
    executed: (s, e) => finishWith(s, 'Processed', e.result.notes),
    failed: (s, e) => {
      const retry =
        RETRYABLE_DEVICE_CODES.includes(e.error.code) &&
        !e.sideEffectPossible &&
        e.retriesUsed < e.maxRetries;
      if (retry) {
        const attempt = s.attempt + 1;
        return to(s, { attempt }, [{ type: 'retry', attempt, retry: e.retriesUsed + 1 }]);
      }
      return finishWith(s, 'Error', errorNotes(e.error));
    },
    reconciled: notReconciling,
    restart: (s) => to(s, { phase: 'reconciling' }, [{ type: 'enqueue', front: true }]),
  },
  cancelling: {
    accept: alreadyJournaled,
    invalid: alreadyJournaled,
    delivered: stay,
    turn: reject('the command is already running'),
    reread: noReread,
    platformTerminal: stay,
    // The side effect had already happened: keep the real outcome, tell the platform nothing
    // (it has the command terminal and would refuse the update).
    executed: (s) => to(s, { phase: 'closed' }, [{ type: 'dropReports' }]),
    failed: (s) => to(s, { phase: 'cancelled' }, [{ type: 'dropReports' }]),
    reconciled: notReconciling,
    restart: (s) => to(s, { phase: 'reconciling' }, [{ type: 'enqueue', front: true }]),
  },
  reconciling: {
    accept: alreadyJournaled,
    invalid: alreadyJournaled,
    delivered: stay,
    turn: (s) => to(s, {}, [{ type: 'reconcile' }]),
    reread: noReread,
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
    restart: (s) => to(s, {}, [{ type: 'enqueue', front: true }]),
  },
  finished: {
    accept: alreadyJournaled,
    invalid: alreadyJournaled,
    delivered: (s, e) => (e.state === s.state ? to(s, { phase: 'closed' }) : stay(s)),
    turn: reject('the command has finished'),
    reread: noReread,
    platformTerminal: (s, e) => to(s, { phase: 'closed', state: e.platformState }, [{ type: 'dropReports' }]),
    executed: notRunning,
    failed: notRunning,
    reconciled: notReconciling,
    // The outbox still holds its result and delivers it.
    restart: stay,
  },
  skipped: terminalRow(),
  cancelled: terminalRow(),
  closed: terminalRow(),
};

function terminalRow(): Row {
  return {
    accept: alreadyJournaled,
    invalid: alreadyJournaled,
    // A late confirmation of an earlier update, or the platform repeating what it has: harmless.
    delivered: stay,
    turn: terminal,
    reread: terminal,
    platformTerminal: stay,
    executed: terminal,
    failed: terminal,
    reconciled: terminal,
    restart: reject('terminal commands are not recovered'),
  };
}

/** The state of a command the journal has never seen. */
export const INITIAL_STATE: MachineState = { phase: 'new', attempt: 0, state: 'Pending' };

/** Applies one event. Never throws; an impossible pair comes back as `{ok: false, reason}`. */
export function transition(state: MachineState, event: MachineEvent): Transition {
  const cell = TABLE[state.phase][event.type] as Cell<EventType>;
  if ('rejected' in cell) return { ok: false, reason: `${event.type} in ${state.phase}: ${cell.rejected}` };
  return (cell as Handler<EventType>)(state, event);
}

/** Whether the table defines the pair (for the completeness test and diagnostics). */
export function cellOf(phase: Phase, type: EventType): 'handler' | 'rejected' {
  const cell = TABLE[phase][type];
  return 'rejected' in cell ? 'rejected' : 'handler';
}

export function isTerminalPhase(phase: Phase): boolean {
  return TERMINAL_PHASES.includes(phase);
}
