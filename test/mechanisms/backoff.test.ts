import { describe, expect, it } from 'vitest';
import { Backoff, backoffCeiling, equalJitterDelay, fullJitterDelay } from '../../src/backoff.js';

describe('the one backoff', () => {
  const range = { minMs: 500, maxMs: 4000 };

  it('doubles from minMs up to maxMs', () => {
    expect([0, 1, 2, 3, 4, 40].map((n) => backoffCeiling(n, range))).toEqual([
      500, 1000, 2000, 4000, 4000, 4000,
    ]);
    expect(backoffCeiling(3, { minMs: 2000, maxMs: Number.POSITIVE_INFINITY })).toBe(16_000);
  });

  it('jitters within its bounds, with a pinned random source', () => {
    expect(equalJitterDelay(2, range, () => 0)).toBe(1000);
    expect(equalJitterDelay(2, range, () => 0.999_999)).toBe(2000);
    expect(fullJitterDelay(2, range, () => 0)).toBe(0);
    expect(fullJitterDelay(2, range, () => 0.5)).toBe(1000);
    expect(fullJitterDelay(2, range, () => Number.NaN)).toBe(1000);
  });

  it('keeps the count for a loop until reset: next() counts, peek() does not', () => {
    const b = new Backoff(range);
    expect(b.peek()).toBe(500);
    expect([b.next(), b.next(), b.next()]).toEqual([500, 1000, 2000]);
    expect(b.failures).toBe(3);
    expect(b.peek()).toBe(4000);
    b.reset();
    expect([b.failures, b.next()]).toEqual([0, 500]);
    const jittered = new Backoff(range, () => 0);
    expect([jittered.next(), jittered.next()]).toEqual([250, 500]);
  });
});
