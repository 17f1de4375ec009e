import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { type Journal, openJournal } from '../../../src/commands/journal/journal.js';
import { StartCheck } from '../../../src/commands/run/start-check.js';
import { normalizeCommand, normalizeFiscalMachineCommand } from '../../../src/connector/model.js';
import { AgentError } from '../../../src/errors.js';
import { letPendingWorkRun } from '../../helpers/pending-work.js';
import { fiscalCommand, keyCommand, wireFiscalCommand, wireKeyCommand } from '../helpers/commands.js';
import { FakePlatform } from '../helpers/fake-platform.js';

const T = Date.parse('2026-01-01T00:00:10Z');

function setup() {
  const clock = new ManualClock(T);
  const platform = new FakePlatform(() => clock.now());
  const journal: Journal = openJournal(':memory:', { now: () => clock.now() });
  const waiting: string[] = [];
  const life = new AbortController();
  const check = new StartCheck({
    reread: { connector: platform, journal },
    clock,
    freshMs: 1000,
    socketTrustMs: 60_000,
    waiting: () => waiting,
    signal: life.signal,
  });
  /** Journals a command of ours (accepted, Received) and puts it on the platform. */
  const add = (id: string, kind: 'keys' | 'fiscal' = 'keys') => {
    const command = kind === 'keys' ? keyCommand({ id }) : fiscalCommand({ id });
    platform.add(
      kind === 'keys' ? { wire: wireKeyCommand({ id }) } : { fiscalWire: wireFiscalCommand({ id }) },
    );
    journal.insert(
      {
        id,
        deviceId: command.device.id,
        deviceName: command.device.name,
        deviceType: command.device.type,
        kind: command.data.kind,
        source: command.source,
        command,
        createdUtc: command.createdUtc,
        seenAt: clock.now(),
      },
      {
        machine: { phase: 'accepted', state: 'Received', attempt: 0 },
        at: clock.now(),
        reported: ['Received'],
      },
    );
    return id;
  };
  const record = (id: string) => {
    const r = journal.get(id);
    if (!r) throw new Error(`no record ${id}`);
    return r;
  };
  const reads = () => platform.requests.filter((r) => r.operation !== 'updateCommand');
  const signal = new AbortController().signal;
  /** The command's turn: it leaves the waiting list, and the check runs. */
  const turn = (id: string) => {
    const at = waiting.indexOf(id);
    if (at >= 0) waiting.splice(at, 1);
    return check.check(record(id), signal);
  };
  /** Lets a read-ahead that was set off in this tick run. */
  const settle = letPendingWorkRun;
  return { clock, platform, journal, waiting, check, add, record, reads, signal, life, turn, settle };
}

const normalizeFiscal = (id: string) =>
  normalizeFiscalMachineCommand(wireFiscalCommand({ id, state: 'Received' }));

let open: Journal[] = [];
afterEach(() => {
  for (const j of open) j.close();
  open = [];
});

