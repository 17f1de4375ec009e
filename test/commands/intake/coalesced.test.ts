import { describe, expect, it } from 'vitest';
import { Coalesced } from '../../../src/commands/intake/coalesced.js';
import { letPendingWorkRun } from '../../helpers/pending-work.js';

describe('a coalesced task', () => {
  it('runs one more pass for any number of calls during a pass, and none once stopped', async () => {
    let passes = 0;
    let stopped = false;
    let release: () => void = () => {};
    const task = new Coalesced(
      () =>
        new Promise<void>((resolve) => {
          passes++;
          release = resolve;
        }),
      () => stopped,
    );
    const first = task.run();
    const second = task.run();
    const third = task.run();
    expect(passes).toBe(1);
    release();
    await letPendingWorkRun();
    expect(passes).toBe(2); // the two calls during the first pass asked for one more
    release();
    await Promise.all([first, second, third]);
    expect(task.current).toBeUndefined();
    stopped = true;
    await task.run();
    expect(passes).toBe(2);
  });
});
