import { describe, expect, it } from 'vitest';
import { DeviceQueues } from '../../../src/commands/run/device-queues.js';
import { createMemoryLogger } from '../../../src/log.js';
import { letPendingWorkRun } from '../../helpers/pending-work.js';
import { gate } from '../helpers/scripted-driver.js';

const settle = letPendingWorkRun;

describe('per-device queues', () => {
  it('runs one job at a time per device, devices in parallel, in order', async () => {
    const gates = new Map<string, ReturnType<typeof gate<void>>>();
    const log: string[] = [];
    const queues = new DeviceQueues(async (device, id) => {
      log.push(`start ${device}/${id}`);
      const g = gate();
      gates.set(id, g);
      await g.promise;
      log.push(`end ${id}`);
    }, createMemoryLogger());
    queues.add('A', 'a1');
    queues.add('A', 'a2');
    queues.add('B', 'b1');
    await settle();
    expect(log).toEqual(['start A/a1', 'start B/b1']);
    expect([queues.running('A'), queues.queued('A'), queues.runningCount]).toEqual(['a1', 1, 2]);
    gates.get('a1')?.open();
    await settle();
    expect(log).toEqual(['start A/a1', 'start B/b1', 'end a1', 'start A/a2']);
    gates.get('a2')?.open();
    gates.get('b1')?.open();
    await queues.idle();
    expect(queues.runningCount).toBe(0);
  });

  it('is idempotent per id, supports front insertion and removal of waiting ids', async () => {
    const started: string[] = [];
    const first = gate();
    const queues = new DeviceQueues(async (_d, id) => {
      started.push(id);
      if (id === 'x') await first.promise;
    }, createMemoryLogger());
    expect(queues.add('A', 'x')).toBe(true);
    await settle();
    expect(queues.add('A', 'x')).toBe(false); // running
    queues.add('A', 'y');
    expect(queues.add('A', 'y')).toBe(false); // waiting
    queues.add('A', 'z');
    queues.add('A', 'urgent', { front: true });
    expect(queues.remove('y')).toBe(true);
    expect(queues.remove('y')).toBe(false);
    expect(queues.isQueuedOrRunning('x')).toBe(true);
    first.open();
    await queues.idle();
    await settle();
    await queues.idle();
    expect(started).toEqual(['x', 'urgent', 'z']);
  });

  it('starts nothing while paused, and logs a failing turn without stopping the lane', async () => {
    const logger = createMemoryLogger();
    const started: string[] = [];
    const queues = new DeviceQueues(async (_d, id) => {
      started.push(id);
      if (id === 'boom') throw new Error('driver exploded');
    }, logger);
    queues.pause();
    queues.add('A', 'boom');
    queues.add('A', 'next');
    await settle();
    expect(started).toEqual([]);
    queues.resume();
    await settle();
    await queues.idle();
    expect(started).toEqual(['boom', 'next']);
    expect(logger.lines.some((l) => l.includes('device turn failed') && l.includes('driver exploded'))).toBe(
      true,
    );
  });

  it('holds a long backlog as ids and drains it in order', async () => {
    const seen: string[] = [];
    const queues = new DeviceQueues(async (_d, id) => {
      seen.push(id);
    }, createMemoryLogger());
    queues.pause();
    for (let i = 0; i < 5000; i++) queues.add('A', `c${i}`);
    expect(queues.queued('A')).toBe(5000);
    queues.resume();
    for (let i = 0; i < 200 && seen.length < 5000; i++) await settle();
    expect(seen).toHaveLength(5000);
    expect(seen[0]).toBe('c0');
    expect(seen[4999]).toBe('c4999');
    expect(queues.queued('A')).toBe(0);
  });
});
