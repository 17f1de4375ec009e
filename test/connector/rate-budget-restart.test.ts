import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { Journal } from '../../src/commands/journal/index.js';
import { createHttpFetch } from '../../src/connector/http-transport.js';
import { createConnectorClient, type FetchLike, RateBudget } from '../../src/connector/index.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Issue 26.1: the rate budget survives a restart. A crash loop under systemd (`kill -9`, started
 * again within a second) used to start each process with an empty budget: a window's worth of
 * requests per start, 429 answers, and a request inside a running `Retry-After`. Each "process"
 * here is what a restart leaves: the same journal file opened again and a new client on it; the
 * killed one's waiting requests are aborted (a killed process sends nothing more). The platform
 * is the simulator (its sliding window and forced 429s), on the same ManualClock as the agent.
 */

const KEY_CUTTER = {
  id: 'c0000000-0000-4000-8000-0000000000b1',
  type: 'KeyCutter' as const,
  name: 'E',
  keyCutterId: '1',
};

let dir: string;
let sim: PlatformSimulator | undefined;
const journals: Journal[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'budget-restart-'));
});

afterEach(async () => {
  for (const journal of journals.splice(0)) if (!journal.closed) journal.close();
  await sim?.close();
  sim = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** One agent process: the journal reopened and a client whose budget starts from it. */
function startProcess(
  clock: ManualClock,
  platform: PlatformSimulator,
  options: { requests: number; fetch?: FetchLike } = { requests: 10 },
) {
  const journal = new Journal(join(dir, 'journal.db'), { now: () => clock.now() });
  journals.push(journal);
  const life = new AbortController();
  const api = createConnectorClient({
    baseUrl: platform.url,
    ...platform.tokens,
    client: 'frontdesk-agent test',
    clock,
    rateLimit: { requests: options.requests, windowSeconds: 30 },
    budgetStore: journal.rateBudget,
    retries: 0,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const outcomes: Array<'ok' | string> = [];
  const send = (n: number) => {
    for (let i = 0; i < n; i++) {
      api.devices({ signal: life.signal }).then(
        () => outcomes.push('ok'),
        (e: { code?: string }) => outcomes.push(e.code ?? 'error'),
      );
    }
  };
  /** `kill -9`: nothing more leaves this process; its journal is left as it is. */
  const kill = () => {
    life.abort();
    journal.close();
  };
  return { api, send, kill, outcomes };
}

describe('RateBudget with a store: what a restart keeps', () => {
  it('a slot the killed process never saw answered counts from the restart', async () => {
    const clock = new ManualClock();
    const journal = new Journal(join(dir, 'journal.db'));
    journals.push(journal);
    const first = new RateBudget({ clock, requests: 1, windowSeconds: 30, store: journal.rateBudget });
    await first.acquire('normal'); // granted, never settled: the process dies with it on the wire
    await clock.advance(25_000);
    const second = new RateBudget({ clock, requests: 1, windowSeconds: 30, store: journal.rateBudget });
    expect(second.snapshot().used).toBe(1);
    let granted = false;
    void second.acquire('normal').then(() => {
      granted = true;
    });
    // The platform may have counted it as late as the old process's death, before this start.
    await clock.advance(29_999);
    expect(granted).toBe(false);
    await clock.advance(1);
    expect(granted).toBe(true);
  });

  it('an answer to a request sent before the 429 does not end the saved wait (bench/crash-loop.ts)', async () => {
    // Found by the crash loop on a quiet machine: the requests on the wire when the 429 came were
    // answered 200 after it, and each of those answers erased the journaled block; a start 1.5 s
    // later sent at once, inside the 5 s Retry-After (179 requests in the bench).
    const clock = new ManualClock();
    const journal = new Journal(join(dir, 'journal.db'));
    journals.push(journal);
    const first = new RateBudget({ clock, requests: 10, windowSeconds: 30, store: journal.rateBudget });
    const limitedSlot = await first.acquire('normal');
    const onWireSlot = await first.acquire('normal');
    const onWireSentAt = clock.now();
    await clock.advance(20);
    limitedSlot();
    first.noteRateLimited(5_000);
    const until = clock.now() + 5_000;
    await clock.advance(5);
    onWireSlot();
    first.noteAccepted(onWireSentAt);
    expect(first.snapshot().blockedUntil).toBe(until);
    expect(first.rateLimitState()).toMatchObject({ reason: 'retry-after' });

    await clock.advance(1_500); // killed, started again by systemd
    const second = new RateBudget({ clock, requests: 10, windowSeconds: 30, store: journal.rateBudget });
    expect(second.snapshot().blockedUntil).toBe(until);
    let granted = false;
    void second.acquire('normal').then(() => {
      granted = true;
    });
    await clock.advance(until - clock.now() - 1);
    expect(granted).toBe(false);
    await clock.advance(1);
    expect(granted).toBe(true);
  });

  it('a capped wait that ran out while no process ran still ends with one probe alone', async () => {
    const clock = new ManualClock();
    const journal = new Journal(join(dir, 'journal.db'));
    journals.push(journal);
    const first = new RateBudget({ clock, store: journal.rateBudget, maxRetryAfterSeconds: 60 });
    first.noteRateLimited(86_400_000);
    await clock.advance(120_000);
    const second = new RateBudget({ clock, store: journal.rateBudget, maxRetryAfterSeconds: 60 });
    expect(second.rateLimitState()).toMatchObject({ reason: 'retry-after-capped', count: 1 });
    const granted: string[] = [];
    for (const name of ['probe', 'next']) void second.acquire('normal').then(() => granted.push(name));
    await clock.advance(0);
    expect(granted).toEqual(['probe']);
    second.noteAccepted();
    await clock.advance(0);
    expect(granted).toEqual(['probe', 'next']);
    const third = new RateBudget({ clock, store: journal.rateBudget });
    expect(third.rateLimitState()).toBeUndefined();
  });
});

describe('a crash loop against the platform simulator (ManualClock)', () => {
  it('five starts within one window never send more than the window allows: no 429', async () => {
    const clock = new ManualClock();
    sim = await startPlatformSimulator({
      clock,
      rateLimit: { requests: 10, windowSeconds: 30 },
      scenario: { devices: [KEY_CUTTER] },
    });
    const platform = sim;
    // Each start sends 4 requests at once (its catch-ups), then is killed 2 s later.
    const expectedSent = [4, 8, 10, 10, 10];
    for (const sent of expectedSent) {
      const agent = startProcess(clock, platform);
      agent.send(4);
      await eventually(`${sent} requests answered by the platform, the rest waiting`, () => {
        const waiting = agent.api.budget.snapshot().waiting;
        return platform.requestLog().length === sent && agent.outcomes.length + waiting === 4;
      });
      await clock.advance(2_000);
      agent.kill();
    }
    expect(platform.requestLog().map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(platform.counters().rateLimited).toBe(0);

    // The window has passed for the oldest: the next start goes on where the platform allows.
    await clock.advance(20_000);
    const last = startProcess(clock, platform);
    last.send(4);
    await eventually('the last start answered', () => last.outcomes.length === 4 && last.outcomes);
    expect(last.outcomes).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(platform.counters().rateLimited).toBe(0);
  });

  it('a start inside a running Retry-After sends nothing until it has passed', async () => {
    const clock = new ManualClock();
    sim = await startPlatformSimulator({ clock, scenario: { devices: [KEY_CUTTER] } });
    const platform = sim;
    platform.setFaults({ rateLimitBurst: { next: 1, retryAfterSeconds: 20 } });
    const first = startProcess(clock, platform);
    first.send(1);
    await eventually('the 429', () => first.outcomes.length === 1 && first.outcomes, { timeoutMs: 5000 });
    expect(first.outcomes).toEqual(['RATE_LIMITED']);
    await clock.advance(1_000);
    first.kill();

    for (let start = 0; start < 3; start++) {
      const agent = startProcess(clock, platform);
      agent.send(2);
      await eventually('its requests wait', () => agent.api.budget.snapshot().waiting === 2);
      expect(agent.api.budget.rateLimitState()).toMatchObject({ askedMs: 20_000, reason: 'retry-after' });
      await clock.advance(5_000);
      agent.kill();
    }
    expect(platform.requestLog()).toHaveLength(1);

    const after = startProcess(clock, platform);
    after.send(2);
    await clock.advance(3_999); // 1 s + 3 × 5 s + 3.999 s: still inside the 20 s
    expect(platform.requestLog()).toHaveLength(1);
    await clock.advance(1);
    await eventually('sent after the wait', () => after.outcomes.length === 2 && after.outcomes);
    const [limited, ...rest] = platform.requestLog();
    expect(rest.every((r) => r.at >= (limited?.at ?? 0) + 20_000)).toBe(true);
    expect(platform.counters().rateLimited).toBe(1);
  });
});

describe('after a 429 arrives, nothing leaves until the wait is over', () => {
  /**
   * How requests already on the wire are told apart: the transport below writes one event list,
   * in the order things happen in the agent — `send` when a request is handed to the network,
   * `429` when a 429's status line comes back. A `send` before the first `429` event was on the
   * wire when the platform answered (nothing could hold it); every `send` after it must come at
   * or after the end of the wait.
   */
  it('the requests on the wire get their 429s; the next one waits out Retry-After', async () => {
    const clock = new ManualClock();
    // The platform allows 3 where the agent believes it may send 10 (another program on the token).
    sim = await startPlatformSimulator({
      clock,
      rateLimit: { requests: 3, windowSeconds: 30 },
      scenario: { devices: [KEY_CUTTER] },
    });
    const platform = sim;
    const http = createHttpFetch();
    const events: Array<{ kind: 'send' | '429'; at: number }> = [];
    const fetch: FetchLike = async (url, init) => {
      events.push({ kind: 'send', at: clock.now() });
      const answer = await http(url, init);
      if (answer.status === 429) events.push({ kind: '429', at: clock.now() });
      return answer;
    };
    const agent = startProcess(clock, platform, { requests: 10, fetch });
    agent.send(6);
    await eventually('six answers', () => agent.outcomes.length === 6 && agent.outcomes);
    expect(agent.outcomes.filter((o) => o === 'RATE_LIMITED')).toHaveLength(3);
    const first429 = events.findIndex((e) => e.kind === '429');
    expect(events.slice(0, first429).filter((e) => e.kind === 'send')).toHaveLength(6); // all on the wire

    const blockedUntil = agent.api.budget.snapshot().blockedUntil ?? 0;
    expect(blockedUntil).toBe(clock.now() + 30_000);
    agent.send(1);
    await eventually('it waits', () => agent.api.budget.snapshot().waiting === 1);
    await clock.advance(29_999);
    expect(events.filter((e) => e.kind === 'send')).toHaveLength(6);
    await clock.advance(1);
    await eventually('sent after the wait', () => agent.outcomes.length === 7 && agent.outcomes);
    expect(agent.outcomes[6]).toBe('ok');
    const late = events.slice(first429 + 1).filter((e) => e.kind === 'send');
    expect(late.length).toBe(1);
    expect(late.every((e) => e.at >= blockedUntil)).toBe(true);
  });
});
