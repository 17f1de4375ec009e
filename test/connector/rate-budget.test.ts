import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import {
  createConnectorClient,
  RateBudget,
  type RequestPriority,
  type RequestRecord,
} from '../../src/connector/index.js';
import { eventually } from '../helpers/eventually.js';
import { BASE_URL, recordingFetch, reply, SAMPLE } from './fake-platform.js';

/** Starts `acquire` calls and records the order in which they are granted. */
function track(budget: RateBudget) {
  const granted: string[] = [];
  const take = (name: string, priority: RequestPriority = 'normal', signal?: AbortSignal) =>
    budget.acquire(priority, signal).then(() => {
      granted.push(name);
    });
  return { granted, take };
}

describe('RateBudget', () => {
  it('derives its share of the limit from reserveShare', () => {
    expect(new RateBudget().limit).toBe(200);
    expect(new RateBudget({ requests: 200, reserveShare: 0.1 }).limit).toBe(180);
    expect(new RateBudget({ requests: 200, reserveShare: 0.25 }).limit).toBe(150);
    expect(new RateBudget({ requests: 3, reserveShare: 0.9 }).limit).toBe(1);
    expect(new RateBudget({ windowSeconds: 30 }).windowMs).toBe(30_000);
    expect(() => new RateBudget({ requests: 0 })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
    expect(() => new RateBudget({ reserveShare: 1 })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });

  it('grants up to the limit at once, then waits for the oldest request to leave the window', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget({ requests: 3, windowSeconds: 10, clock });
    const { granted, take } = track(budget);
    void take('a');
    await clock.advance(4000);
    void take('b');
    void take('c');
    void take('d');
    void take('e');
    await clock.advance(0);
    expect(granted).toEqual(['a', 'b', 'c']);
    expect(budget.snapshot()).toEqual({ used: 3, limit: 3, windowMs: 10_000, waiting: 2 });
    await clock.advance(5999);
    expect(granted).toEqual(['a', 'b', 'c']);
    await clock.advance(1); // a (t=0) leaves the window at t=10 s
    expect(granted).toEqual(['a', 'b', 'c', 'd']);
    await clock.advance(3999);
    expect(granted).toHaveLength(4);
    await clock.advance(1); // b (t=4 s) leaves at t=14 s
    expect(granted).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(budget.snapshot().waiting).toBe(0);
  });

  it('serves waiters by priority, FIFO within one priority', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget({ requests: 1, windowSeconds: 1, clock });
    const { granted, take } = track(budget);
    void take('first');
    void take('discovery-1', 'discovery');
    void take('normal-1', 'normal');
    void take('result-1', 'result');
    void take('normal-2', 'normal');
    void take('discovery-2', 'discovery');
    void take('result-2', 'result');
    for (let i = 0; i < 7; i++) await clock.advance(1000);
    expect(granted).toEqual([
      'first',
      'result-1',
      'result-2',
      'normal-1',
      'normal-2',
      'discovery-1',
      'discovery-2',
    ]);
  });

  it('drops an aborted waiter without consuming budget', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget({ requests: 1, windowSeconds: 1, clock });
    const { granted, take } = track(budget);
    void take('first');
    const controller = new AbortController();
    const aborted = take('aborted', 'result', controller.signal);
    void take('next');
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(budget.snapshot().waiting).toBe(1);
    await clock.advance(1000);
    expect(granted).toEqual(['first', 'next']);
    await expect(budget.acquire('normal', AbortSignal.abort())).rejects.toBeDefined();
  });

  it('blockFor holds everything until the block has passed', async () => {
    const clock = new ManualClock();
    const budget = new RateBudget({ clock });
    const { granted, take } = track(budget);
    budget.blockFor(5000);
    void take('a', 'result');
    await clock.advance(4999);
    expect(granted).toEqual([]);
    expect(budget.snapshot().blockedUntil).toBe(clock.now() + 1);
    await clock.advance(1);
    expect(granted).toEqual(['a']);
    expect(budget.snapshot().blockedUntil).toBeUndefined();
  });

  it('after a 429 without Retry-After backs off exponentially with jitter, reset by success', () => {
    const clock = new ManualClock();
    const budget = new RateBudget({ clock, random: () => 1, penalty: { minMs: 1000, maxMs: 8000 } });
    expect([1, 2, 3, 4, 5].map(() => budget.noteRateLimited())).toEqual([1000, 2000, 4000, 8000, 8000]);
    budget.noteAccepted();
    expect(budget.noteRateLimited()).toBe(1000);
    expect(budget.noteRateLimited(7000)).toBe(7000);
    const low = new RateBudget({ clock, random: () => 0, penalty: { minMs: 1000, maxMs: 8000 } });
    expect([low.noteRateLimited(), low.noteRateLimited()]).toEqual([500, 1000]);
  });
});

