import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../src/clock.js';

describe('ManualClock', () => {
  it('wakes sleepers in order as time advances', async () => {
    const clock = new ManualClock(0);
    const woke: number[] = [];
    void clock.sleep(300).then(() => woke.push(300));
    void clock.sleep(100).then(() => woke.push(100));
    await clock.advance(150);
    expect(woke).toEqual([100]);
    await clock.advance(200);
    expect(woke).toEqual([100, 300]);
    expect(clock.now()).toBe(350);
  });

  it('rejects on abort and leaves no listener behind after a normal wake-up', async () => {
    const clock = new ManualClock(0);
    const abort = new AbortController();
    for (let i = 0; i < 20; i++) {
      const sleeping = clock.sleep(10, abort.signal);
      await clock.advance(10);
      await sleeping;
    }
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
    const last = clock.sleep(10, abort.signal);
    abort.abort();
    await expect(last).rejects.toMatchObject({ name: 'AbortError' });
    expect(clock.pending).toBe(0);
  });
});

describe('systemClock', () => {
  it('rejects at once for an aborted signal', async () => {
    await expect(systemClock.sleep(10_000, AbortSignal.abort())).rejects.toBeDefined();
  });
});
