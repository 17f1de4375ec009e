import { afterEach, describe, expect, it } from 'vitest';
import { FISCAL_ID } from '../status/helpers/fake-source.js';
import { type Desk, openDesk, raw } from './desk.js';

/**
 * Issue 40, finding H2: the monitoring token was a staff token. A Bearer caller could void, run a
 * Z report, reprint and cut keys with no CSRF and no `confirm`; the shipped Prometheus example
 * spread one token over every desk, in plain HTTP every 30 s; `?token=` put it in the browser's
 * history. Now Prometheus has a metrics token that opens `/metrics` and `/healthz` and nothing
 * else, the action token must say `confirm` like a person does, and no token is taken from an
 * address. (Beyond loopback, over plain HTTP and over TLS: test/hostile-lan/.)
 */

const ACTION = 'action-token-0123456789abcdef';
const METRICS = 'metrics-token-0123456789abcdef';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

const post = (desk: Desk, path: string, token: string, body: string) =>
  raw(desk.server.url, path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body,
  });

describe('the metrics token', () => {
  it('reads /metrics and /healthz, and nothing else: no status.json, no Z report, no void', async () => {
    desk = await openDesk({ accessToken: ACTION, metricsToken: METRICS });
    const bearer = { authorization: `Bearer ${METRICS}` };
    expect((await raw(desk.server.url, '/metrics', { headers: bearer })).status).toBe(200);
    expect((await raw(desk.server.url, '/healthz', { headers: bearer })).status).toBe(200);
    const status = await raw(desk.server.url, '/status.json', { headers: bearer });
    expect(status.status).toBe(403);
    expect(status.text).not.toContain('0012-0034');
    for (const [action, body] of [
      ['z-report', '{"confirm":"yes"}'],
      ['void', '{"receipt":"0012-0034","confirm":"yes"}'],
    ] as const) {
      const answer = await post(desk, `/actions/${FISCAL_ID}/${action}`, METRICS, body);
      expect(answer.status, action).toBe(403);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'METRICS_ONLY' } });
    }
    expect(desk.performed).toEqual([]);
  });
});

describe('the action token', () => {
  it('runs a confirm action only when the script says confirm, as a person ticks the box', async () => {
    desk = await openDesk({ accessToken: ACTION, metricsToken: METRICS });
    const unconfirmed = await post(desk, `/actions/${FISCAL_ID}/void`, ACTION, '{"receipt":"0012-0034"}');
    expect(unconfirmed.status).toBe(400);
    expect(JSON.parse(unconfirmed.text)).toMatchObject({ error: { code: 'NOT_CONFIRMED' } });
    expect(desk.performed).toEqual([]);
    const confirmed = await post(
      desk,
      `/actions/${FISCAL_ID}/void`,
      ACTION,
      '{"receipt":"0012-0034","confirm":"yes"}',
    );
    expect(confirmed.status).toBe(200);
    expect(desk.performed).toEqual(['void 0012-0034']);
  });

  it('is never taken from an address: /login?token= with it opens no session', async () => {
    desk = await openDesk({ accessToken: ACTION, metricsToken: METRICS });
    for (const token of [ACTION, METRICS]) {
      const login = await raw(desk.server.url, `/login?token=${token}`);
      expect(login.status).toBe(400);
      expect(login.headers['set-cookie']).toBeUndefined();
      expect(login.text).toContain('a token must never be put in an address');
    }
    expect(desk.log.lines.join('\n')).not.toMatch(new RegExp(`${ACTION}|${METRICS}`));
  });
});
