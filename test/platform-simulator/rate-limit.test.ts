import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { RequestLogEntry } from '../../src/platform-simulator/index.js';
import { SlidingWindowLimiter } from '../../src/platform-simulator/rate-limit.js';
import { call, startSim } from './support.js';

/** Requests that arrived while an earlier 429's Retry-After was still running. */
function sentDuringRetryAfter(log: RequestLogEntry[]): RequestLogEntry[] {
  return log.filter((entry) =>
    log.some(
      (refusal) =>
        refusal.status === 429 &&
        refusal.retryAfterSeconds !== undefined &&
        entry.at > refusal.at &&
        entry.at < refusal.at + refusal.retryAfterSeconds * 1000,
    ),
  );
}

describe('sliding window limiter', () => {
  it('keeps a window per key and frees a slot exactly when the oldest request leaves it', async () => {
    const clock = new ManualClock(0);
    const limiter = new SlidingWindowLimiter(2, 10_000, clock);
    expect(limiter.take('a')).toEqual({ ok: true });
    await clock.advance(3000);
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('b')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 7 });
    await clock.advance(6999);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    await clock.advance(1);
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.used('a')).toBe(2);
  });
});

describe('the platform rate limit', () => {
  it('answers 429 with Retry-After once the window is full, and admits a client that waits that long', async () => {
    const clock = new ManualClock();
    const sim = await startSim({ clock, rateLimit: { requests: 3, windowSeconds: 10 } });
    expect((await call(sim, 'devices/getAll')).status).toBe(200);
    expect((await call(sim, 'devices/getAll')).status).toBe(200);
    await clock.advance(4000);
    expect((await call(sim, 'commands/getAllActive')).status).toBe(200);
    const refused = await call(sim, 'devices/getAll');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('6');
    expect(refused.headers.get('request-id')).toBeTruthy();
    expect(refused.body.RequestId).toBe(refused.headers.get('request-id'));

    await clock.advance(6000);
    expect((await call(sim, 'devices/getAll')).status).toBe(200);
    expect((await call(sim, 'devices/getAll')).status).toBe(200);
    const again = await call(sim, 'devices/getAll');
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('4');

    const counters = sim.counters();
    expect(counters.rateLimited).toBe(2);
    expect(counters.requests.byOperation['devices/getAll']).toEqual({ '200': 4, '429': 2 });
    expect(counters.requests.byOperation['commands/getAllActive']).toEqual({ '200': 1 });
    expect(counters.requests.total).toBe(7);
    expect(sentDuringRetryAfter(sim.requestLog())).toEqual([]);
  });

  it('lets the request log prove whether anything was sent during a Retry-After', async () => {
    const clock = new ManualClock();
    const sim = await startSim({ clock, rateLimit: { requests: 1, windowSeconds: 30 } });
    await call(sim, 'devices/getAll');
    const refused = await call(sim, 'devices/getAll');
    expect(refused.headers.get('retry-after')).toBe('30');
    await clock.advance(10_000);
    await call(sim, 'devices/getAll');
    const log = sim.requestLog();
    expect(log.map((e) => [e.at - (log[0]?.at ?? 0), e.operation, e.status])).toEqual([
      [0, 'devices/getAll', 200],
      [0, 'devices/getAll', 429],
      [10_000, 'devices/getAll', 429],
    ]);
    expect(sentDuringRetryAfter(log)).toEqual([log[2]]);
  });

  it('does not count refused tokens against the window', async () => {
    const sim = await startSim({ rateLimit: { requests: 1, windowSeconds: 30 } });
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await call(
            sim,
            'devices/getAll',
            { ClientToken: 'x', AccessToken: 'y', Client: 'c 1' },
            { raw: true },
          )
        ).status,
      ).toBe(401);
    }
    expect((await call(sim, 'devices/getAll')).status).toBe(200);
  });

  it('takes its limit from the scenario', async () => {
    const sim = await startSim({ scenario: { platform: { rateLimit: { requests: 2, windowSeconds: 60 } } } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(sim, 'devices/getAll')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('forces 429 bursts by fault: the next N requests, with the given Retry-After', async () => {
    const sim = await startSim();
    sim.setFaults({ rateLimitBurst: { next: 2, retryAfterSeconds: 7 } });
    const first = await call(sim, 'commands/getAllActive');
    const second = await call(sim, 'devices/getAll');
    const third = await call(sim, 'devices/getAll');
    expect([first.status, second.status, third.status]).toEqual([429, 429, 200]);
    expect(first.headers.get('retry-after')).toBe('7');
    expect(sim.counters().rateLimited).toBe(2);
    expect(sim.counters().faults['rate-limit-burst']).toBe(2);
    expect(sim.requestLog().map((e) => e.fault)).toEqual(['rate-limit-burst', 'rate-limit-burst', undefined]);
  });
});
