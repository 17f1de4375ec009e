import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors.js';
import { textMessage } from '../../src/messages/message.js';
import {
  FISCAL_DEVICE,
  FOREIGN_DEVICE,
  KEY_DEVICE,
  TERMINAL_DEVICE,
  wireFiscalCommand,
  wireKeyCommand,
  wireLegacyFiscalCommand,
  wirePrinterCommand,
} from './helpers/commands.js';
import { harness } from './helpers/harness.js';
import { failsWith, takes } from './helpers/scripted-driver.js';

describe('engine: a command’s life', () => {
  it('moves a key command Pending → Received → Processing → Processed with the driver’s Notes', async () => {
    const h = harness({ socket: true });
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    h.drivers.keys.next(takes(h.clock, 3000, 'Two keys written for room 101'));
    await h.engine.start();
    h.socket?.connect();
    await h.until(() => h.platform.state('k1') === 'Processed', 'k1 processed');

    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Processed']);
    const final = h.platform.updates.at(-1);
    expect(final).toMatchObject({ Notes: 'Two keys written for room 101', priority: 'result' });
    expect(h.drivers.keys.executed.map((j) => [j.commandId, j.attempt])).toEqual([['k1', 1]]);
    expect(h.drivers.keys.executed[0]?.data).toMatchObject({ kind: 'keys', keys: { keyCount: 2 } });

    const transitions = h.events.filter((e) => e.type === 'transition');
    expect(transitions.map((e) => [e.from, e.to])).toEqual([
      ['Pending', 'Received'],
      ['Received', 'Processing'],
      ['Processing', 'Processed'],
    ]);
    expect(transitions[0]).toMatchObject({ pickupMs: 10_000, deviceId: 'dev-keys-1', kind: 'keys' });
    expect(transitions[2]?.endToEndMs).toBeGreaterThanOrEqual(13_000);
    expect(
      h.log.lines.some((l) =>
        /command transition .*commandId=k1 device=dev-keys-1 deviceName=.+ from=running to=finished/.test(l),
      ),
    ).toBe(true);

    await h.until(() => h.journal.get('k1')?.phase === 'closed', 'k1 closed');
    expect(h.engine.recent(5)[0]).toMatchObject({
      id: 'k1',
      state: 'Processed',
      notes: textMessage('Two keys written for room 101'),
    });
    expect(h.engine.totals()).toEqual({ processed: 1, failed: 0, cancelled: 0, inFlight: 0 });
    expect(h.engine.outboxState()).toEqual({ pending: 0 });
    expect(
      h.platform.requests
        .filter((r) => r.operation === 'activeCommands')
        .every((r) => r.priority === 'discovery'),
    ).toBe(true);
    await h.engine.stop(1000);
  });

  it('ends in Error with the error’s Notes when the device fails', async () => {
    const h = harness();
    h.platform.add({ wire: wirePrinterCommand({ id: 'p1' }) });
    h.drivers.printer.next(failsWith('PAPER_OUT', 'paper end sensor'));
    await h.engine.start();
    await h.until(() => h.platform.state('p1') === 'Error', 'p1 error');
    expect(h.platform.historyOf('p1')).toEqual(['Received', 'Processing:0', 'Error']);
    expect(h.platform.updates.at(-1)?.Notes).toBe(
      'The printer is out of paper; replace the roll and try again. (PAPER_OUT: paper end sensor)',
    );
    expect(h.journal.get('p1')).toMatchObject({ outcome: 'Error', error: { code: 'PAPER_OUT' } });
    expect(h.events.find((e) => e.type === 'transition' && e.to === 'Error')).toMatchObject({
      errorCode: 'PAPER_OUT',
    });
    await h.engine.stop(1000);
  });

  it('throttles progress to one update a second, but sends every milestone', async () => {
    const h = harness();
    h.platform.add({ wire: wireKeyCommand({ id: 'k1', keyCount: 3 }) });
    h.drivers.keys.next(async (_job, ctx) => {
      for (let i = 1; i <= 15; i++) {
        await h.clock.sleep(200, ctx.signal);
        ctx.progress((i / 15) * 0.5);
      }
      for (let card = 1; card <= 3; card++) {
        ctx.checkpoint({ cardsWritten: card - 1 });
        ctx.progress(0.5 + card / 6, { milestone: true });
        // The encoder ejects the card (a milestone still unsent when the result is ready is dropped).
        await h.clock.sleep(100, ctx.signal);
      }
      return { notes: textMessage('Three keys written') };
    });
    await h.engine.start();
    await h.until(() => h.platform.state('k1') === 'Processed', 'k1 processed', 60_000, 50);

    const processing = h.platform.updates.filter((u) => u.CommandId === 'k1' && u.State === 'Processing');
    const started = processing[0]?.at ?? 0;
    const throttled = processing.slice(1).filter((u) => (u.Progress ?? 0) <= 0.5);
    const milestones = processing.filter((u) => (u.Progress ?? 0) > 0.5);
    // One a second; the 3 s one was superseded by the milestone queued right after it.
    expect(throttled.map((u) => u.at - started)).toEqual([1000, 2000]);
    expect(milestones.map((u) => u.Progress)).toEqual([0.667, 0.833, 1]);
    expect(h.events.filter((e) => e.type === 'progress')).toHaveLength(6);
    await h.engine.stop(1000);
  });

  it('retries a busy device while nothing was sent, and never after a checkpoint', async () => {
    const h = harness({ tuning: { deviceRetryBaseMs: 500 } });
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    h.platform.add({ wire: wireKeyCommand({ id: 'k2', createdUtc: '2026-01-01T00:00:01Z' }) });
    h.drivers.keys.next(
      failsWith('DEVICE_BUSY'),
      failsWith('DEVICE_UNAVAILABLE'),
      async () => ({ notes: textMessage('written on the third try') }),
      async (_job, ctx) => {
        ctx.checkpoint({ sending: true });
        throw new AgentError('DEVICE_UNAVAILABLE', 'USB unplugged mid-card');
      },
    );
    await h.engine.start();
    await h.until(
      () => h.platform.state('k1') === 'Processed' && h.platform.state('k2') === 'Error',
      'both done',
    );
    expect(h.drivers.keys.executed.map((j) => `${j.commandId}#${j.attempt}`)).toEqual([
      'k1#1',
      'k1#2',
      'k1#3',
      'k2#1',
    ]);
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Processed']);
    expect(h.platform.updates.find((u) => u.CommandId === 'k2' && u.State === 'Error')?.Notes).toMatch(
      /cannot be reached.*DEVICE_UNAVAILABLE: USB unplugged mid-card/,
    );
    expect(h.drivers.keys.maxConcurrent).toBe(1);
    await h.engine.stop(1000);
  });

  it('retries after a checkpoint when the driver says the device provably did nothing', async () => {
    const h = harness({ tuning: { deviceRetryBaseMs: 500 } });
    h.platform.add({ wire: wireKeyCommand({ id: 'k3' }) });
    h.drivers.keys.next(
      async (_job, ctx) => {
        ctx.checkpoint({ sending: true });
        throw new AgentError('DEVICE_UNAVAILABLE', 'connection refused', { details: { nothingSent: true } });
      },
      async () => ({ notes: textMessage('written on the second try') }),
    );
    await h.engine.start();
    await h.until(() => h.platform.state('k3') === 'Processed', 'k3 done');
    expect(h.drivers.keys.executed.map((j) => `${j.commandId}#${j.attempt}`)).toEqual(['k3#1', 'k3#2']);
    await h.engine.stop(1000);
  });

  it('ends a malformed command of ours in Error with a Notes sentence, and runs nothing', async () => {
    const h = harness();
    const broken = wireKeyCommand({ id: 'bad1' });
    delete (broken.Data as Record<string, unknown>).KeyCount;
    h.platform.add({ wire: broken });
    await h.engine.start();
    await h.until(() => h.platform.state('bad1') === 'Error', 'bad1 error');
    expect(h.platform.historyOf('bad1')).toEqual(['Received', 'Error']);
    expect(h.platform.updates.at(-1)?.Notes).toMatch(
      /^The command from the platform is incomplete or malformed; nothing was done\. Create it again\. \(COMMAND_INVALID: Malformed key-cutter command: KeyCount/,
    );
    expect(h.drivers.keys.executed).toHaveLength(0);
    expect(h.engine.recent(1)[0]).toMatchObject({ id: 'bad1', kind: 'invalid', state: 'Error' });
    await h.engine.stop(1000);
  });

  it('never touches commands of devices it does not drive, nor of kinds it does not handle', async () => {
    const h = harness({ socket: true });
    h.platform.add({ wire: wireKeyCommand({ id: 'foreign', device: FOREIGN_DEVICE }) });
    const brokenForeign = wireKeyCommand({ id: 'foreign-bad', device: FOREIGN_DEVICE });
    delete (brokenForeign.Data as Record<string, unknown>).LockIds;
    h.platform.add({ wire: brokenForeign });
    h.platform.add({
      wire: { ...wirePrinterCommand({ id: 'terminal', device: TERMINAL_DEVICE }), Data: { Amount: 1 } },
    });
    // Our encoder's id, but the platform says it is a printer: a configuration mistake, not ours to run.
    h.platform.add({
      wire: wirePrinterCommand({ id: 'mistyped', device: { ...KEY_DEVICE, Type: 'Printer' } }),
    });
    h.platform.add({ wire: wireKeyCommand({ id: 'mine' }) });
    await h.engine.start();
    h.socket?.connect();
    for (const id of ['foreign', 'foreign-bad', 'terminal', 'mistyped', 'mine'])
      h.socket?.event(id, 'Pending');
    await h.until(() => h.platform.state('mine') === 'Processed', 'mine processed');
    await h.advance(5000);
    expect(new Set(h.platform.updates.map((u) => u.CommandId))).toEqual(new Set(['mine']));
    expect(['foreign', 'foreign-bad', 'terminal'].map((id) => h.journal.has(id))).toEqual([
      false,
      false,
      false,
    ]);
    await h.engine.stop(1000);
  });

  it('deduplicates a command seen by WebSocket and catch-up, and a fiscal one seen in both shapes', async () => {
    const h = harness({ socket: true });
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    h.platform.add({
      fiscalWire: wireFiscalCommand({ id: 'f1' }),
      wire: wireLegacyFiscalCommand({ id: 'f1' }),
    });
    h.drivers.keys.next(takes(h.clock, 5000));
    h.drivers.fiscal.next(takes(h.clock, 5000));
    await h.engine.start();
    h.socket?.connect();
    h.socket?.event('k1', 'Pending');
    h.socket?.event('f1', 'Pending');
    h.socket?.drop();
    h.socket?.connect();
    await h.until(
      () => h.platform.state('k1') === 'Processed' && h.platform.state('f1') === 'Processed',
      'both done',
    );
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Processed']);
    expect(h.platform.historyOf('f1')).toEqual(['Received', 'Processing:0', 'Processed']);
    expect(h.drivers.keys.executed).toHaveLength(1);
    expect(h.drivers.fiscal.executed).toHaveLength(1);
    await h.engine.stop(1000);
  });

  it('creates staff’s key command on the platform and takes it in without waiting for discovery (intake/created.ts)', async () => {
    const h = harness();
    await h.engine.start();
    const id = await h.engine.cutKeys({ deviceId: KEY_DEVICE.Id, reservationId: 'res-9', keyCount: 1 });
    expect(h.platform.countOf('addKeyCutter')).toBe(1);
    await h.until(() => h.journal.get(id) !== undefined, 'created taken in');
    expect(h.platform.requests.find((r) => r.operation === 'commandsByIds')).toMatchObject({
      ids: [id],
      priority: 'normal',
    });
    await h.until(() => h.platform.state(id) === 'Processed', 'created processed');
    await h.engine.stop(1000);
  });

  it('refuses an order for a device that is not one of its encoders, and creates nothing', async () => {
    const h = harness();
    await h.engine.start();
    await expect(
      h.engine.cutKeys({ deviceId: FISCAL_DEVICE.Id, reservationId: 'res-9', keyCount: 1 }),
    ).rejects.toMatchObject({ code: 'COMMAND_INVALID', notes: { id: 'engine.notKeyCutter' } });
    expect(h.platform.countOf('addKeyCutter')).toBe(0);
    await h.engine.stop(1000);
  });

  it('serves a page of the fiscal poll oldest first, whatever order the platform lists it in', async () => {
    const h = harness();
    // Listed in no order of creation.
    for (const [id, second] of [
      ['third', '30'],
      ['first', '10'],
      ['second', '20'],
    ] as const) {
      h.platform.add({ fiscalWire: wireFiscalCommand({ id, createdUtc: `2026-01-01T00:00:${second}Z` }) });
    }
    await h.engine.start();
    await h.until(() => h.drivers.fiscal.executed.length === 3, 'all three printed');
    expect(h.drivers.fiscal.executed.map((j) => j.commandId)).toEqual(['first', 'second', 'third']);
    await h.engine.stop(1000);
  });
});
