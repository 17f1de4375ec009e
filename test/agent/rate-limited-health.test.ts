import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { LOCAL_TOKENS, type LocalPlatformAgent, startLocalPlatformAgent } from './local-platform.js';

/**
 * Issue 13.4 seen from outside: while the platform keeps answering 429 the status page and
 * `/metrics` say why and until when, and `/healthz` turns 503 after 3 minutes; one probe every
 * 5 minutes (not one request a day) finds the platform back.
 */

const CAP_MS = 300_000;

describe('a rate-limited agent', () => {
  let running: LocalPlatformAgent | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('shows the cause on the page and in /metrics, turns /healthz 503, and probes every 5 minutes', async () => {
    let limiting = true;
    const seen: Array<{ operation: string; status: number }> = [];
    running = await startLocalPlatformAgent((operation, res) => {
      const status = limiting ? 429 : 200;
      seen.push({ operation, status });
      if (limiting) {
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '86400' });
        res.end('{"Message":"Too many requests."}');
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"Commands":[]}');
      }
    });
    const { agent, clock, log, get } = running;
    const rateLimitReasons = () => running?.healthReasons((r) => r.includes('rate-limited')) ?? [];

    await eventually(
      'seen.length === 1 && agent?.source.snapshot().platform.rateLimited !== undefined',
      () => seen.length === 1 && agent?.source.snapshot().platform.rateLimited !== undefined,
    );
    expect(agent.source.snapshot().platform.rateLimited).toMatchObject({
      reason: 'retry-after-capped',
      askedMs: 86_400_000,
      waitMs: CAP_MS,
    });
    expect(await rateLimitReasons()).toEqual([]);

    await clock.advance(3 * 60_000 + 1000);
    const health = await get('/healthz');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.text).reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^the platform has rate-limited the agent for 3 min .*Retry-After 24 h/),
      ]),
    );
    const metrics = (await get('/metrics')).text;
    const blockEnd = (Date.UTC(2026, 2, 3, 9, 0, 0) + CAP_MS) / 1000;
    expect(metrics).toContain(
      `frontdesk_platform_blocked_until_seconds{reason="retry_after_capped"} ${blockEnd}`,
    );
    expect(metrics).toMatch(/^frontdesk_platform_rate_limited_seconds 181$/m);
    const page = (await get('/')).text;
    expect(page).toContain('data-rate-limited="retry-after-capped"');
    expect(page).toContain(
      'The platform asked the agent to slow down (1 × 429, Retry-After 24 h, waiting at most 5 min',
    );
    expect(seen).toHaveLength(1);

    // At 5 minutes exactly one probe; it earns another 429 and the agent waits again.
    await clock.advance(CAP_MS - (3 * 60_000 + 1000));
    await eventually(
      'agent.source.snapshot().platform.rateLimited?.count === 2',
      () => agent.source.snapshot().platform.rateLimited?.count === 2,
    );
    expect(seen).toHaveLength(2);
    await clock.advance(CAP_MS - 1);
    expect(seen).toHaveLength(2);

    // The platform is back: the next probe is accepted and everything else follows.
    limiting = false;
    await clock.advance(1);
    await eventually(
      'agent.source.snapshot().platform.rateLimited === undefined',
      () => agent.source.snapshot().platform.rateLimited === undefined,
    );
    expect(seen.slice(0, 3).map((s) => s.status)).toEqual([429, 429, 200]);
    expect(await rateLimitReasons()).toEqual([]);
    expect((await get('/metrics')).text).toContain(
      'frontdesk_platform_blocked_until_seconds{reason="none"} 0',
    );
    expect(log.lines.join('\n')).not.toContain(LOCAL_TOKENS.accessToken);
  });
});