describe('the check before a command starts', () => {
  it('asks nothing when discovery saw the command active less than freshMs ago', async () => {
    const t = setup();
    open.push(t.journal);
    t.add('k1');
    t.check.saw(normalizeCommand(wireKeyCommand({ id: 'k1', state: 'Received' })));
    await t.clock.advance(1000);
    const verdict = await t.check.check(t.record('k1'), t.signal);
    expect(verdict).toMatchObject({ verdict: 'proceed', visible: true, command: { id: 'k1' } });
    expect(t.reads()).toEqual([]);
  });

  it('reads a stale command together with every waiting command of its source, once for all of them', async () => {
    const t = setup();
    open.push(t.journal);
    for (const id of ['k1', 'k2', 'k3']) t.add(id);
    t.add('f1', 'fiscal');
    t.waiting.push('k2', 'f1', 'k3');
    t.platform.setState('k3', 'Cancelled');
    expect(await t.turn('k1')).toMatchObject({ verdict: 'proceed' });
    // At the budget's first priority: the read unblocks devices.
    expect(t.reads()).toEqual([{ operation: 'commandsByIds', ids: ['k1', 'k2', 'k3'], priority: 'result' }]);
    // Their turns come within half of freshMs: the same answer serves them, nothing more is read.
    await t.clock.advance(400);
    expect(await t.turn('k2')).toMatchObject({ verdict: 'proceed' });
    expect(await t.turn('k3')).toEqual({ verdict: 'skip' });
    await t.settle();
    expect(t.reads()).toHaveLength(1);
    // The fiscal one is read through its own operation, by id.
    expect(await t.turn('f1')).toMatchObject({ verdict: 'proceed' });
    expect(t.reads().at(-1)).toMatchObject({ operation: 'fiscalCommands', ids: ['f1'] });
  });

  it('shares one read between checks that start in the same tick', async () => {
    const t = setup();
    open.push(t.journal);
    const ids = ['k1', 'k2', 'k3'].map((id) => t.add(id));
    const verdicts = await Promise.all(ids.map((id) => t.check.check(t.record(id), t.signal)));
    expect(verdicts.map((v) => v.verdict)).toEqual(['proceed', 'proceed', 'proceed']);
    expect(t.reads()).toEqual([{ operation: 'commandsByIds', ids, priority: 'result' }]);
  });

  it('answers at once from a fresh sighting, and says so when only a read can tell', async () => {
    const t = setup();
    open.push(t.journal);
    t.add('k1');
    t.add('k2');
    t.check.saw(normalizeCommand(wireKeyCommand({ id: 'k1', state: 'Received' })));
    expect(t.check.answerNow(t.record('k1'))).toMatchObject({ verdict: 'proceed', command: { id: 'k1' } });
    // The sighting is used up; k2 was never seen.
    expect(t.check.answerNow(t.record('k1'))).toBeUndefined();
    expect(t.check.answerNow(t.record('k2'))).toBeUndefined();
    expect(t.reads()).toEqual([]);
  });

  it('reads the waiting commands ahead, once their sightings are half stale, so the next turns do not wait', async () => {
    const t = setup();
    open.push(t.journal);
    const ids = ['k1', 'k2', 'k3', 'k4'].map((id) => t.add(id));
    t.waiting.push(...ids);
    // A poll saw them all.
    for (const id of ids) t.check.saw(normalizeCommand(wireKeyCommand({ id, state: 'Received' })));
    await t.clock.advance(200);
    expect(await t.turn('k1')).toMatchObject({ verdict: 'proceed' });
    await t.settle();
    expect(t.reads()).toEqual([]);
    // Half of freshMs: the turn is answered from the sighting, and the rest are read in the background.
    await t.clock.advance(300);
    t.platform.setState('k4', 'Cancelled');
    expect(await t.turn('k2')).toMatchObject({ verdict: 'proceed' });
    await t.settle();
    expect(t.reads()).toEqual([{ operation: 'commandsByIds', ids: ['k3', 'k4'], priority: 'result' }]);
    // Past the first sightings' freshness the later turns are answered without waiting.
    await t.clock.advance(900);
    expect(t.check.answerNow(t.record('k3'))).toMatchObject({ verdict: 'proceed' });
    t.waiting.splice(0, 1);
    expect(await t.turn('k4')).toEqual({ verdict: 'skip' });
    expect(t.reads()).toHaveLength(1);
  });

  it('asks a vouching source for its listing instead of reading the waiting commands by id', async () => {
    const t = setup();
    open.push(t.journal);
    const ids = ['f1', 'f2', 'f3'].map((id) => t.add(id, 'fiscal'));
    t.waiting.push(...ids);
    for (const id of ids) t.check.saw(normalizeFiscal(id));
    // The fiscal poll's window: it vouches for every sighting it can, as of its answer.
    const asked: boolean[] = [];
    let vouches = true;
    t.check.vouchedBy('fiscalMachineCommands', async (onlyIfDue) => {
      asked.push(onlyIfDue);
      if (vouches) t.check.unchangedSince('fiscalMachineCommands', T, t.clock.now(), new Set());
    });
    // Half stale: the turn is answered, and the read-ahead asks for the listing when it is due.
    await t.clock.advance(600);
    expect(await t.turn('f1')).toMatchObject({ verdict: 'proceed' });
    await t.settle();
    expect(asked).toEqual([true]);
    // Stale: the turn waits for the listing, not for a read.
    await t.clock.advance(1100);
    expect(await t.turn('f2')).toMatchObject({ verdict: 'proceed' });
    expect(asked).toEqual([true, false]);
    expect(t.reads()).toEqual([]);
    // A listing that could not vouch (the platform failed it): the command is read by id.
    vouches = false;
    await t.clock.advance(1500);
    expect(await t.turn('f3')).toMatchObject({ verdict: 'proceed' });
    expect(t.reads()).toEqual([
      expect.objectContaining({ operation: 'fiscalCommands', ids: ['f3'], priority: 'result' }),
    ]);
  });

  it('reads nothing ahead while an open WebSocket vouches for the sightings', async () => {
    const t = setup();
    open.push(t.journal);
    const ids = ['k1', 'k2'].map((id) => t.add(id));
    t.waiting.push(...ids);
    t.check.socketOpened();
    for (const id of ids) t.check.saw(normalizeCommand(wireKeyCommand({ id, state: 'Received' })));
    await t.clock.advance(5000);
    expect(await t.turn('k1')).toMatchObject({ verdict: 'proceed' });
    await t.settle();
    expect(t.reads()).toEqual([]);
  });

  it('trusts a sighting while the WebSocket stays open, up to socketTrustMs, and not across a drop', async () => {
    const t = setup();
    open.push(t.journal);
    t.add('k1');
    t.add('k2');
    t.check.socketOpened();
    for (const id of ['k1', 'k2']) t.check.saw(normalizeCommand(wireKeyCommand({ id, state: 'Received' })));
    await t.clock.advance(59_000);
    expect(await t.check.check(t.record('k1'), t.signal)).toMatchObject({ verdict: 'proceed' });
    expect(t.reads()).toHaveLength(0);
    t.check.socketClosed();
    t.check.socketOpened();
    expect(await t.check.check(t.record('k2'), t.signal)).toMatchObject({ verdict: 'proceed' });
    expect(t.reads()).toHaveLength(1);
    // Past socketTrustMs even an unbroken socket does not answer.
    t.check.saw(normalizeCommand(wireKeyCommand({ id: 'k2', state: 'Received' })));
    await t.clock.advance(60_001);
    await t.check.check(t.record('k2'), t.signal);
    expect(t.reads()).toHaveLength(2);
  });

  it('drops what was seen of commands a complete listing no longer shows, and what an event makes unclear', async () => {
    const t = setup();
    open.push(t.journal);
    for (const id of ['k1', 'k2', 'k3']) t.add(id);
    t.add('f1', 'fiscal');
    for (const id of ['k1', 'k2', 'k3']) t.check.saw(normalizeCommand(wireKeyCommand({ id })));
    t.check.saw({ ok: true, command: fiscalCommand({ id: 'f1' }) });
    t.check.absent('commands', new Set(['k1', 'k3']), t.clock.now() + 1);
    t.check.forget('k3');
    expect(t.check.size).toBe(2); // k1 and f1 (another source)
    t.platform.setState('k2', 'Cancelled');
    expect(await t.check.check(t.record('k2'), t.signal)).toEqual({ verdict: 'skip' });
    expect(t.reads()).toHaveLength(1);
  });

  it('reads each caller alone when the platform refuses a shared read, where a refusal means gone', async () => {
    const t = setup();
    open.push(t.journal);
    t.add('k1');
    t.add('k2');
    t.waiting.push('k2');
    t.platform.fault.commandsByIds = (r) =>
      r.ids && r.ids.length > 1
        ? new AgentError('PLATFORM_REJECTED', 'Invalid CommandIds', { details: { status: 400 } })
        : undefined;
    expect(await t.check.check(t.record('k1'), t.signal)).toMatchObject({ verdict: 'proceed' });
    expect(t.reads().map((r) => r.ids)).toEqual([['k1', 'k2'], ['k1']]);
    t.platform.fault.commandsByIds = () =>
      new AgentError('PLATFORM_REJECTED', 'Invalid CommandIds', { details: { status: 400 } });
    expect(await t.check.check(t.record('k2'), t.signal)).toEqual({ verdict: 'skip' });
  });

  it('rejects with the platform error so the turn can retry, and with the job signal when it fires', async () => {
    const t = setup();
    open.push(t.journal);
    t.add('k1');
    t.platform.fault.commandsByIds = () => new AgentError('PLATFORM_UNREACHABLE', 'connect ECONNREFUSED');
    await expect(t.check.check(t.record('k1'), t.signal)).rejects.toMatchObject({
      code: 'PLATFORM_UNREACHABLE',
    });
    const job = new AbortController();
    job.abort(new AgentError('ABORTED', 'shutting down'));
    await expect(t.check.check(t.record('k1'), job.signal)).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('keeps a bounded number of sightings: stale ones are swept', async () => {
    const t = setup();
    open.push(t.journal);
    for (let i = 0; i < 600; i++) t.check.saw(normalizeCommand(wireKeyCommand({ id: `old-${i}` })));
    await t.clock.advance(61_000);
    for (let i = 0; i < 424; i++) t.check.saw(normalizeCommand(wireKeyCommand({ id: `new-${i}` })));
    expect(t.check.size).toBe(424);
  });
});
