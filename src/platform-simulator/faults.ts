import { z } from 'zod';
import { Listeners } from '../listeners.js';
import { formatIssues } from '../zod-issues.js';
import { rejection } from './commands.js';
import { type Faults, FaultsPatchSchema, FaultsSchema } from './fault-schema.js';
import type { Rng } from './rng.js';

/** What happens to one Connector API request instead of (or before) normal handling. */
export type RequestFault =
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'captive-portal' }
  | { kind: 'gzip-bomb' }
  | { kind: 'server-error'; status: number };

/** The sections whose `next` can be spaced out with `every`. */
const COUNTED = ['serverErrors', 'resets', 'hangs', 'captivePortal', 'gzipBomb'] as const;

/**
 * The live fault switches. Decisions that need chance draw from the `faults` stream of the seed,
 * so a run with the same seed and the same request sequence hits the same faults.
 */

export class FaultController {
  private current: Faults;
  /** A listener's error reaches the caller, as a test's failed expectation must. */
  private readonly listeners = new Listeners<[Faults]>((error) => {
    throw error;
  });
  /** Matching requests seen by each counted section since it was set (for `every`). */
  private seen = new WeakMap<object, number>();

  constructor(
    private initial: Faults,
    private rng: Rng,
  ) {
    this.current = structuredClone(initial);
  }

  get(): Faults {
    return structuredClone(this.current);
  }

  /** Fires after every change (set, clear, reset) with the new switches. */
  onChange(listener: (faults: Faults) => void): () => void {
    return this.listeners.add(listener);
  }

  private changed(): Faults {
    this.listeners.emit(this.get());
    return this.get();
  }

  /**
   * Replaces the sections present in `patch` (a section's missing keys take their defaults).
   * Rejects with a 400-style AgentError naming the bad path; nothing changes then.
   */
  set(patch: unknown): Faults {
    const parsed = FaultsPatchSchema.safeParse(patch ?? {});
    if (!parsed.success) throw rejection(400, `Invalid faults:\n${formatIssues(parsed.error)}`);
    const given = z.record(z.string(), z.unknown()).parse(patch ?? {});
    const next = { ...this.current } as Record<string, unknown>;
    for (const key of Object.keys(given)) next[key] = (parsed.data as Record<string, unknown>)[key];
    const previous = this.current;
    this.current = FaultsSchema.parse(next);
    // Sections the patch did not name keep their place in an `every` count.
    for (const key of COUNTED) {
      const count = this.seen.get(previous[key]);
      if (!(key in given) && count !== undefined) this.seen.set(this.current[key], count);
    }
    return this.changed();
  }

  /** Every switch off. */
  clear(): Faults {
    this.current = FaultsSchema.parse({});
    return this.changed();
  }

  /** Back to the scenario's switches, with a fresh random stream. */
  reset(rng: Rng): Faults {
    this.rng = rng;
    this.current = structuredClone(this.initial);
    return this.changed();
  }

  private hits(
    fault: { rate: number; next: number; every: number; operations?: string[] | undefined },
    operation: string,
  ) {
    if (fault.operations && !fault.operations.includes(operation)) return false;
    if (fault.next > 0) {
      const seen = (this.seen.get(fault) ?? 0) + 1;
      this.seen.set(fault, seen);
      if (seen % fault.every === 0) {
        fault.next--;
        return true;
      }
    }
    return this.rng.chance(fault.rate);
  }

  /** Decides the request-level fault for one request: reset, hang, captive portal, gzip bomb, then a 5xx. */
  decide(operation: string): RequestFault | undefined {
    if (this.hits(this.current.resets, operation)) return { kind: 'reset' };
    if (this.hits(this.current.hangs, operation)) return { kind: 'hang' };
    if (this.hits(this.current.captivePortal, operation)) return { kind: 'captive-portal' };
    if (this.hits(this.current.gzipBomb, operation)) return { kind: 'gzip-bomb' };
    if (this.hits(this.current.serverErrors, operation)) {
      return { kind: 'server-error', status: this.current.serverErrors.status };
    }
    return undefined;
  }

  /** Consumes one forced 429; returns its Retry-After (seconds), or undefined when none is due. */
  takeRateLimitBurst(): number | undefined {
    const burst = this.current.rateLimitBurst;
    if (burst.next <= 0) return undefined;
    burst.next--;
    return burst.retryAfterSeconds;
  }

  /** Added latency for one request, in ms (0 when none). */
  latencyMs(operation: string): number {
    const latency = this.current.latency;
    if (!latency || (latency.operations && !latency.operations.includes(operation))) return 0;
    const jitter = latency.jitterMs > 0 ? (this.rng.next() * 2 - 1) * latency.jitterMs : 0;
    return Math.max(0, Math.round(latency.ms + jitter));
  }

  /** Whether staff cancels a command that just reached Processing; the delay in ms if so. */
  cancelOnProcessing(): number | undefined {
    const c = this.current.cancelOnProcessing;
    if (c.next > 0) {
      c.next--;
      return c.delayMs;
    }
    return this.rng.chance(c.probability) ? c.delayMs : undefined;
  }
}
