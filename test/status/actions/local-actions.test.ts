import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ManualClock } from '../../../src/clock.js';
import { AgentError } from '../../../src/errors.js';
import { createMemoryLogger } from '../../../src/log.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../../src/platform-simulator/index.js';
import { tokenActorOf } from '../../../src/status/actions/local-actions.js';
import { StaffSessions } from '../../../src/status/callers/staff-sessions.js';
import { buildStatusServer, type StatusServerOptions } from '../../../src/status/server.js';
import { DEVICES, e2eScenario, TOKEN_ENV, TOKENS } from '../../e2e/harness.js';
import { runCliCaptured } from '../../helpers/cli.js';
import { ENCODER_ID, FakeSource } from '../helpers/fake-source.js';
import { asMaria, logIn, type StaffBrowser } from '../helpers/staff-login.js';

/**
 * Issue 13.6: any local process could scrape the page's CSRF token and cut unlimited keys (40
 * requests of 10 keys in a loop exhausted the platform budget). Page actions are now bounded
 * (`status.actions.maxKeyCount`), rate-limited (`status.actions.perMinute`, then 429 with a
 * sentence) and audited (who, what, result), and so is the CLI's cut-keys.
 */

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const HOST = { origin: 'http://127.0.0.1:8720', host: '127.0.0.1:8720' };

async function page(options: Partial<StatusServerOptions> = {}) {
  const source = new FakeSource();
  const clock = new ManualClock();
  const log = createMemoryLogger();
  const sessions = new StaffSessions({ clock });
  const app = buildStatusServer({ source, log, clock, sessions, peerUid: asMaria, ...options });
  apps.push(app);
  const staff = await logIn(app, sessions, { headers: HOST });
  return { app, source, clock, log, staff };
}

/** A staff member's Cut keys from the page (its session's CSRF token), or a script's with `headers`. */
async function cut(
  app: FastifyInstance,
  staff: StaffBrowser,
  keyCount: number,
  extra: { headers?: Record<string, string>; remoteAddress?: string; json?: boolean } = {},
) {
  const csrf = staff.csrf;
  const send = extra.headers?.authorization ? app.inject.bind(app) : staff.inject;
  return send({
    method: 'POST',
    url: '/cut-keys',
    headers: {
      ...HOST,
      'content-type': 'application/x-www-form-urlencoded',
      ...(extra.json === false ? {} : { accept: 'application/json' }),
      ...extra.headers,
    },
    ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
    payload: new URLSearchParams({
      csrf,
      deviceId: ENCODER_ID,
      reservationId: 'res-40',
      keyCount: String(keyCount),
    }).toString(),
  });
}

