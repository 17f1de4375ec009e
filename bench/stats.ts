/** Small statistics helpers for the benchmark; pure functions. */

/** The p-th percentile (0..100) by the nearest-rank method; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/**
 * The least wall time in which `requests` requests fit a sliding window of `limit` per
 * `windowMs`, starting with an empty window: bursts of `limit` at 0, W, 2W … so the last one goes
 * at (⌈requests / limit⌉ − 1) × W.
 */
export function budgetFloorMs(requests: number, limit: number, windowMs: number): number {
  return Math.max(0, Math.ceil(requests / limit) - 1) * windowMs;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
