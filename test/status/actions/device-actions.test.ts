import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createMemoryLogger } from '../../../src/log.js';
import { StaffSessions } from '../../../src/status/callers/staff-sessions.js';
import { buildStatusServer } from '../../../src/status/server.js';
import { ActionSource, calls } from '../helpers/action-source.js';
import { FISCAL_ID, NOW } from '../helpers/fake-source.js';
import { asMaria, logIn, PAGE_HEADERS, PAGE_JSON_HEADERS, postFromPage } from '../helpers/staff-login.js';

/**
 * The device actions of the status server (src/status/actions/device-actions.ts): the same guard as the
 * page's Cut keys — a staff session with origin and CSRF token for the page, the access token
 * for scripts, one LocalActions budget per caller, one audit line per attempt — with the actions'
 * own schemas deciding what parameters are valid.
 */

const apps: FastifyInstance[] = [];
afterEach(async () => {
  calls.length = 0;
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

function build(options: { accessToken?: string; perMinute?: number } = {}) {
  const log = createMemoryLogger();
  const sessions = new StaffSessions();
  const app = buildStatusServer({
    peerUid: asMaria,
    source: new ActionSource(),
    log,
    sessions,
    clock: new ManualClock(NOW),
    ...(options.accessToken ? { accessToken: options.accessToken } : {}),
    ...(options.perMinute ? { actions: { perMinute: options.perMinute } } : {}),
  });
  apps.push(app);
  const staff = () => logIn(app, sessions, { headers: { host: 'localhost:80' } });
  return { app, log, staff };
}

describe('device actions on the status server', () => {
  it('lists each device’s actions with the CSRF token, and the page renders them as forms', async () => {
    const { staff } = build();
    const { inject } = await staff();
    const listing = (await inject({ url: '/actions', headers: { host: 'localhost' } })).json() as {
      devices: Array<{ id: string; actions: Array<{ name: string; confirm?: string }> }>;
    };
    expect(listing.devices).toHaveLength(1);
    expect(listing.devices[0]?.actions.map((a) => a.name)).toEqual(['x-report', 'void']);
    const page = await inject({ url: '/', headers: { host: 'localhost' } });
    expect(page.body).toContain('<section class="wide" id="device-actions"><h2>Device actions</h2>');
    expect(page.body).toContain(`action="actions/${FISCAL_ID}/void"`);
    expect(page.body).toContain('name="receipt"');
    expect(page.body).toContain('name="confirm" value="yes" required');
  });

  it('runs an action from the page with origin, CSRF token and confirmation, and audits it', async () => {
    const { log, staff } = build();
    const res = await postFromPage(await staff(), `/actions/${FISCAL_ID}/void`, {
      receipt: '0012-0034',
      confirm: 'yes',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ notes: 'Void 0013-0002 on RT 99MEX012345 (void of 0012-0034)' });
    expect(calls).toEqual([{ action: 'void', params: { receipt: '0012-0034' } }]);
    const audit = log.lines.filter((l) => l.includes('audit=device-action'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatch(
      new RegExp(
        `info local action device-action audit=device-action who=page from=127\\.0\\.0\\.1 uid=1001 user=maria session=[0-9a-f]{12} login=link device=${FISCAL_ID} action=void via=page param\\.receipt=0012-0034 result=done receiptNumber=0013-0002 zNumber=13$`,
      ),
    );
  });

  it('refuses without the CSRF token, from another origin, or unconfirmed — and runs nothing', async () => {
    const { staff } = build();
    const { csrf, inject } = await staff();
    const post = (headers: Record<string, string>, payload: object) =>
      inject({ method: 'POST', url: `/actions/${FISCAL_ID}/void`, headers, payload });
    expect((await post(PAGE_JSON_HEADERS, { receipt: '0012-0034', confirm: 'yes' })).statusCode).toBe(403);
    const foreign = { ...PAGE_JSON_HEADERS, origin: 'http://evil.example', 'x-csrf-token': csrf };
    expect((await post(foreign, { receipt: '0012-0034', confirm: 'yes' })).statusCode).toBe(403);
    const unconfirmed = await post({ ...PAGE_JSON_HEADERS, 'x-csrf-token': csrf }, { receipt: '0012-0034' });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json()).toMatchObject({ error: { code: 'NOT_CONFIRMED' } });
    expect(calls).toEqual([]);
  });

  it('with the access token, a script needs neither origin nor CSRF token; the audit says so', async () => {
    const { app, log } = build({ accessToken: 'tok-123' });
    const res = await app.inject({
      method: 'POST',
      url: `/actions/${FISCAL_ID}/x-report`,
      headers: { authorization: 'Bearer tok-123', 'content-type': 'application/json' },
      payload: {},
      remoteAddress: '127.0.0.1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ notes: 'X report printed on RT 99MEX012345' });
    expect(log.lines.filter((l) => l.includes('audit=device-action'))).toEqual([
      expect.stringMatching(
        /who=local-with-token from=127\.0\.0\.1 .*action=x-report via=api result=done report=x$/,
      ),
    ]);
    const wrong = await app.inject({
      method: 'POST',
      url: `/actions/${FISCAL_ID}/x-report`,
      headers: { authorization: 'Bearer nope', 'content-type': 'application/json' },
      payload: {},
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('answers 400 for parameters the action refuses, 404 for an unknown action, and the action’s own error', async () => {
    const { staff } = build();
    const maria = await staff();
    const post = (url: string, payload: object) => postFromPage(maria, url, payload);
    const invalid = await post(`/actions/${FISCAL_ID}/void`, { receipt: 'twelve', confirm: 'yes' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ error: { code: 'COMMAND_INVALID' } });
    expect((invalid.json() as { error: { notes: string } }).error.notes).toContain('0012-0034');
    expect((await post(`/actions/${FISCAL_ID}/dance`, {})).statusCode).toBe(404);
    expect((await post('/actions/no-such-device/x-report', {})).statusCode).toBe(404);
    const refused = await post(`/actions/${FISCAL_ID}/void`, { receipt: '0000-0009', confirm: 'yes' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ error: { code: 'FISCAL_REJECTED', notes: 'The printer says no.' } });
  });

  it('shares the caller’s rate limit with the page’s other actions: beyond it 429 with Retry-After, nothing run', async () => {
    const { staff } = build({ perMinute: 2 });
    const maria = await staff();
    const post = () => postFromPage(maria, `/actions/${FISCAL_ID}/x-report`);
    expect((await post()).statusCode).toBe(200);
    expect((await post()).statusCode).toBe(200);
    const limited = await post();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(calls).toHaveLength(2);
  });

  it('a plain form submission is redirected back; the page shows the outcome by id, never text from the address', async () => {
    const { staff } = build();
    const { csrf, inject } = await staff();
    const res = await inject({
      method: 'POST',
      url: `/actions/${FISCAL_ID}/void`,
      headers: { ...PAGE_HEADERS, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf, receipt: '0012-0034', confirm: 'yes' }).toString(),
    });
    expect(res.statusCode).toBe(303);
    const location = res.headers.location as string;
    expect(location).toMatch(/^\.\.\/\.\.\/\?action=[\w-]+#device-actions$/);
    const id = /action=([\w-]+)/.exec(location)?.[1];
    const page = await inject({ url: `/?action=${id}`, headers: { host: 'localhost' } });
    expect(page.body).toContain('Void a receipt on Fiscal printer: Void 0013-0002 on RT 99MEX012345');
    const crafted = await inject({ url: '/?action=%3Cscript%3E', headers: { host: 'localhost' } });
    expect(crafted.body).not.toContain('id="action-notice"');
  });
});
