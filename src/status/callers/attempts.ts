import { type Clock, systemClock } from '../../clock.js';

/**
 * A brake on guessing: wrong login codes, wrong tokens, sessions presented by the wrong person.
 * Each source (the Unix uid of a caller on this PC, the address of one beyond it) may fail
 * `perMinute` times in any 60 s; after that its attempts are refused unseen — a right guess too —
 * until the oldest failure is a minute old. Sources are apart: one that guesses cannot lock
 * another out, so a receptionist keeps her login while another account hammers the page.
 * At most `maxSources` sources are followed; the oldest is forgotten first.
 */

export interface FailedAttemptsOptions {
  clock?: Clock;
  /** Failures allowed per source in any 60 s. Default 10. */
  perMinute?: number;
  maxSources?: number;
}

const WINDOW_MS = 60_000;

export class FailedAttempts {
  private readonly clock: Clock;
  private readonly perMinute: number;
  private readonly maxSources: number;
  private readonly failures = new Map<string, number[]>();

  constructor(options: FailedAttemptsOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.perMinute = options.perMinute ?? 10;
    this.maxSources = options.maxSources ?? 1024;
  }

  /** Milliseconds until `source` may try again, or undefined when it may now. */
  blockedFor(source: string): number | undefined {
    const recent = this.recent(source);
    if (recent.length < this.perMinute) return undefined;
    return Math.max(1, (recent[0] as number) + WINDOW_MS - this.clock.now());
  }

  /** Counts one failure of `source`. */
  failed(source: string): void {
    const recent = this.recent(source);
    recent.push(this.clock.now());
    this.failures.delete(source);
    this.failures.set(source, recent.slice(-this.perMinute));
    for (const oldest of this.failures.keys()) {
      if (this.failures.size <= this.maxSources) break;
      this.failures.delete(oldest);
    }
  }

  private recent(source: string): number[] {
    const since = this.clock.now() - WINDOW_MS;
    const times = (this.failures.get(source) ?? []).filter((at) => at > since);
    if (times.length === 0) this.failures.delete(source);
    return times;
  }
}
