import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobResult } from '../../src/drivers-api/types.js';
import { textMessage } from '../../src/messages/message.js';
import { wireFiscalCommand, wireKeyCommand } from './helpers/commands.js';
import { FakePlatform } from './helpers/fake-platform.js';
import { type Harness, harness } from './helpers/harness.js';
import { gate, unlessAborted } from './helpers/scripted-driver.js';

/**
 * Staff cancel a command while one of our updates is on its way. The interface document lets
 * `commands/update` move any state to the state given (Part B › States and transitions), so that
 * update lands after the cancel and moves the command back; the agent must leave it terminal.
 * The fake platform applies updates that way (`updateRule: 'any'`) and holds requests on the wire.
 */

/** Starts the engine and holds the first update that follows `id`'s Processing on the wire. */
async function updateOnTheWire(h: Harness, id: string) {
  await h.engine.start();
  h.socket?.connect();
  await h.until(() => h.platform.state(id) === 'Processing', `${id} processing`);
  const wire = h.platform.hold('updateCommand');
  await h.until(() => wire.waiting() === 1, 'an update on the wire');
  return wire;
}

/** Staff cancel `id`; the platform announces it. */
async function staffCancel(h: Harness, id: string): Promise<void> {
  h.platform.setState(id, 'Cancelled');
  h.socket?.event(id, 'Cancelled');
  await h.settle();
}

