import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src/platform-simulator/index.js';
import type { TraceLine } from './http-trace.js';
import {
  errorCode,
  keyProblems,
  ledgerCards,
  type PrintedDoc,
  rtProblems,
  saltoCards,
  simFiscalProblems,
} from './invariants-devices.js';
import {
  exitProblems,
  platformStateProblems,
  readTrace,
  retryAfterProblems,
  tokenProblems,
} from './invariants-platform.js';
import type { PlannedCommand } from './plan.js';

/**
 * The campaign's judges, judged: each invariant accepts a clean record and names the command and
 * the invariant for a crafted violation. Without this, a campaign whose checks never fire would
 * pass forever.
 */

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function history(...steps: Array<[HistoryEntry['state'], number, string?]>): HistoryEntry[] {
  return steps.map(([state, ms, notes], i) => ({
    state,
    at: at(ms),
    by: i === 0 ? 'platform' : 'agent',
    ...(notes ? { notes } : {}),
  }));
}

function cmd(id: string, extra: Partial<PlannedCommand> = {}): PlannedCommand {
  return {
    id,
    kind: 'fiscal-payload',
    deviceId: 'dev',
    label: 'fiscal-payload on RT',
    owned: true,
    ...extra,
  };
}

const processed = (notes: string) =>
  history(['Pending', 0], ['Received', 100], ['Processing', 200], ['Processed', 900, notes]);
const failed = (notes: string) =>
  history(['Pending', 0], ['Received', 100], ['Processing', 200], ['Error', 900, notes]);

describe('platform invariants', () => {
  it('owned commands must end terminal with Notes; others must stay untouched', () => {
    const planned = [
      cmd('done'),
      cmd('stuck'),
      cmd('bare'),
      cmd('foreign', { owned: false, label: 'printer on Laser' }),
      cmd('left-alone', { owned: false }),
    ];
    const histories = new Map([
      ['done', processed('Receipt 0001-0001 on RT X')],
      ['stuck', history(['Pending', 0], ['Received', 100])],
      ['bare', history(['Pending', 0], ['Received', 100], ['Error', 200])],
      ['foreign', history(['Pending', 0], ['Received', 100])],
      ['left-alone', history(['Pending', 0])],
    ]);
    expect(platformStateProblems(planned, histories)).toEqual([
      '[owned commands end terminal] fiscal-payload on RT stuck is Received (Pending → Received)',
      '[results carry Notes] fiscal-payload on RT bare ended Error without Notes',
      '[never touch what is not ours] printer on Laser foreign was updated: Pending → Received',
    ]);
  });

  it('histories must not go backwards nor move after a terminal state', () => {
    const planned = [cmd('back')];
    const histories = new Map([
      [
        'back',
        history(
          ['Pending', 0],
          ['Processing', 100],
          ['Received', 200],
          ['Processed', 300, 'ok'],
          ['Error', 400, 'x'],
        ),
      ],
    ]);
    const problems = platformStateProblems(planned, histories);
    expect(
      problems.some((p) =>
        p.startsWith('[legal history] fiscal-payload on RT back: backwards Processing → Received'),
      ),
    ).toBe(true);
    expect(problems.some((p) => p.includes('update after terminal Processed: Error'))).toBe(true);
  });

  it('flags a request the daemon started after it noted a 429 and before Retry-After ran out, on its own clock', () => {
    const line = (
      pid: number,
      ms: number,
      kind: TraceLine['kind'],
      extra: Partial<TraceLine> = {},
    ): TraceLine => ({
      pid,
      t: T0 + ms,
      kind,
      ...extra,
    });
    const trace = [
      line(1, 0, 'limited', { operation: 'commands/update', requestId: 'r0', retryAfterSeconds: 2 }),
      line(1, 50, 'send', { operation: 'commands/getAllActive' }), // before it knew: on its way
      line(1, 60, 'noted', { requestId: 'r0' }),
      line(1, 1200, 'send', { operation: 'commands/update' }), // violation
      line(1, 2100, 'send', { operation: 'commands/update' }), // after the Retry-After
      line(2, 500, 'send', { operation: 'commands/getAllActive' }), // a new process cannot know
      line(3, 0, 'limited', { operation: 'commands/getAllActive', requestId: 'r9', retryAfterSeconds: 1 }),
      line(3, 5000, 'send', { operation: 'commands/getAllActive' }), // lived on, never noted it
      line(4, 0, 'limited', { operation: 'commands/update', requestId: 'r7', retryAfterSeconds: 1 }), // killed at once
    ];
    expect(retryAfterProblems(trace)).toEqual([
      '[no request during Retry-After] daemon 1 sent commands/update 1200 ms after a 429 (request r0, commands/update) that said Retry-After: 2, 1140 ms after it had noted it',
      '[no request during Retry-After] daemon 3 never logged the 429 it got for commands/getAllActive (request r9): cannot judge it',
    ]);
  });

  it('reads the trace the probe writes, skipping a line torn by kill -9', () => {
    const text = `${JSON.stringify({ pid: 1, t: T0, kind: 'send', operation: 'commands/update' })}\n{"pid":1,"t":`;
    expect(readTrace(text)).toEqual([{ pid: 1, t: T0, kind: 'send', operation: 'commands/update' }]);
  });

  it('finds a token in a log line without repeating it', () => {
    const problems = tokenProblems(['fine', 'leak SECRET-TOKEN-123 here'], ['SECRET-TOKEN-123']);
    expect(problems).toEqual([
      "[no token in the log] line 2 of the daemon's output carries a token (16 characters)",
    ]);
    expect(problems.join()).not.toContain('SECRET-TOKEN-123');
  });

  it('accepts only our kills and a final clean stop', () => {
    const kill = { code: null, signal: 'SIGKILL' as const };
    expect(exitProblems([kill, kill, { code: 0, signal: null }], 2)).toEqual([]);
    expect(exitProblems([kill, { code: 1, signal: null }, { code: 0, signal: null }], 1)).toEqual([
      '[exits only when killed] run 2 ended by itself (code 1, signal null)',
    ]);
    expect(exitProblems([kill, { code: null, signal: 'SIGKILL' }], 2)).toContain(
      '[exits only when killed] the final graceful stop ended with {"code":null,"signal":"SIGKILL"}, not code 0',
    );
  });
});

