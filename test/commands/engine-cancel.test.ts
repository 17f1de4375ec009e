import { describe, expect, it } from 'vitest';
import type { JobResult } from '../../src/drivers-api/types.js';
import { type Message, textMessage } from '../../src/messages/message.js';
import { english } from '../../src/messages/render.js';
import { wireFiscalCommand, wireKeyCommand } from './helpers/commands.js';
import { harness } from './helpers/harness.js';
import { gate, takes, unlessAborted } from './helpers/scripted-driver.js';

const words = (m: Message | undefined) => (m ? english(m) : undefined);

describe('engine: cancellation', () => {
  it('drops a command cancelled while it waits in the queue (WebSocket event): no update after Received', async () => {
    const h = harness({ socket: true });
    h.platform.add({ wire: wireKeyCommand({ id: 'first' }) });
    h.platform.add({ wire: wireKeyCommand({ id: 'second', createdUtc: '2026-01-01T00:00:05Z' }) });
    h.drivers.keys.next(takes(h.clock, 10_000));
    await h.engine.start();
    h.socket?.connect();
    await h.until(() => h.drivers.keys.executed.length === 1, 'first running');
    expect(h.engine.deviceState('dev-keys-1')).toMatchObject({ queued: 1, running: { commandId: 'first' } });

    h.platform.setState('second', 'Cancelled');
    h.socket?.event('second', 'Cancelled');
    await h.settle();
    expect(h.journal.get('second')).toMatchObject({
      phase: 'skipped',
      state: 'Cancelled',
      outcome: 'Cancelled',
    });
    expect(h.engine.deviceState('dev-keys-1').queued).toBe(0);

    await h.until(() => h.platform.state('first') === 'Processed', 'first processed');
    await h.advance(3000);
    expect(h.platform.historyOf('second')).toEqual(['Received']);
    expect(h.drivers.keys.executed.map((j) => j.commandId)).toEqual(['first']);
    expect(h.transitions('second')).toEqual(['Received', 'Cancelled']);
    expect(h.engine.totals().cancelled).toBe(1);
    await h.engine.stop(1000);
  });

  it('skips a command found cancelled by the re-read right before it starts', async () => {
    const h = harness();
    h.platform.add({ wire: wireKeyCommand({ id: 'first' }) });
    h.platform.add({ wire: wireKeyCommand({ id: 'second', createdUtc: '2026-01-01T00:00:05Z' }) });
    const release = gate();
    h.drivers.keys.next(() => release.promise.then(() => ({ notes: textMessage('ok') })));
    await h.engine.start();
    await h.until(() => h.platform.state('second') === 'Received', 'second received');
    // Cancelled silently (no WebSocket), and the poll that saw it is over a second old: only the
    // re-read can tell.
    h.platform.setState('second', 'Cancelled');
    await h.advance(1100);
    expect(h.platform.countOf('activeCommands')).toBe(1);
    release.open();
    await h.until(() => h.journal.get('second')?.phase === 'skipped', 'second skipped');
    expect(h.platform.historyOf('second')).toEqual(['Received']);
    expect(h.drivers.keys.executed.map((j) => j.commandId)).toEqual(['first']);
    expect(words(h.journal.get('second')?.notes)).toBe(
      'Cancelled on the platform before it started; nothing was done.',
    );
    await h.engine.stop(0);
  });

  it('aborts a running job when the platform cancels it, and sends nothing more', async () => {
    const h = harness({ socket: true });
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    let abortSeen = false;
    h.drivers.keys.next(async (_job, ctx) => {
      ctx.signal.addEventListener('abort', () => {
        abortSeen = true;
      });
      ctx.progress(0.1);
      return unlessAborted(ctx.signal, gate<JobResult>().promise);
    });
    await h.engine.start();
    h.socket?.connect();
    await h.until(() => h.platform.state('k1') === 'Processing', 'k1 processing');
    h.platform.setState('k1', 'Cancelled');
    h.socket?.event('k1', 'Cancelled');
    await h.until(() => h.journal.get('k1')?.phase === 'cancelled', 'k1 cancelled locally');
    expect(abortSeen).toBe(true);
    expect(h.journal.get('k1')).toMatchObject({
      state: 'Cancelled',
      outcome: 'Cancelled',
      error: { code: 'ABORTED' },
    });
    await h.advance(5000);
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0']);
    expect(h.engine.deviceState('dev-keys-1')).toEqual({ queued: 0 });
    await h.engine.stop(1000);
  });

  it('records the real outcome when the driver finishes anyway because the side effect had happened', async () => {
    const h = harness({ socket: true });
    h.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
    const printed = gate();
    h.drivers.fiscal.next(async (_job, ctx) => {
      ctx.checkpoint({ sent: true });
      await printed.promise;
      return { notes: textMessage('Receipt 0012-0034 printed'), details: { z: 12, doc: 34 } };
    });
    await h.engine.start();
    await h.until(() => h.platform.state('f1') === 'Processing', 'f1 processing');
    h.platform.setState('f1', 'Cancelled');
    h.socket?.event('f1', 'Cancelled');
    await h.settle();
    printed.open();
    await h.until(() => h.journal.get('f1')?.phase === 'closed', 'f1 closed');
    expect(h.journal.get('f1')).toMatchObject({
      state: 'Cancelled',
      outcome: 'Processed',
      result: { details: { z: 12, doc: 34 } },
    });
    expect(words(h.journal.get('f1')?.notes)).toBe(
      'Cancelled on the platform, but the device had already done it: Receipt 0012-0034 printed',
    );
    expect(h.platform.historyOf('f1')).toEqual(['Received', 'Processing:0']);
    await h.engine.stop(1000);
  });

  it('on a 400 to its result update re-reads the command, and drops its updates when the platform has it terminal', async () => {
    const h = harness();
    h.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
    const done = gate();
    h.drivers.fiscal.next(() =>
      done.promise.then(() => ({ notes: textMessage('Receipt 0012-0035 printed') })),
    );
    await h.engine.start();
    await h.until(() => h.platform.state('f1') === 'Processing', 'f1 processing');
    h.platform.setState('f1', 'Error');
    done.open();
    await h.until(() => h.journal.get('f1')?.phase === 'closed', 'f1 closed');
    expect(h.platform.historyOf('f1')).toEqual(['Received', 'Processing:0']);
    const reread = h.platform.requests.filter(
      (r) => r.operation === 'fiscalCommands' && r.ids?.includes('f1'),
    );
    // Only after the refusal: before start, the poll that found it a moment ago answered.
    expect(reread.length).toBe(1);
    expect(h.journal.get('f1')).toMatchObject({
      state: 'Error',
      outcome: 'Processed',
      result: { notes: textMessage('Receipt 0012-0035 printed') },
    });
    expect(h.engine.outboxState().pending).toBe(0);
    expect(h.log.lines.some((l) => l.includes('no longer has the command active; dropped'))).toBe(true);
    await h.engine.stop(1000);
  });

  it('closes a key command whose result is refused once getAllByIds no longer lists it', async () => {
    const h = harness();
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    const done = gate();
    h.drivers.keys.next(() => done.promise.then(() => ({ notes: textMessage('Two keys written') })));
    await h.engine.start();
    await h.until(() => h.platform.state('k1') === 'Processing', 'k1 processing');
    h.platform.setState('k1', 'Cancelled');
    done.open();
    await h.until(() => h.journal.get('k1')?.phase === 'closed', 'k1 closed');
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0']);
    expect(h.journal.get('k1')).toMatchObject({
      state: 'Cancelled',
      outcome: 'Processed',
      notes: textMessage('Two keys written'),
    });
    expect(h.engine.outboxState().pending).toBe(0);
    await h.engine.stop(1000);
  });

  it('on a 400 while waiting, drops the command and everything queued for it', async () => {
    const h = harness();
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    h.platform.add({ wire: wireKeyCommand({ id: 'k2', createdUtc: '2026-01-01T00:00:05Z' }) });
    h.drivers.keys.next(takes(h.clock, 10_000));
    // k2 vanishes before our Received reaches the platform.
    h.platform.fault.updateCommand = (r) => {
      if (r.update?.CommandId === 'k2') h.platform.commands.delete('k2');
      return undefined;
    };
    await h.engine.start();
    await h.until(() => h.journal.get('k2')?.phase === 'skipped', 'k2 skipped');
    expect(h.platform.historyOf('k2')).toEqual([]);
    await h.until(() => h.platform.state('k1') === 'Processed', 'k1 done');
    expect(h.drivers.keys.executed.map((j) => j.commandId)).toEqual(['k1']);
    await h.engine.stop(1000);
  });
});
