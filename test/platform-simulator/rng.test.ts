import { describe, expect, it } from 'vitest';
import { createRng, deriveRng, deriveSeed } from '../../src/platform-simulator/rng.js';

describe('seeded randomness', () => {
  it('repeats itself for a seed and differs between seeds and labels', () => {
    const draw = (seed: number) => {
      const rng = createRng(seed);
      return [rng.next(), rng.int(1, 6), rng.uuid(), rng.pick(['a', 'b', 'c'])];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(deriveSeed(7, 'generator')).not.toBe(deriveSeed(7, 'faults'));
    expect(deriveRng(7, 'x').uuid()).toBe(deriveRng(7, 'x').uuid());
  });

  it('makes version-4 shaped UUIDs and stays in range', () => {
    const rng = createRng(1);
    for (let i = 0; i < 500; i++) {
      expect(rng.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const n = rng.int(-2, 2);
      expect(n >= -2 && n <= 2 && Number.isInteger(n)).toBe(true);
    }
  });

  it('draws weighted keys in proportion and never a zero weight', () => {
    const rng = createRng(3);
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 4000; i++) {
      const key = rng.weighted({ a: 1, b: 3, c: 0 }) as string;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    expect(counts.c).toBe(0);
    expect((counts.b ?? 0) / (counts.a ?? 1)).toBeGreaterThan(2.5);
    expect((counts.b ?? 0) / (counts.a ?? 1)).toBeLessThan(3.5);
    expect(rng.weighted({ a: 0 })).toBeUndefined();
    expect(() => rng.pick([])).toThrow(RangeError);
  });

  it('does not draw for certain outcomes, so switching a zero rate on shifts nothing', () => {
    const a = createRng(5);
    const b = createRng(5);
    expect(a.chance(0)).toBe(false);
    expect(a.chance(1)).toBe(true);
    expect(a.next()).toBe(b.next());
  });
});
