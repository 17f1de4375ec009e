import type { Clock } from '../clock.js';

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * The platform's rate limit: at most `limit` requests per key (the access token) in any window
 * of `windowMs`, sliding. Only admitted requests occupy the window. A refusal carries the
 * `Retry-After` in whole seconds, rounded up so that a client waiting exactly that long is
 * admitted (the oldest request has left the window by then).
 */
export class SlidingWindowLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Admits and records one request for `key`, or tells how long to wait. */
  take(key: string): RateDecision {
    const now = this.clock.now();
    const stamps = (this.windows.get(key) ?? []).filter((t) => t + this.windowMs > now);
    this.windows.set(key, stamps);
    if (stamps.length < this.limit) {
      stamps.push(now);
      return { ok: true };
    }
    const oldest = stamps[0] as number;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
  }

  /** Requests of `key` currently in the window. */
  used(key: string): number {
    const now = this.clock.now();
    return (this.windows.get(key) ?? []).filter((t) => t + this.windowMs > now).length;
  }

  reset(): void {
    this.windows.clear();
  }
}