describe('device invariants', () => {
  it('reads the error code at the end of Error notes', () => {
    expect(errorCode('Paper is out (PAPER_OUT)')).toBe('PAPER_OUT');
    expect(errorCode('Check it (STATE_UNKNOWN: lost answer (twice))')).toBe('STATE_UNKNOWN');
    expect(errorCode('no code here')).toBeUndefined();
  });

  it('simulated RT: at most one receipt, Processed means printed, Error means not printed', () => {
    const planned = [cmd('twice'), cmd('ok'), cmd('silent'), cmd('unknown'), cmd('claimed-no-print')];
    const ledger = [
      { commandId: 'twice', action: 'receipt', facts: {} },
      { commandId: 'twice', action: 'receipt', facts: {} },
      { commandId: 'ok', action: 'receipt', facts: {} },
      { commandId: 'silent', action: 'receipt', facts: {} },
      { commandId: 'unknown', action: 'receipt', facts: {} },
      { commandId: 'stranger', action: 'receipt', facts: {} },
    ];
    const histories = new Map([
      ['twice', processed('Receipt 0001-0001')],
      ['ok', processed('Receipt 0001-0002')],
      ['silent', failed('Paper out (PAPER_OUT)')],
      ['unknown', failed('Check the printer (STATE_UNKNOWN: lost answer)')],
      ['claimed-no-print', processed('Receipt 0001-0009')],
    ]);
    expect(simFiscalProblems(planned, ledger, histories)).toEqual([
      '[no document without a command] a simulated RT printed for unknown command stranger',
      '[fiscal at most once] fiscal-payload on RT twice was printed 2 times',
      '[fiscal at most once] fiscal-payload on RT twice is Processed but was printed 2 times',
      '[fiscal outcome reported] fiscal-payload on RT silent was printed but reported Error: Paper out (PAPER_OUT)',
      '[fiscal at most once] fiscal-payload on RT claimed-no-print is Processed but was printed 0 times',
    ]);
  });

  it('Epson RT: documents are claimed once, exist, and unclaimed ones need an unknown-outcome report', () => {
    const doc = (z: number, n: number, atMs: number): PrintedDoc => ({
      kind: 'sale',
      z,
      doc: n,
      at: T0 + atMs,
      totalCents: 1250,
    });
    const planned = [cmd('a'), cmd('b'), cmd('c'), cmd('d')];
    const histories = new Map([
      ['a', processed('Receipt 0001-0001 on RT 99X, total 12.50 EUR')],
      ['b', processed('Receipt 0001-0001 on RT 99X, total 12.50 EUR')],
      ['c', processed('Receipt 0001-0007 on RT 99X')],
      ['d', failed('Out of paper (PAPER_OUT)')],
    ]);
    const printed = [doc(1, 1, 500), doc(1, 2, 600), { ...doc(1, 3, 0), kind: 'non-fiscal' }];
    const problems = rtProblems(planned, printed, histories);
    expect(problems[0]).toBe(
      '[fiscal at most once] fiscal-payload on RT b and fiscal-payload on RT a both claim receipt 0001-0001',
    );
    expect(problems[1]).toBe(
      '[fiscal outcome reported] fiscal-payload on RT c claims receipt 0001-0007, which the printer never emitted',
    );
    expect(problems[2]).toMatch(
      /^\[fiscal at most once\] the Epson RT printed 1 documents no command reports, but only 0 commands were reported with an unknown outcome \(none\): 0001-0002 \(12\.50 EUR; commands on the printer then: .*d \(Error\)/,
    );
    const resolved = new Map([...histories, ['d', failed('Check the printer (STATE_UNKNOWN: lost answer)')]]);
    expect(rtProblems([cmd('a'), cmd('d')], [doc(1, 1, 500), doc(1, 2, 600)], resolved)).toEqual([]);
  });

  it('keys: exact cards when Processed, cut cards reported otherwise, never more than asked in silence', () => {
    const keys = (id: string, keyCount: number) =>
      cmd(id, { kind: 'keys', label: 'keys on Encoder', keyCount });
    const planned = [keys('exact', 2), keys('short', 3), keys('twice', 2), keys('told', 3), keys('quiet', 3)];
    const cards = new Map([
      ['exact', 2],
      ['short', 2],
      ['twice', 4],
      ['told', 1],
      ['quiet', 1],
      ['ghost', 1],
    ]);
    const histories = new Map([
      ['exact', processed('2 keys for room 101')],
      ['short', processed('3 keys for room 101')],
      ['twice', processed('2 keys for room 101')],
      ['told', failed('Encoder offline. 1 of 3 keys was cut before this. (DEVICE_UNAVAILABLE)')],
      ['quiet', failed('Encoder offline (DEVICE_UNAVAILABLE)')],
    ]);
    expect(keyProblems(planned, cards, histories, 'Encoder')).toEqual([
      '[no card without a command] Encoder cut 1 cards for unknown command ghost',
      '[keys exactly once] keys on Encoder short is Processed with 2 cards cut for 3 keys',
      '[keys exactly once] keys on Encoder twice is Processed with 4 cards cut for 2 keys',
      '[keys exactly once] keys on Encoder twice cut 4 cards for 2 keys and ended Processed',
      '[cut keys are reported] keys on Encoder quiet ended Error with 1 of 3 cards cut, and its Notes do not say so: Encoder offline (DEVICE_UNAVAILABLE)',
    ]);
  });

  it('counts cards per command from ledgers and from the print line naming the reservation', () => {
    expect(
      ledgerCards([
        { commandId: 'k1', action: 'card', facts: {} },
        { commandId: 'k1', action: 'card', facts: {} },
        { commandId: 'r1', action: 'receipt', facts: {} },
      ]),
    ).toEqual(new Map([['k1', 2]]));
    const planned = [cmd('salto-1', { kind: 'keys', reservationNumber: '4711' })];
    const written = [
      { printLines: ['Ann Smith', 'Res. 4711', '21/11 - 23/11'], at: T0 },
      { printLines: ['Bob', 'Res. 9999', ''], at: T0 },
    ];
    expect(saltoCards(planned, written)).toEqual(
      new Map([
        ['salto-1', 1],
        ['unknown:Res. 9999', 1],
      ]),
    );
  });
});