describe('the client on its rate budget (ManualClock)', () => {
  it('honours Retry-After: nothing is sent on the budget before it has passed', async () => {
    const clock = new ManualClock();
    const platform = recordingFetch((request, i) => {
      if (i === 0) return reply(429, { Message: 'Too many requests' }, { 'Retry-After': '5' });
      return reply(200, request.operation === 'devices/getAll' ? { Devices: [] } : { Commands: [] });
    });
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch, clock });
    const first = api.devices();
    await eventually(
      'api.budget.snapshot().blockedUntil !== undefined',
      () => api.budget.snapshot().blockedUntil !== undefined,
    );
    const second = api.activeCommands({ priority: 'result' });
    await clock.advance(4999);
    expect(platform.seen).toHaveLength(1);
    expect(api.budget.snapshot().waiting).toBe(2);
    await clock.advance(1);
    await expect(first).resolves.toEqual([]);
    await expect(second).resolves.toEqual([]);
    // The retry of the 429 and the later call, the latter first by priority.
    expect(platform.seen.map((s) => s.operation)).toEqual([
      'devices/getAll',
      'commands/getAllActive',
      'devices/getAll',
    ]);
  });

  it('waits for budget instead of earning a 429, and reports the wait', async () => {
    const clock = new ManualClock();
    const records: RequestRecord[] = [];
    const platform = recordingFetch(() => reply(200, { Devices: [] }));
    const api = createConnectorClient({
      baseUrl: BASE_URL,
      ...SAMPLE,
      fetch: platform.fetch,
      clock,
      rateLimit: { requests: 4, windowSeconds: 10, reserveShare: 0.5 },
      onRequest: (r) => records.push(r),
    });
    const calls = [api.devices(), api.devices(), api.devices()];
    await eventually(
      'platform.seen.length === 2 && api.budget.snapshot().waiting === 1',
      () => platform.seen.length === 2 && api.budget.snapshot().waiting === 1,
    );
    await clock.advance(9999);
    expect(platform.seen).toHaveLength(2);
    await clock.advance(1);
    await Promise.all(calls);
    expect(platform.seen).toHaveLength(3);
    expect(records.map((r) => r.budgetWaitMs).sort((a, b) => a - b)).toEqual([0, 0, 10_000]);
  });

  it('a caller aborting while queued for budget gets ABORTED and sends nothing', async () => {
    const clock = new ManualClock();
    const platform = recordingFetch(() => reply(200, { Devices: [] }));
    const api = createConnectorClient({
      baseUrl: BASE_URL,
      ...SAMPLE,
      fetch: platform.fetch,
      clock,
      rateLimit: { requests: 1, windowSeconds: 30 },
    });
    await api.devices();
    const controller = new AbortController();
    const queued = api.devices({ signal: controller.signal, priority: 'discovery' });
    await eventually('api.budget.snapshot().waiting === 1', () => api.budget.snapshot().waiting === 1);
    controller.abort();
    await expect(queued).rejects.toMatchObject({ code: 'ABORTED' });
    expect(api.budget.snapshot()).toMatchObject({ used: 1, waiting: 0 });
    await clock.advance(30_000);
    expect(platform.seen).toHaveLength(1);
  });

  it('shares one budget between clients of the same token', async () => {
    const clock = new ManualClock();
    const platform = recordingFetch(() => reply(200, { Devices: [] }));
    const a = createConnectorClient({
      baseUrl: BASE_URL,
      ...SAMPLE,
      fetch: platform.fetch,
      clock,
      rateLimit: { requests: 1, windowSeconds: 1 },
    });
    const b = createConnectorClient({
      baseUrl: BASE_URL,
      ...SAMPLE,
      fetch: platform.fetch,
      clock,
      budget: a.budget,
    });
    expect(b.budget).toBe(a.budget);
    const both = Promise.all([a.devices(), b.devices()]);
    await eventually(
      'platform.seen.length === 1 && a.budget.snapshot().waiting === 1',
      () => platform.seen.length === 1 && a.budget.snapshot().waiting === 1,
    );
    await clock.advance(1000);
    await both;
    expect(platform.seen).toHaveLength(2);
  });
});
