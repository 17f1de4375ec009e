/**
 * Exponential backoff delays shared by the client's retries, the rate budget's 429 penalty and the
 * WebSocket's reconnects. Pure functions of the attempt number and an injected random source, so
 * tests can pin the jitter.
 */

export interface BackoffRange {
  /** Delay of the first attempt before jitter, in ms. */
  minMs: number;
  /** Upper bound of any delay, in ms. */
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
