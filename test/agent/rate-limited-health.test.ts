import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { driverRegistry } from '../../drivers/index.js';
import { type Agent, createAgent } from '../../src/agent.js';
import { ManualClock } from '../../src/clock.js';
import { parseConfig } from '../../src/config.js';
import { createMemoryLogger } from '../../src/log.js';

/**
 * Issue 13.4 seen from outside: while the platform keeps answering 429 the status page and
 * `/metrics` say why and until when, and `/healthz` turns 503 after 3 minutes; one probe every
 * 5 minutes (not one request a day) finds the platform back.
 */

const TOKENS = { clientToken: 'client-RATE-0123456789', accessToken: 'access-RATE-9876543210' };
const CAP_MS = 300_000;

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('a rate-limited agent', () => {
  let server: Server | undefined;
  let agent: Agent | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await agent?.stop(0);
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (dir) rmSync(dir, { recursive: true, force: true });
    agent = undefined;
    server = undefined;
  });

  it('shows the cause on the page and in /metrics, turns /healthz 503, and probes every 5 minutes', async () => {
    let limiting = true;
    const seen: Array<{ operation: string; status: number }> = [];
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const operation = (req.url ?? '').replace('/api/connector/v1/', '');
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
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    dir = mkdtempSync(join(tmpdir(), 'fd-ratelimited-'));
    const config = parseConfig({
      version: 1,
      platform: { url: `http://127.0.0.1:${port}` },
      journal: { path: join(dir, 'journal.db') },
      status: { listen: '127.0.0.1:0' },
      devices: [
        {
          id: 'c0000000-0000-4000-8000-0000000000c1',
          type: 'KeyCutter',
          driver: 'sim-encoder',
          options: { durationMs: 0 },
        },
      ],
    });
    const clock = new ManualClock(Date.UTC(2026, 2, 3, 9, 0, 0));
    const log = createMemoryLogger({ secrets: [TOKENS.clientToken, TOKENS.accessToken] });
    agent = createAgent(config, { registry: driverRegistry, log, secrets: TOKENS, clock });
    const { statusUrl } = await agent.start();
    const get = async (path: string) => {
      const response = await fetch(`${statusUrl}${path}`);
      return { status: response.status, text: await response.text() };
    };
    // Other reasons (a loop stalled by a loaded machine) may come and go; these tests look at one.
    const rateLimitReasons = async () => {
      const health = await get('/healthz');
      const reasons: string[] = health.status === 200 ? [] : JSON.parse(health.text).reasons;
      return reasons.filter((r) => r.includes('rate-limited'));
    };

    await until(() => seen.length === 1 && agent?.source.snapshot().platform.rateLimited !== undefined);
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
    await until(() => agent?.source.snapshot().platform.rateLimited?.count === 2);
    expect(seen).toHaveLength(2);
    await clock.advance(CAP_MS - 1);
    expect(seen).toHaveLength(2);

    // The platform is back: the next probe is accepted and everything else follows.
    limiting = false;
    await clock.advance(1);
    await until(() => agent?.source.snapshot().platform.rateLimited === undefined);
    expect(seen.slice(0, 3).map((s) => s.status)).toEqual([429, 429, 200]);
    expect(await rateLimitReasons()).toEqual([]);
    expect((await get('/metrics')).text).toContain(
      'frontdesk_platform_blocked_until_seconds{reason="none"} 0',
    );
    expect(log.lines.join('\n')).not.toContain(TOKENS.accessToken);
  });
});
