import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createConnectorClient } from '../../src/connector/client.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Regression test for a leak the benchmark found (the agent's live heap after a forced GC kept
 * growing, ~0.45 MB per 1,000 commands; a heap-snapshot diff over 4,000 commands showed +17,873
 * WeakRef objects, about one per request; fixed in 708917d and ae23eee): `exchange()` combined the
 * caller's signal with its timeout through `AbortSignal.any()`. The caller's signal is long-lived
 * (the outbox's and the intake's stop signals), and on Node 20 a long-lived source keeps a
 * reference to every signal ever combined with it (https://github.com/nodejs/node/issues/55351),
 * so a daemon meant to run for months grew without bound (10,000 of 10,000 finished requests
 * still tracked). A finished request must leave nothing behind on the caller's signal.
 *
 * The test reads Node's own bookkeeping of "signals that follow this one" (the internal
 * `kDependantSignals` set, created on a signal the first time `AbortSignal.any()` combines it)
 * because that count is exact, where a heap figure over a few seconds is noisy. No such set means
 * nothing follows the signal.
 */

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function followers(signal: AbortSignal): number {
  gc();
  const key = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kDependantSignals');
  const set = key ? (signal as unknown as Record<symbol, { size?: unknown } | undefined>)[key] : undefined;
  return typeof set?.size === 'number' ? set.size : 0;
}

describe('connector requests with a long-lived signal (found by the benchmark)', () => {
  it('leave nothing behind on the caller’s signal once finished', async () => {
    const stop = new AbortController(); // lives as long as the agent, like the outbox's
    const client = createConnectorClient({
      baseUrl: 'http://127.0.0.1:9',
      clientToken: 'LEAK-CLIENT',
      accessToken: 'LEAK-ACCESS',
      client: 'leak-test 1.0',
      rateLimit: { requests: 1_000_000, windowSeconds: 0.05 },
      requestTimeoutMs: 100,
      fetch: async () => new Response('{"Commands": []}', { status: 200, headers: { 'Request-Id': 'r' } }),
    });
    const requests = 10_000;
    for (let i = 0; i < requests; i++) await client.activeCommands({ signal: stop.signal });
    // Once every request's timeout timer has fired, only what the long-lived signal keeps can
    // remain: a leak keeps ~one per request for good, so waiting cannot hide it (the safety net
    // then names the count).
    const kept = await eventually(
      () =>
        `the caller's signal to let go of the signals of ${requests} finished requests (${followers(stop.signal)} still tracked)`,
      () => {
        const kept = followers(stop.signal);
        return kept < 100 ? kept : false;
      },
      { intervalMs: 100 },
    );
    expect(
      kept,
      `the caller's signal still tracks ${kept} signals of ${requests} finished requests`,
    ).toBeLessThan(100);
  }, 30_000);
});
