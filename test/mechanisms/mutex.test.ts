import { describe, expect, it } from 'vitest';
import { Mutex } from '../../src/mutex.js';
import { gate } from '../commands/helpers/scripted-driver.js';

describe('the one serial turn', () => {
  it('runs tasks one at a time, in call order, each resolving with its own result', async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    const first = gate<void>();
    const a = mutex.run(async () => {
      log.push('a starts');
      await first.promise;
      log.push('a ends');
      return 'A';
    });
    const b = mutex.run(() => {
      log.push('b runs');
      return 'B';
    });
    // Not started within the call, even with the turn free.
    expect(log).toEqual([]);
    await Promise.resolve();
    expect(log).toEqual(['a starts']);
    first.open();
    expect(await Promise.all([a, b])).toEqual(['A', 'B']);
    expect(log).toEqual(['a starts', 'a ends', 'b runs']);
  });

  it('never lets a failed task block the ones after it, and hands its error to its caller only', async () => {
    const mutex = new Mutex();
    const rejected = mutex.run(() => Promise.reject(new Error('device gone')));
    const thrown = mutex.run(() => {
      throw new Error('bad input');
    });
    const after = mutex.run(() => 'still runs');
    await expect(rejected).rejects.toThrow('device gone');
    await expect(thrown).rejects.toThrow('bad input');
    expect(await after).toBe('still runs');
  });
});
