import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { parseRetryAfter } from '../../src/connector/http-errors.js';
import { createConnectorClient, RateBudget } from '../../src/connector/index.js';
import { startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { eventually } from '../helpers/eventually.js';
import { BASE_URL, recordingFetch, reply, SAMPLE } from './fake-platform.js';

/**
 * Issue 13.4: one `429` with `Retry-After: 86400` used to stop every request for a day. The wait
 * is capped (`platform.rateLimit.maxRetryAfterSeconds`, default 300 s), then one probe request goes
 * out alone; another 429 waits again (capped), any other answer lets everything go.
 */

const DAY_MS = 86_400_000;

const CAP_MS = 300_000;

function grants(budget: RateBudget) {
  const granted: string[] = [];
  const settles = new Map<string, () => void>();
  const take = (name: string) =>
    void budget.acquire('normal').then((settle) => {
      granted.push(name);
      settles.set(name, settle);
    });
  return { granted, take, settle: (name: string) => settles.get(name)?.() };
}

describe('RateBudget: Retry-After capped, then one probe', () => {
  it('caps a day-long Retry-After at 5 minutes and says so', () => {
    const clock = new ManualClock();
    const budget = new RateBudget({ clock });
    expect(budget.noteRateLimited(DAY_MS)).toBe(CAP_MS);
    expect(budget.rateLimitState()).toEqual({
      since: clock.now(),
      lastAt: clock.now(),
      count: 1,
      askedMs: DAY_MS,
      waitMs: CAP_MS,
      reason: 'retry-after-capped',
      blockedUntil: clock.now() + CAP_MS,
      probing: false,
    });
    expect(budget.snapshot().blockedUntil).toBe(clock.now() + CAP_MS);
    const short = new RateBudget({ clock });
    expect(short.noteRateLimited(5000)).toBe(5000);
    expect(short.rateLimitState()?.reason).toBe('retry-after');
    const configured = new RateBudget({ clock, maxRetryAfterSeconds: 60 });
    expect(configured.noteRateLimited(DAY_MS)).toBe(60_000);
    expect(() => new RateBudget({ maxRetryAfterSeconds: 0 })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });

  it('after the wait sends one probe alone; a 429 to it waits again, an accepted answer frees the rest', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget({ clock });
    const { granted, take, settle } = grants(budget);
    const t0 = clock.now();
    budget.noteRateLimited(DAY_MS);
    for (const name of ['a', 'b', 'c']) take(name);
    await clock.advance(CAP_MS - 1);
    expect(granted).toEqual([]);
    await clock.advance(1);
    expect(granted).toEqual(['a']);
    expect(budget.rateLimitState()?.probing).toBe(true);
    await clock.advance(60_000);
    expect(granted).toEqual(['a']);

    // The probe earns another 429: settled and reported in the same step, as exchange.ts does.
    settle('a');
    budget.noteRateLimited(DAY_MS);
    await clock.advance(CAP_MS - 1);
    expect(granted).toEqual(['a']);
    expect(budget.rateLimitState()).toMatchObject({ count: 2, since: t0 });
    await clock.advance(1);
    expect(granted).toEqual(['a', 'b']);

    settle('b');
    budget.noteAccepted();
    await clock.advance(0);
    expect(granted).toEqual(['a', 'b', 'c']);
    expect(budget.rateLimitState()).toBeUndefined();
  });

  it('a probe that gets no answer at all hands the probe to the next waiter', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget({ clock });
    const { granted, take, settle } = grants(budget);
    budget.noteRateLimited(DAY_MS);
    for (const name of ['a', 'b', 'c']) take(name);
    await clock.advance(CAP_MS);
    expect(granted).toEqual(['a']);
    settle('a'); // a network failure: neither noteAccepted nor noteRateLimited
    await clock.advance(0);
    expect(granted).toEqual(['a', 'b']);
    expect(budget.rateLimitState()?.probing).toBe(true);
  });

  it('after a Retry-After it could honour in full, lets everyone go at once, as before', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget({ clock });
    const { granted, take } = grants(budget);
    budget.noteRateLimited(CAP_MS);
    for (const name of ['a', 'b', 'c']) take(name);
    await clock.advance(CAP_MS);
    expect(granted).toEqual(['a', 'b', 'c']);
    expect(budget.rateLimitState()).toMatchObject({ reason: 'retry-after', probing: false });
  });

  it('reads an absurd Retry-After as very long, never as absent', () => {
    expect(parseRetryAfter('9'.repeat(400), 0)).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseRetryAfter('86400', 0)).toBe(DAY_MS);
    expect(parseRetryAfter('Fri, 31 Dec 9999 23:59:59 GMT', 0)).toBeGreaterThan(DAY_MS);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });
});

describe('the client after a Retry-After of a day (ManualClock)', () => {
  it('sends one probe after 5 minutes, waits again on another 429, then goes on', async () => {
    const clock = new ManualClock();
    let limiting = 2;
    const platform = recordingFetch(() => {
      if (limiting > 0) {
        limiting--;
        return reply(429, { Message: 'Too many requests' }, { 'Retry-After': '86400' });
      }
      return reply(200, { Devices: [] });
    });
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch, clock });
    const first = api.devices();
    await eventually(
      'api.budget.snapshot().blockedUntil !== undefined',
      () => api.budget.snapshot().blockedUntil !== undefined,
    );
    const others = [api.devices(), api.devices()];
    await eventually('api.budget.snapshot().waiting === 3', () => api.budget.snapshot().waiting === 3);
    await clock.advance(CAP_MS - 1);
    expect(platform.seen).toHaveLength(1);
    await clock.advance(1);
    await eventually(
      'api.budget.rateLimitState()?.count === 2',
      () => api.budget.rateLimitState()?.count === 2,
    );
    expect(platform.seen).toHaveLength(2);
    await clock.advance(CAP_MS);
    await expect(first).resolves.toEqual([]);
    await expect(Promise.all(others)).resolves.toEqual([[], []]);
    expect(platform.seen).toHaveLength(5);
    expect(api.budget.rateLimitState()).toBeUndefined();
  });
});

describe('against the platform simulator', () => {
  it('a 429 burst with Retry-After 86400 costs 5 minutes, not a day', async () => {
    const sim = await startPlatformSimulator({
      scenario: {
        devices: [
          { id: 'c0000000-0000-4000-8000-0000000000b1', type: 'KeyCutter', name: 'E', keyCutterId: '1' },
        ],
      },
    });
    try {
      sim.setFaults({ rateLimitBurst: { next: 1, retryAfterSeconds: 86_400 } });
      const clock = new ManualClock();
      const api = createConnectorClient({
        baseUrl: sim.url,
        ...sim.tokens,
        client: 'frontdesk-agent test',
        clock,
      });
      const devices = api.devices();
      await eventually('the 429 noted by the budget', () => api.budget.rateLimitState() !== undefined);
      expect(api.budget.rateLimitState()).toMatchObject({ askedMs: DAY_MS, waitMs: CAP_MS });
      await clock.advance(CAP_MS);
      expect((await devices).length).toBe(1);
      expect(sim.requestLog().map((r) => [r.status, r.retryAfterSeconds ?? null])).toEqual([
        [429, 86_400],
        [200, null],
      ]);
    } finally {
      await sim.close();
    }
  });
});
