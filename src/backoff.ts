/**
 * The agent's one backoff: exponential delays for everything that waits before trying again —
 * the connector's retries of one request, the rate budget's 429 penalty, the WebSocket's and the
 * encoder's reconnects, the outbox's long-lived delivery loop, the engine's device and re-read
 * retries (decided by the command machine) and the drivers' busy devices. Pure functions of the
 * attempt number and an injected random source, so tests can pin the jitter; `Backoff` keeps the
 * count for a loop that runs until it succeeds.
 */

export interface BackoffRange {
  /** Delay of the first attempt before jitter, in ms. */
  minMs: number;
  /** Upper bound of any delay, in ms (`Infinity` for none). */
  maxMs: number;
}

/** A source of uniform numbers in [0, 1); `Math.random` unless a test injects its own. */
export type RandomSource = () => number;

/** `min(maxMs, minMs × 2^attempt)`; attempt 0 is the first retry. */
export function backoffCeiling(attempt: number, range: BackoffRange): number {
  const exponent = Math.max(0, Math.min(attempt, 30));
  return Math.min(range.maxMs, range.minMs * 2 ** exponent);
}

/**
 * "Equal jitter": half of the ceiling plus a random half. Never shorter than half the ceiling,
 * so retries cannot collapse into a burst, yet callers sharing a token spread out.
 */
export function equalJitterDelay(attempt: number, range: BackoffRange, random: RandomSource): number {
  const ceiling = backoffCeiling(attempt, range);
  return Math.round(ceiling / 2 + clampUnit(random()) * (ceiling / 2));
}

/** "Full jitter": uniform in [0, ceiling]. Used for reconnects, where herds are the danger. */
export function fullJitterDelay(attempt: number, range: BackoffRange, random: RandomSource): number {
  return Math.round(clampUnit(random()) * backoffCeiling(attempt, range));
}

function clampUnit(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0.5;
}

/**
 * The delays of a loop that tries until it succeeds (a reconnect, the outbox's deliveries, a read
 * that waits for the platform): `next()` is the delay before the next try and counts a failure,
 * `reset()` starts again from `minMs` after a success. Without jitter unless `random` is given
 * (then equal jitter).
 */
export class Backoff {
  private count = 0;

  constructor(
    private readonly range: BackoffRange,
    private readonly random?: RandomSource,
  ) {}

  /** Failures since the last reset. */
  get failures(): number {
    return this.count;
  }

  /** The delay before the next try; counts one more failure. */
  next(): number {
    const attempt = this.count++;
    return this.random
      ? equalJitterDelay(attempt, this.range, this.random)
      : backoffCeiling(attempt, this.range);
  }

  /** The delay `next()` would return, without counting (for a log line). */
  peek(): number {
    return backoffCeiling(this.count, this.range);
  }

  reset(): void {
    this.count = 0;
  }
}
