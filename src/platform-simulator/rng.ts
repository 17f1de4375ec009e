import { seededRandom as mulberry32 } from '../random.js';

/**
 * Seeded randomness for the simulator. Everything random that shapes a run (command kinds,
 * devices, amounts, names, ids, fault decisions) draws from an `Rng` derived from the one seed,
 * so two runs with the same seed and the same sequence of clock advances produce the same
 * commands. Independent concerns use independent streams (`deriveRng(seed, 'generator')`), so a
 * command created by hand does not shift what the generator produces next.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability `p` (p ≤ 0 never, p ≥ 1 always, without consuming a draw). */
  chance(p: number): boolean;
  /** One element; throws on an empty list (a caller bug). */
  pick<T>(items: readonly T[]): T;
  /** A key chosen with probability proportional to its weight; undefined when all weights are 0. */
  weighted<K extends string>(weights: Partial<Record<K, number>>): K | undefined;
  /** A random (version 4 layout) UUID, reproducible from the seed. */
  uuid(): string;
}

/** FNV-1a of `label`, mixed with `seed`: a stable sub-seed per concern. */
export function deriveSeed(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function createRng(seed: number): Rng {
  const next = mulberry32(seed);
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('');
  const rng: Rng = {
    next,
    int(min, max) {
      return min + Math.floor(next() * (max - min + 1));
    },
    chance(p) {
      if (p <= 0) return false;
      if (p >= 1) return true;
      return next() < p;
    },
    pick(items) {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weighted(weights) {
      const entries = Object.entries(weights).filter(
        (e): e is [string, number] => typeof e[1] === 'number' && e[1] > 0,
      );
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      if (total <= 0) return undefined;
      let roll = next() * total;
      for (const [key, w] of entries) {
        roll -= w;
        if (roll < 0) return key as keyof typeof weights & string;
      }
      return entries[entries.length - 1]?.[0] as keyof typeof weights & string;
    },
    uuid() {
      const variant = '89ab'[Math.floor(next() * 4)];
      return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
    },
  };
  return rng;
}

export function deriveRng(seed: number, label: string): Rng {
  return createRng(deriveSeed(seed, label));
}