describe('the page’s actions: bounded, rate-limited, audited', () => {
  it('a loop of 40 × 10 keys from one session reaches the platform only 10 times a minute; the rest get 429 and a sentence', async () => {
    const { app, source, clock, staff } = await page();
    const answers: number[] = [];
    for (let i = 0; i < 40; i++) answers.push((await cut(app, staff, 10)).statusCode);
    expect(answers.filter((s) => s === 201)).toHaveLength(10);
    expect(answers.slice(10).every((s) => s === 429)).toBe(true);
    expect(source.cutCalls).toHaveLength(10);

    const refused = await cut(app, staff, 1);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json()).toEqual({
      error: {
        code: 'TOO_MANY_ACTIONS',
        notes: 'Too many actions from the status page: at most 10 a minute. Try again in 60 s.',
      },
    });
    const plain = await cut(app, staff, 1, { json: false });
    expect(plain.statusCode).toBe(429);
    expect(plain.headers['content-type']).toContain('text/plain');
    expect(plain.body).toContain('at most 10 a minute');

    await clock.advance(60_000);
    expect((await cut(app, staff, 1)).statusCode).toBe(201);
    expect(source.cutCalls).toHaveLength(11);
  });

  it('bounds the count by status.actions.maxKeyCount, in the form and on the server', async () => {
    const { app, source, staff } = await page({ actions: { maxKeyCount: 4, perMinute: 5 } });
    const html = (await staff.inject({ url: '/', headers: HOST })).body;
    expect(html).toContain('name="keyCount" type="number" min="1" max="4"');
    const tooMany = await cut(app, staff, 5);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.notes).toBe('Fill in a reservation id and a number of keys between 1 and 4.');
    expect((await cut(app, staff, 4)).statusCode).toBe(201);
    expect(source.cutCalls).toEqual([{ deviceId: ENCODER_ID, reservationId: 'res-40', keyCount: 4 }]);
  });

  it('writes one audit line per attempt: who, what and the result', async () => {
    const { app, source, log, staff } = await page({ actions: { perMinute: 2 } });
    await cut(app, staff, 3);
    source.cutError = new AgentError('PLATFORM_FORBIDDEN', 'The reservation is checked out');
    await cut(app, staff, 2);
    await cut(app, staff, 1);
    const audit = log.lines.filter((l) => l.includes('audit=cut-keys'));
    expect(audit).toHaveLength(3);
    expect(audit[0]).toMatch(
      /info local action cut-keys audit=cut-keys who=page from=127\.0\.0\.1 uid=1001 user=maria session=[0-9a-f]{12} login=link device=\S+ reservation=res-40 count=3 result=done commandId=cmd-new-1$/,
    );
    expect(audit[1]).toMatch(
      /warn local action cut-keys not done .*count=2 result=failed code=PLATFORM_FORBIDDEN$/,
    );
    expect(audit[2]).toMatch(
      /warn local action cut-keys not done .*count=1 result=refused code=TOO_MANY_ACTIONS$/,
    );
  });

  it('says whether the request came with the action token, from where and, on this PC, from which account', async () => {
    const { app, log, staff } = await page({ accessToken: 'STATUS-TOKEN-123456' });
    const bearer = { authorization: 'Bearer STATUS-TOKEN-123456' };
    expect((await cut(app, staff, 1, { headers: bearer })).statusCode).toBe(201);
    // From elsewhere only over HTTPS (test/hostile-lan/ tries it): plain HTTP is refused unheard.
    expect((await cut(app, staff, 1, { headers: bearer, remoteAddress: '192.0.2.7' })).statusCode).toBe(403);
    const audit = log.lines.filter((l) => l.includes('audit=cut-keys'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toContain('who=local-with-token from=127.0.0.1 uid=1001');
    expect(log.lines.join('\n')).not.toContain('STATUS-TOKEN-123456');
    expect(tokenActorOf('::ffff:127.0.0.1').who).toBe('local-with-token');
    expect(tokenActorOf(undefined)).toEqual({ who: 'remote-with-token', from: 'unknown' });
  });
});

describe('the cut-keys command line', () => {
  let sim: PlatformSimulator;
  let configPath: string;
  beforeAll(async () => {
    sim = await startPlatformSimulator({ scenario: e2eScenario() });
    configPath = join(mkdtempSync(join(tmpdir(), 'fd-actions-')), 'agent.yaml');
    writeFileSync(
      configPath,
      stringify({
        version: 1,
        platform: { url: sim.url },
        journal: { path: '/tmp/unused.db' },
        status: { listen: '127.0.0.1:1', actions: { maxKeyCount: 3 } },
      }),
    );
  });
  afterAll(async () => {
    await sim.close();
  });

  async function cli(count: number) {
    const reservation = sim.world.reservations[0]?.id ?? '';
    const run = await runCliCaptured(
      [
        'cut-keys',
        '--no-follow',
        '--config',
        configPath,
        '--device',
        DEVICES.keysOk,
        '--reservation',
        reservation,
        '--count',
        String(count),
      ],
      {
        ...TOKEN_ENV,
        USER: 'maria',
      },
    );
    return { ...run, reservation };
  }

  it('refuses more keys than status.actions.maxKeyCount before asking the platform', async () => {
    const before = sim.commands().length;
    const run = await cli(4);
    expect(run.code).toBe(1);
    expect(run.err).toContain('--count 4 is more than status.actions.maxKeyCount (3) allows');
    expect(sim.commands()).toHaveLength(before);
  });

  it('writes the same audit line on stderr', async () => {
    const run = await cli(3);
    expect(run.code).toBe(0);
    const id = run.out.trim();
    expect(run.err).toContain(
      `audit=cut-keys who=command-line from=maria device=${DEVICES.keysOk} reservation=${run.reservation} count=3 result=done commandId=${id}`,
    );
    expect(run.err).not.toContain(TOKENS.accessToken);
  });
});
