import { describe, expect, it } from 'vitest';
import {
  cellOf,
  EVENT_TYPES,
  type MachineEvent,
  type MachineState,
  PHASES,
  type Phase,
  transition,
} from '../../../src/commands/rules/machine.js';
import type { SerializedError } from '../../../src/errors.js';
import { textMessage } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';

const busy: SerializedError = {
  code: 'DEVICE_BUSY',
  message: 'encoder busy',
  notes: textMessage('busy'),
  retryable: true,
};
const paper: SerializedError = {
  code: 'PAPER_OUT',
  message: 'paper end',
  notes: textMessage('Replace the roll.'),
  retryable: false,
};
const invalid: SerializedError = {
  code: 'COMMAND_INVALID',
  message: 'Malformed key-cutter command: KeyCount: expected number',
  notes: textMessage(
    'The command from the platform is incomplete or malformed; nothing was done. Create it again.',
  ),
  retryable: false,
};
const unreachable: SerializedError = {
  code: 'PLATFORM_UNREACHABLE',
  message: 'connect ECONNREFUSED',
  notes: textMessage('unreachable'),
  retryable: true,
};
const refusedTokens: SerializedError = {
  code: 'PLATFORM_AUTH',
  message: '401',
  notes: textMessage('tokens'),
  retryable: false,
};
const unreachableDevice: SerializedError = {
  code: 'DEVICE_UNAVAILABLE',
  message: 'no route to printer',
  notes: textMessage('unreachable'),
  retryable: true,
};
const aborted: SerializedError = {
  code: 'ABORTED',
  message: 'shutdown',
  notes: textMessage('stopped'),
  retryable: false,
};
const result = { notes: textMessage('Receipt 0012-0034 printed'), details: { z: 12, doc: 34 } };

const ev = {
  accept: { type: 'accept', platformState: 'Pending' },
  acceptReceived: { type: 'accept', platformState: 'Received' },
  invalid: { type: 'invalid', platformState: 'Pending', error: invalid },
  deliveredReceived: { type: 'delivered', state: 'Received' },
  deliveredProcessed: { type: 'delivered', state: 'Processed' },
  turn: { type: 'turn' },
  proceed: { type: 'reread', verdict: 'proceed' },
  skipCancelled: { type: 'reread', verdict: 'skip', platformState: 'Cancelled' },
  skipGone: { type: 'reread', verdict: 'skip' },
  hold: { type: 'reread', verdict: 'hold', platformState: 'Postponed', holds: 0 },
  cancelled: { type: 'platformTerminal', platformState: 'Cancelled' },
  executed: { type: 'executed', result },
  failedPaper: { type: 'failed', error: paper, sideEffectPossible: true, retriesUsed: 0 },
  failedBusy: { type: 'failed', error: busy, sideEffectPossible: false, retriesUsed: 0 },
  failedBusyAfterSend: {
    type: 'failed',
    error: busy,
    sideEffectPossible: true,
    retriesUsed: 0,
  },
  failedBusyExhausted: {
    type: 'failed',
    error: busy,
    sideEffectPossible: false,
    retriesUsed: 3,
  },
  failedAborted: { type: 'failed', error: aborted, sideEffectPossible: false, retriesUsed: 0 },
  done: { type: 'reconciled', outcome: 'done', result },
  notDone: { type: 'reconciled', outcome: 'not-done' },
  recFailed: { type: 'reconciled', outcome: 'failed', error: paper },
  unknown: { type: 'reconciled', outcome: 'unknown', reason: textMessage('printer unreachable') },
  restart: { type: 'restart' },
  rereadFailed: { type: 'rereadFailed', error: unreachable, failures: 0 },
  rereadRefused: { type: 'rereadFailed', error: refusedTokens, failures: 4 },
  reconcileFailed: { type: 'reconcileFailed', error: unreachableDevice, retriesUsed: 0 },
  reconcileFailedLast: { type: 'reconcileFailed', error: unreachableDevice, retriesUsed: 3 },
  reconcileFailedHard: { type: 'reconcileFailed', error: paper, retriesUsed: 0 },
} satisfies Record<string, MachineEvent>;

