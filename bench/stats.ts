/** Small statistics helpers for the benchmark; pure functions. */

/** The p-th percentile (0..100) by the nearest-rank method; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/**
 * The sliding window's floor: the earliest time (ms after `startMs`) at which the last of
 * `requests` requests can go when at most `limit` go in any `windowMs`, given the requests already
 * in the window at the start (`prior`, epoch ms). Request k goes no earlier than `startMs` and no
 * earlier than request k − limit plus one window (the prior ones count as the requests before the
 * first). Also returns when each request can go at the earliest (`times`, ms after `startMs`), for
 * the chart.
 */
export function slidingWindowFloor(
  prior: readonly number[],
  startMs: number,
  requests: number,
  limit: number,
  windowMs: number,
): { floorMs: number; times: number[] } {
  const sent = prior.filter((t) => t > startMs - windowMs && t <= startMs).sort((a, b) => a - b);
  const times: number[] = [];
  let last = startMs;
  for (let k = 0; k < requests; k++) {
    const earlier = sent[sent.length - limit];
    const at = Math.max(last, earlier === undefined ? startMs : earlier + windowMs);
    sent.push(at);
    times.push(at - startMs);
    last = at;
  }
  return { floorMs: last - startMs, times };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
