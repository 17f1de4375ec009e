import { describe, expect, it } from 'vitest';
import { textMessage } from '../../src/messages/message.js';
import { wireKeyCommand } from './helpers/commands.js';
import { harness } from './helpers/harness.js';

/**
 * How the engine keeps devices busy and the platform's budget for known work: a device's queue
 * waits for nothing but the journal and the device, updates of many commands are in flight at
 * once (each command's in order), and the rate budget is told what the known work still needs.
 */

const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i + 1}`);

describe('engine: throughput', () => {
  it('runs a device’s jobs back to back while every update is still on its way to the platform', async () => {
    const h = harness();
    for (const id of keys(3)) h.platform.add({ wire: wireKeyCommand({ id }) });
    const wire = h.platform.hold('updateCommand');
    await h.engine.start();
    await h.settle();
    // The poll at start saw them all: no read before each start, no wait for any update.
    expect(h.drivers.keys.executed.map((j) => j.commandId)).toEqual(keys(3));
    expect(h.platform.countOf('commandsByIds')).toBe(0);
    expect(h.platform.updates).toEqual([]);
    expect(keys(3).map((id) => h.journal.get(id)?.phase)).toEqual(['finished', 'finished', 'finished']);
    wire.release();
    await h.until(() => h.engine.outboxState().pending === 0, 'outbox drained');
    for (const id of keys(3))
      expect(h.platform.historyOf(id)).toEqual(['Received', 'Processing:0', 'Processed']);
    await h.engine.stop(1000);
  });

  it('has updates of several commands in flight at once, never two of one command', async () => {
    const h = harness({ tuning: { outbox: { concurrency: 4 } } });
    for (const id of keys(6)) h.platform.add({ wire: wireKeyCommand({ id }) });
    const wire = h.platform.hold('updateCommand');
    await h.engine.start();
    await h.settle();
    const sent = () => h.platform.requests.filter((r) => r.operation === 'updateCommand');
    expect(wire.waiting()).toBe(4);
    const inFlight = sent().map((r) => r.ids?.[0]);
    expect(new Set(inFlight).size).toBe(4);
    wire.release();
    await h.until(() => h.engine.outboxState().pending === 0, 'outbox drained');
    for (const id of keys(6))
      expect(h.platform.historyOf(id)).toEqual(['Received', 'Processing:0', 'Processed']);
    await h.engine.stop(1000);
  });

  it('tells the rate budget what the known work still needs: waiting updates and those still to be written', async () => {
    const h = harness();
    const block = h.drivers.keys;
    let finish: () => void = () => {};
    block.next(
      () =>
        new Promise((resolve) => {
          finish = () => resolve({ notes: textMessage('cut') });
        }),
    );
    for (const id of keys(3)) h.platform.add({ wire: wireKeyCommand({ id }) });
    const wire = h.platform.hold('updateCommand');
    await h.engine.start();
    await h.settle();
    expect(h.platform.demands.size).toBe(1);
    // k1 runs (its result to write: 1), k2 and k3 wait (Processing and result each: 4). In the
    // outbox: Received of k2 and k3 and k1's Processing wait; the Received of k1 is on the wire.
    expect(wire.waiting()).toBeGreaterThan(0);
    const onTheWire = wire.waiting();
    const pending = h.engine.outboxState().pending;
    expect(h.platform.demand()).toBe(1 + 4 + pending - onTheWire);
    finish();
    wire.release();
    await h.until(() => h.engine.outboxState().pending === 0, 'outbox drained');
    expect(h.platform.demand()).toBe(0);
    await h.engine.stop(1000);
    expect(h.platform.demands.size).toBe(0);
  });
});