type Expect = 'rejected' | { phase: Phase; state?: string; attempt?: number; effects: string[] };
const R = 'rejected' as const;

/** The lifecycle, pair by pair. `effects` lists effect types (report:<State> for reports). */
const TABLE: Array<[Phase, MachineEvent, Expect]> = [
  ['new', ev.accept, { phase: 'accepted', state: 'Received', effects: ['report:Received', 'enqueue'] }],
  ['new', ev.acceptReceived, { phase: 'received', state: 'Received', effects: ['enqueue'] }],
  ['new', ev.invalid, { phase: 'finished', state: 'Error', effects: ['report:Received', 'report:Error'] }],
  ['new', ev.deliveredReceived, R],
  ['new', ev.turn, R],
  ['new', ev.proceed, R],
  ['new', ev.cancelled, R],
  ['new', ev.executed, R],
  ['new', ev.failedPaper, R],
  ['new', ev.done, R],
  ['new', ev.restart, R],
  ['new', ev.rereadFailed, R],
  ['new', ev.reconcileFailed, R],

  ['accepted', ev.accept, R],
  ['accepted', ev.invalid, R],
  ['accepted', ev.deliveredReceived, { phase: 'received', effects: [] }],
  ['accepted', ev.deliveredProcessed, { phase: 'accepted', effects: [] }],
  ['accepted', ev.turn, { phase: 'starting', effects: ['reread'] }],
  ['accepted', ev.proceed, R],
  ['accepted', ev.cancelled, { phase: 'skipped', state: 'Cancelled', effects: ['dropReports', 'dequeue'] }],
  ['accepted', ev.executed, R],
  ['accepted', ev.failedPaper, R],
  ['accepted', ev.done, R],
  ['accepted', ev.restart, { phase: 'accepted', effects: ['enqueue'] }],
  ['accepted', ev.rereadFailed, R],
  ['accepted', ev.reconcileFailed, R],

  ['received', ev.accept, R],
  ['received', ev.invalid, R],
  ['received', ev.deliveredReceived, { phase: 'received', effects: [] }],
  ['received', ev.turn, { phase: 'starting', effects: ['reread'] }],
  ['received', ev.proceed, R],
  ['received', ev.cancelled, { phase: 'skipped', state: 'Cancelled', effects: ['dropReports', 'dequeue'] }],
  ['received', ev.executed, R],
  ['received', ev.failedPaper, R],
  ['received', ev.done, R],
  ['received', ev.restart, { phase: 'received', effects: ['enqueue'] }],
  ['received', ev.rereadFailed, R],
  ['received', ev.reconcileFailed, R],

  ['starting', ev.accept, R],
  ['starting', ev.invalid, R],
  ['starting', ev.deliveredReceived, { phase: 'starting', effects: [] }],
  ['starting', ev.turn, R],
  [
    'starting',
    ev.proceed,
    { phase: 'running', state: 'Processing', attempt: 1, effects: ['report:Processing', 'execute'] },
  ],
  ['starting', ev.skipCancelled, { phase: 'skipped', state: 'Cancelled', effects: ['dropReports'] }],
  ['starting', ev.skipGone, { phase: 'skipped', state: 'Cancelled', effects: ['dropReports'] }],
  ['starting', ev.hold, { phase: 'starting', effects: ['hold'] }],
  ['starting', ev.cancelled, { phase: 'skipped', state: 'Cancelled', effects: ['dropReports'] }],
  ['starting', ev.executed, R],
  ['starting', ev.failedPaper, R],
  ['starting', ev.done, R],
  ['starting', ev.restart, { phase: 'accepted', effects: ['enqueue'] }],
  ['starting', ev.rereadFailed, { phase: 'starting', effects: ['reread'] }],
  ['starting', ev.rereadRefused, { phase: 'starting', effects: ['reread'] }],
  ['starting', ev.reconcileFailed, R],

  ['running', ev.accept, R],
  ['running', ev.invalid, R],
  ['running', ev.deliveredReceived, { phase: 'running', effects: [] }],
  ['running', ev.turn, R],
  ['running', ev.proceed, R],
  ['running', ev.cancelled, { phase: 'cancelling', state: 'Cancelled', effects: ['abort', 'dropReports'] }],
  ['running', ev.executed, { phase: 'finished', state: 'Processed', effects: ['report:Processed'] }],
  ['running', ev.failedPaper, { phase: 'finished', state: 'Error', effects: ['report:Error'] }],
  ['running', ev.failedBusy, { phase: 'running', attempt: 2, effects: ['retry'] }],
  ['running', ev.failedBusyAfterSend, { phase: 'finished', state: 'Error', effects: ['report:Error'] }],
  ['running', ev.failedBusyExhausted, { phase: 'finished', state: 'Error', effects: ['report:Error'] }],
  ['running', ev.failedAborted, { phase: 'finished', state: 'Error', effects: ['report:Error'] }],
  ['running', ev.done, R],
  ['running', ev.restart, { phase: 'reconciling', effects: ['enqueue'] }],
  ['running', ev.rereadFailed, R],
  ['running', ev.reconcileFailed, R],

  ['cancelling', ev.accept, R],
  ['cancelling', ev.invalid, R],
  ['cancelling', ev.deliveredReceived, { phase: 'cancelling', effects: [] }],
  ['cancelling', ev.turn, R],
  ['cancelling', ev.proceed, R],
  ['cancelling', ev.cancelled, { phase: 'cancelling', effects: [] }],
  ['cancelling', ev.executed, { phase: 'closed', effects: [] }],
  ['cancelling', ev.failedAborted, { phase: 'cancelled', state: 'Cancelled', effects: [] }],
  ['cancelling', ev.done, R],
  ['cancelling', ev.restart, { phase: 'reconciling', effects: ['enqueue'] }],
  ['cancelling', ev.rereadFailed, R],
  ['cancelling', ev.reconcileFailed, R],

  ['reconciling', ev.accept, R],
  ['reconciling', ev.invalid, R],
  ['reconciling', ev.deliveredReceived, { phase: 'reconciling', effects: [] }],
  ['reconciling', ev.turn, { phase: 'reconciling', effects: ['reconcile'] }],
  ['reconciling', ev.proceed, R],
  ['reconciling', ev.cancelled, { phase: 'reconciling', effects: [] }],
  ['reconciling', ev.executed, R],
  ['reconciling', ev.failedPaper, R],
  ['reconciling', ev.done, { phase: 'finished', state: 'Processed', effects: ['report:Processed'] }],
  ['reconciling', ev.notDone, { phase: 'starting', effects: ['reread'] }],
  ['reconciling', ev.recFailed, { phase: 'finished', state: 'Error', effects: ['report:Error'] }],
  ['reconciling', ev.unknown, { phase: 'finished', state: 'Error', effects: ['report:Error'] }],
  ['reconciling', ev.restart, { phase: 'reconciling', effects: ['enqueue'] }],
  ['reconciling', ev.rereadFailed, R],
  ['reconciling', ev.reconcileFailed, { phase: 'reconciling', effects: ['reconcile'] }],
  ['reconciling', ev.reconcileFailedLast, { phase: 'finished', state: 'Error', effects: ['report:Error'] }],
  ['reconciling', ev.reconcileFailedHard, { phase: 'finished', state: 'Error', effects: ['report:Error'] }],

  ['finished', ev.accept, R],
  ['finished', ev.invalid, R],
  ['finished', ev.deliveredReceived, { phase: 'finished', effects: [] }],
  ['finished', ev.deliveredProcessed, { phase: 'closed', effects: [] }],
  ['finished', ev.turn, R],
  ['finished', ev.proceed, R],
  ['finished', ev.cancelled, { phase: 'closed', state: 'Cancelled', effects: ['dropReports'] }],
  ['finished', ev.executed, R],
  ['finished', ev.failedPaper, R],
  ['finished', ev.done, R],
  ['finished', ev.restart, { phase: 'finished', effects: [] }],
  ['finished', ev.rereadFailed, R],
  ['finished', ev.reconcileFailed, R],

  ...(['skipped', 'cancelled', 'closed'] as const).flatMap(
    (phase): Array<[Phase, MachineEvent, Expect]> => [
      [phase, ev.accept, R],
      [phase, ev.invalid, R],
      [phase, ev.deliveredReceived, { phase, effects: [] }],
      [phase, ev.turn, R],
      [phase, ev.proceed, R],
      [phase, ev.cancelled, { phase, effects: [] }],
      [phase, ev.executed, R],
      [phase, ev.failedPaper, R],
      [phase, ev.done, R],
      [phase, ev.restart, R],
      [phase, ev.rereadFailed, R],
      [phase, ev.reconcileFailed, R],
    ],
  ),
];

