import { describe, expect, it } from 'vitest';
import { EventuallyTimeout, eventually } from './eventually.js';

describe('eventually', () => {
  it('resolves to the first value that is not undefined, false or null', async () => {
    let calls = 0;
    const value = await eventually('the third call', () => (++calls >= 3 ? { calls } : undefined), {
      intervalMs: 0,
    });
    expect(value).toEqual({ calls: 3 });
    expect(await eventually('zero is a value', () => 0)).toBe(0);
  });

  it('treats a throwing check as "not yet" and waits on async checks', async () => {
    let calls = 0;
    const value = await eventually(
      'an expectation to hold',
      async () => {
        calls++;
        expect(calls).toBe(2);
        return 'held';
      },
      { intervalMs: 0 },
    );
    expect(value).toBe('held');
  });

  it('gives up naming what it waited for and what it last saw', async () => {
    let n = 0;
    const failure = await eventually(
      () => `a count of 100 (at ${n})`,
      () => {
        n++;
        return n >= 100 ? n : false;
      },
      { timeoutMs: 0, intervalMs: 0 },
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EventuallyTimeout);
    expect((failure as Error).message).toBe(
      'gave up after 0 ms waiting for a count of 100 (at 1); last observed: false',
    );

    const thrown = await eventually(
      'a check that throws',
      () => {
        throw new Error('not there');
      },
      { timeoutMs: 0 },
    ).catch((e: unknown) => e);
    expect((thrown as EventuallyTimeout).last).toBeInstanceOf(Error);
    expect((thrown as Error).message).toMatch(
      /waiting for a check that throws; last observed: Error: not there$/,
    );
  });
});