describe('engine: an update on its way when staff cancel', () => {
  it('puts a fiscal command back to Cancelled after its progress update landed on the cancel', async () => {
    const h = harness({ socket: true });
    h.platform.updateRule = 'any';
    h.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
    const stopped = gate();
    h.drivers.fiscal.next(async (_job, ctx) => {
      ctx.signal.addEventListener('abort', () => stopped.open());
      await h.clock.sleep(1500, ctx.signal);
      ctx.progress(0.5);
      return unlessAborted(ctx.signal, gate<JobResult>().promise);
    });
    const wire = await updateOnTheWire(h, 'f1');
    // Staff cancel; the platform announces it; then our progress update arrives.
    await staffCancel(h, 'f1');
    await stopped.promise;
    wire.release();
    await h.until(
      () => h.platform.state('f1') === 'Cancelled' && h.engine.outboxState().pending === 0,
      'f1 back',
    );
    expect(h.platform.historyOf('f1')).toEqual(['Received', 'Processing:0', 'Processing:0.5', 'Cancelled']);
    expect(h.platform.updates.at(-1)).toMatchObject({
      State: 'Cancelled',
      Notes: 'Cancelled on the platform while running; the device stopped the job.',
    });
    expect(h.journal.get('f1')).toMatchObject({ phase: 'cancelled', state: 'Cancelled' });
    await h.advance(10_000);
    expect(h.platform.state('f1')).toBe('Cancelled');
    await h.engine.stop(1000);
  });

  it('puts a key command back, though getAllByIds cannot show it in Processing', async () => {
    const h = harness({ socket: true });
    h.platform.updateRule = 'any';
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    h.drivers.keys.next(async (_job, ctx) => {
      await h.clock.sleep(1500, ctx.signal);
      ctx.progress(0.5, { milestone: true });
      return unlessAborted(ctx.signal, gate<JobResult>().promise);
    });
    const wire = await updateOnTheWire(h, 'k1');
    await staffCancel(h, 'k1');
    wire.release();
    await h.until(
      () => h.platform.state('k1') === 'Cancelled' && h.engine.outboxState().pending === 0,
      'k1 back',
    );
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Processing:0.5', 'Cancelled']);
    await h.engine.stop(1000);
  });

  it('sends nothing more when the update had landed before the cancel', async () => {
    const h = harness({ socket: true });
    h.platform.updateRule = 'any';
    h.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
    h.drivers.fiscal.next(async (_job, ctx) => {
      await h.clock.sleep(1500, ctx.signal);
      ctx.progress(0.5);
      return unlessAborted(ctx.signal, gate<JobResult>().promise);
    });
    await h.engine.start();
    h.socket?.connect();
    await h.until(() => h.platform.state('f1') === 'Processing', 'f1 processing');
    // The progress update lands; its answer is on its way back when staff cancel.
    const answers = h.platform.hold('updateCommand', { answers: true });
    await h.until(() => answers.waiting() === 1, 'the answer on its way');
    h.platform.setState('f1', 'Cancelled');
    h.socket?.event('f1', 'Cancelled');
    await h.settle();
    answers.release();
    await h.until(() => h.journal.get('f1')?.phase === 'cancelled', 'f1 cancelled locally');
    await h.advance(10_000);
    // Read again (it shows Cancelled): nothing to put back.
    expect(h.platform.historyOf('f1')).toEqual(['Received', 'Processing:0', 'Processing:0.5']);
    expect(h.platform.state('f1')).toBe('Cancelled');
    expect(h.engine.outboxState().pending).toBe(0);
    await h.engine.stop(1000);
  });

  it('drops the updates not yet sent as soon as the platform cancels, and puts back the one on its way', async () => {
    const h = harness({ socket: true });
    h.platform.updateRule = 'any';
    h.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
    const wire = h.platform.hold('updateCommand');
    h.drivers.fiscal.next(async (_job, ctx) => {
      ctx.progress(0.5, { milestone: true });
      return unlessAborted(ctx.signal, gate<JobResult>().promise);
    });
    await h.engine.start();
    h.socket?.connect();
    // Received is on the wire; Processing and the progress wait behind it.
    await h.until(() => wire.waiting() === 1 && h.drivers.fiscal.executed.length === 1, 'f1 running');
    expect(h.engine.outboxState().pending).toBe(3);
    h.platform.setState('f1', 'Cancelled');
    h.socket?.event('f1', 'Cancelled');
    await h.settle();
    // Processing and the progress are gone; Received is still on the wire, and the restore of
    // the platform's end is already journaled behind it (a kill -9 now must not lose it).
    expect(h.journal.outbox.pendingFor('f1').map((u) => u.state)).toEqual(['Cancelled']);
    wire.release();
    await h.until(() => h.engine.outboxState().pending === 0, 'outbox settled');
    expect(h.platform.historyOf('f1')).toEqual(['Received', 'Cancelled']);
    expect(h.platform.state('f1')).toBe('Cancelled');
    await h.engine.stop(1000);
  });
  it("puts the platform's end back after a kill -9 lost the answer of the result on its way", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cancel-race-'));
    try {
      const journalPath = join(dir, 'journal.db');
      const first = harness({ socket: true, journalPath });
      first.platform.updateRule = 'any';
      first.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
      first.drivers.fiscal.next(async (_job, ctx) => {
        await first.clock.sleep(1500, ctx.signal);
        return { notes: textMessage('Receipt 0001-0002') };
      });
      const wire = await updateOnTheWire(first, 'f1');
      await staffCancel(first, 'f1');
      // The result lands after the cancel; its answer never comes back: the process dies here.
      first.platform.hold('updateCommand', { answers: true });
      wire.release();
      await first.until(() => first.platform.state('f1') === 'Processed', 'the result landed');

      // The next process, on the same journal, against a platform showing our late result.
      const platform = new FakePlatform(() => first.clock.now());
      platform.updateRule = 'any';
      platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
      platform.setState('f1', 'Processed');
      const second = harness({ socket: true, journalPath, platform, clock: first.clock });
      await second.engine.start();
      second.socket?.connect();
      await second.until(() => platform.state('f1') === 'Cancelled', 'f1 back to Cancelled');
      expect(platform.updates.at(-1)).toMatchObject({
        State: 'Cancelled',
        Notes: 'Cancelled on the platform, but the device had already done it: Receipt 0001-0002',
      });
      await second.until(() => second.engine.outboxState().pending === 0, 'outbox settled');
      await second.engine.stop(1000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