/** A plausible state for each phase: Processing once started, Processed once finished. */
function stateIn(phase: Phase): MachineState {
  const started = ['running', 'cancelling', 'reconciling'].includes(phase);
  if (phase === 'new') return { phase, attempt: 0, state: 'Pending' };
  if (phase === 'finished' || phase === 'closed') return { phase, attempt: 1, state: 'Processed' };
  if (phase === 'cancelling') return { phase, attempt: 1, state: 'Cancelled' };
  return { phase, attempt: started ? 1 : 0, state: started ? 'Processing' : 'Received' };
}

describe('command state machine', () => {
  it.each(TABLE.map(([phase, event, expected]) => [phase, JSON.stringify(event), event, expected] as const))(
    '%s + %s',
    (phase, _label, event, expected) => {
      const out = transition(stateIn(phase), event);
      if (expected === 'rejected') {
        expect(out.ok).toBe(false);
        return;
      }
      if (!out.ok) throw new Error(out.reason);
      expect(out.state.phase).toBe(expected.phase);
      if (expected.state) expect(out.state.state).toBe(expected.state);
      if (expected.attempt !== undefined) expect(out.state.attempt).toBe(expected.attempt);
      expect(out.effects.map((e) => (e.type === 'report' ? `report:${e.state}` : e.type))).toEqual(
        expected.effects,
      );
    },
  );

  it('is complete: every (phase, event) pair is in the table and matches a handler or a rejection', () => {
    const covered = new Map<string, boolean>();
    for (const [phase, event, expected] of TABLE) {
      const key = `${phase}/${event.type}`;
      const rejected = expected === 'rejected';
      if (covered.has(key)) expect(covered.get(key), `${key} is both rejected and defined`).toBe(rejected);
      covered.set(key, rejected);
    }
    for (const phase of PHASES) {
      for (const type of EVENT_TYPES) {
        const key = `${phase}/${type}`;
        expect(covered.has(key), `${key} is missing from the table`).toBe(true);
        expect(cellOf(phase, type) === 'rejected', `${key} disagrees with the machine`).toBe(
          covered.get(key),
        );
      }
    }
  });

  it('rejections say which pair and why, and never throw', () => {
    const out = transition(stateIn('closed'), ev.turn);
    expect(out).toEqual({ ok: false, reason: 'turn in closed: the command is terminal' });
  });

  it('reports Processing only once across a not-done re-run', () => {
    const rec = transition({ phase: 'reconciling', attempt: 1, state: 'Processing' }, ev.notDone);
    if (!rec.ok) throw new Error(rec.reason);
    const rerun = transition(rec.state, ev.proceed);
    if (!rerun.ok) throw new Error(rerun.reason);
    expect(rerun.state).toEqual({ phase: 'running', attempt: 2, state: 'Processing' });
    expect(rerun.effects).toEqual([{ type: 'execute', attempt: 2 }]);
  });

  it('puts the outcome into Notes: the driver result, or the error sentence with its code', () => {
    const ok = transition(stateIn('running'), ev.executed);
    const failed = transition(stateIn('running'), ev.failedPaper);
    const unknown = transition(stateIn('reconciling'), ev.unknown);
    const bad = transition(stateIn('new'), ev.invalid);
    const notes = (t: typeof ok) =>
      t.ok ? t.effects.flatMap((e) => (e.type === 'report' && e.notes ? [english(e.notes)] : [])) : [];
    expect(notes(ok)).toEqual(['Receipt 0012-0034 printed']);
    expect(notes(failed)).toEqual(['Replace the roll. (PAPER_OUT: paper end)']);
    expect(notes(unknown)[0]).toMatch(
      /check the device before trying again.*STATE_UNKNOWN: printer unreachable/,
    );
    expect(notes(bad)[0]).toMatch(
      /nothing was done.*COMMAND_INVALID: Malformed key-cutter command: KeyCount/,
    );
  });

  it('retries a busy device with increasing attempt numbers, never after a possible side effect', () => {
    const first = transition(stateIn('running'), ev.failedBusy);
    expect(first.ok && first.effects).toEqual([{ type: 'retry', attempt: 2, retry: 1, delayMs: 2000 }]);
    const after = transition(stateIn('running'), ev.failedBusyAfterSend);
    expect(after.ok && after.state.phase).toBe('finished');
  });

  it('decides every retry delay: device retries double, a re-read backs off to its ceiling, PLATFORM_AUTH waits long', () => {
    const delays = [0, 1, 2].map((retriesUsed) => {
      const t = transition(stateIn('running'), { ...ev.failedBusy, retriesUsed });
      return t.ok ? t.effects : [];
    });
    expect(delays).toEqual([
      [{ type: 'retry', attempt: 2, retry: 1, delayMs: 2000 }],
      [{ type: 'retry', attempt: 2, retry: 2, delayMs: 4000 }],
      [{ type: 'retry', attempt: 2, retry: 3, delayMs: 8000 }],
    ]);
    const reread = (event: MachineEvent) => {
      const t = transition(stateIn('starting'), event);
      return t.ok ? t.effects : [];
    };
    expect(reread(ev.rereadFailed)).toEqual([{ type: 'reread', retry: 1, delayMs: 1000 }]);
    expect(reread({ ...ev.rereadFailed, failures: 10 })).toEqual([
      { type: 'reread', retry: 11, delayMs: 30_000 },
    ]);
    expect(reread(ev.rereadRefused)).toEqual([{ type: 'reread', retry: 5, delayMs: 300_000 }]);
    expect(reread({ ...ev.hold, holds: 2 })).toEqual([
      { type: 'hold', platformState: 'Postponed', retry: 3, delayMs: 4000 },
    ]);
    const policy = {
      device: { maxRetries: 1, delay: { minMs: 10, maxMs: 15 } },
      reread: { delay: { minMs: 5, maxMs: 5 }, authPauseMs: 7 },
    };
    const first = transition(stateIn('reconciling'), ev.reconcileFailed, policy);
    expect(first.ok && first.effects).toEqual([{ type: 'reconcile', retry: 1, delayMs: 10 }]);
    const last = transition(stateIn('reconciling'), { ...ev.reconcileFailed, retriesUsed: 1 }, policy);
    expect(last.ok && last.state.phase).toBe('finished');
  });

  it('ends a reconcile it cannot ask as unknown, saying why, never as not done', () => {
    const t = transition(stateIn('reconciling'), ev.reconcileFailedLast);
    if (!t.ok) throw new Error(t.reason);
    const notes = t.effects.flatMap((e) => (e.type === 'report' && e.notes ? [english(e.notes)] : []));
    expect(notes[0]).toMatch(
      /check the device before trying again.*STATE_UNKNOWN: the device could not be asked \(DEVICE_UNAVAILABLE: no route to printer\)/,
    );
  });
});
