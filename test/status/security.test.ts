import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors.js';
import { createMemoryLogger, silentLogger } from '../../src/log.js';
import { StaffSessions } from '../../src/status/callers/staff-sessions.js';
import { buildStatusServer } from '../../src/status/server.js';
import { startStatusServer } from '../../src/status/start.js';
import { ENCODER_ID, FakeSource, FISCAL_ID } from './helpers/fake-source.js';
import { asMaria, logIn, type StaffBrowser } from './helpers/staff-login.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const sessionsOf = new WeakMap<FastifyInstance, StaffSessions>();

function build(source = new FakeSource(), accessToken?: string, log = silentLogger) {
  const sessions = new StaffSessions();
  const app = buildStatusServer({
    source,
    log,
    sessions,
    peerUid: asMaria,
    ...(accessToken ? { accessToken } : {}),
  });
  sessionsOf.set(app, sessions);
  apps.push(app);
  return app;
}

/** A staff member logged in to `app`'s page (staff-login.ts). */
function staff(app: FastifyInstance, headers: Record<string, string> = {}): Promise<StaffBrowser> {
  return logIn(app, sessionsOf.get(app) as StaffSessions, { headers });
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = 'application/x-www-form-urlencoded';

describe('POST /cut-keys', () => {
  it('refuses a request without the CSRF token (403) and does not call cutKeys', async () => {
    const source = new FakeSource();
    const app = build(source);
    const browser = await staff(app);
    const res = await browser.inject({
      method: 'POST',
      url: '/cut-keys',
      headers: { 'content-type': FORM, origin: 'http://localhost:80', host: 'localhost:80' },
      payload: form({ deviceId: ENCODER_ID, reservationId: 'res-1', keyCount: '2' }),
    });
    expect(res.statusCode).toBe(403);
    expect(source.cutCalls).toEqual([]);
  });

  it('refuses a wrong CSRF token (403)', async () => {
    const source = new FakeSource();
    const app = build(source);
    const browser = await staff(app);
    const res = await browser.inject({
      method: 'POST',
      url: '/cut-keys',
      headers: { 'content-type': FORM, origin: 'http://localhost:80', host: 'localhost:80' },
      payload: form({ csrf: 'guessed', deviceId: ENCODER_ID, reservationId: 'res-1', keyCount: '2' }),
    });
    expect(res.statusCode).toBe(403);
    expect(source.cutCalls).toEqual([]);
  });

  it('refuses a foreign Origin (403) even with the right token, and a request with neither Origin nor Referer', async () => {
    const source = new FakeSource();
    const app = build(source);
    const { csrf, inject } = await staff(app);
    const payload = form({ csrf, deviceId: ENCODER_ID, reservationId: 'res-1', keyCount: '2' });
    for (const headers of [
      { origin: 'http://evil.example', host: 'localhost:80' },
      { origin: 'null', host: 'localhost:80' },
      { referer: 'http://localhost.evil.example/', host: 'localhost:80' },
      { host: 'localhost:80' },
    ]) {
      const res = await inject({
        method: 'POST',
        url: '/cut-keys',
        headers: { 'content-type': FORM, ...headers },
        payload,
      });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
    }
    expect(source.cutCalls).toEqual([]);
  });

  it('calls cutKeys once for a same-origin request with the token, and answers a script with the command id', async () => {
    const source = new FakeSource();
    const app = build(source);
    const { csrf, inject } = await staff(app);
    const res = await inject({
      method: 'POST',
      url: '/cut-keys',
      headers: {
        'content-type': FORM,
        accept: 'application/json',
        origin: 'http://localhost:80',
        host: 'localhost:80',
      },
      payload: form({ csrf, deviceId: ENCODER_ID, reservationId: ' res-1 ', keyCount: '3' }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ commandId: 'cmd-new-1' });
    expect(source.cutCalls).toEqual([{ deviceId: ENCODER_ID, reservationId: 'res-1', keyCount: 3 }]);
  });

  it('redirects a plain form submission back to the page (Referer suffices when Origin is absent)', async () => {
    const source = new FakeSource();
    const app = build(source);
    const { csrf, inject } = await staff(app);
    const res = await inject({
      method: 'POST',
      url: '/cut-keys',
      headers: { 'content-type': FORM, referer: 'http://127.0.0.1:8720/', host: '127.0.0.1:8720' },
      payload: form({ csrf, deviceId: ENCODER_ID, reservationId: 'res-9', keyCount: '1' }),
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('./?cut=cmd-new-1');
  });

  it('accepts JSON with the token in X-CSRF-Token', async () => {
    const source = new FakeSource();
    const app = build(source);
    const { csrf, inject } = await staff(app);
    const res = await inject({
      method: 'POST',
      url: '/cut-keys',
      headers: { origin: 'http://localhost:80', host: 'localhost:80', 'x-csrf-token': csrf },
      payload: { deviceId: ENCODER_ID, reservationId: 'res-2', keyCount: 10 },
    });
    expect(res.statusCode).toBe(201);
    expect(source.cutCalls).toHaveLength(1);
  });

  it('validates device (a KeyCutter), reservation and count 1..10 before calling cutKeys', async () => {
    const source = new FakeSource();
    const app = build(source);
    const { csrf, inject } = await staff(app);
    const headers = {
      'content-type': FORM,
      accept: 'application/json',
      origin: 'http://localhost:80',
      host: 'localhost:80',
    };
    const cases: Array<[Record<string, string>, string]> = [
      [{ deviceId: ENCODER_ID, reservationId: 'r', keyCount: '0' }, 'FORM_INVALID'],
      [{ deviceId: ENCODER_ID, reservationId: 'r', keyCount: '11' }, 'FORM_INVALID'],
      [{ deviceId: ENCODER_ID, reservationId: 'r', keyCount: '1.5' }, 'FORM_INVALID'],
      [{ deviceId: ENCODER_ID, reservationId: '   ', keyCount: '1' }, 'FORM_INVALID'],
      [{ deviceId: FISCAL_ID, reservationId: 'r', keyCount: '1' }, 'DEVICE_UNKNOWN'],
      [{ deviceId: 'nope', reservationId: 'r', keyCount: '1' }, 'DEVICE_UNKNOWN'],
    ];
    for (const [fields, code] of cases) {
      const res = await inject({
        method: 'POST',
        url: '/cut-keys',
        headers,
        payload: form({ csrf, ...fields }),
      });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().error.code).toBe(code);
    }
    expect(source.cutCalls).toEqual([]);
  });

  it('reports a platform refusal in the receptionist’s words', async () => {
    const source = new FakeSource();
    source.cutError = new AgentError('PLATFORM_FORBIDDEN', 'Reservation is not checked in.');
    const app = build(source);
    const { csrf, inject } = await staff(app);
    const res = await inject({
      method: 'POST',
      url: '/cut-keys',
      headers: {
        'content-type': FORM,
        accept: 'application/json',
        origin: 'http://localhost:80',
        host: 'localhost:80',
      },
      payload: form({ csrf, deviceId: ENCODER_ID, reservationId: 'r', keyCount: '1' }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: {
        code: 'PLATFORM_FORBIDDEN',
        notes: 'The platform refused the request for a business reason.',
        detail: 'Reservation is not checked in.',
      },
    });
  });
});

describe('loopback-only mode (no access token)', () => {
  it('refuses requests addressed to a non-loopback host name (DNS rebinding)', async () => {
    const app = build();
    const { inject } = await staff(app);
    expect(
      (await inject({ url: '/status.json', headers: { host: 'attacker.example:8720' } })).statusCode,
    ).toBe(403);
    expect(
      (await app.inject({ url: '/healthz', headers: { host: 'attacker.example:8720' } })).statusCode,
    ).toBe(403);
    for (const host of ['localhost:8720', '127.0.0.1:8720', '[::1]:8720', '127.0.0.1']) {
      expect((await inject({ url: '/status.json', headers: { host } })).statusCode, host).toBe(200);
      expect((await app.inject({ url: '/healthz', headers: { host } })).statusCode, host).toBe(200);
    }
  });

  it('refuses to bind a non-loopback address without an access token', async () => {
    const source = new FakeSource();
    const attempt = startStatusServer({ source, log: silentLogger, listen: '0.0.0.0:0' });
    await expect(attempt).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    expect(source.subscribers).toBe(0);
  });

  it('binds loopback on port 0 and reports the port', async () => {
    const server = await startStatusServer({
      source: new FakeSource(),
      log: silentLogger,
      listen: '127.0.0.1:0',
    });
    try {
      expect(server.port).toBeGreaterThan(0);
      const res = await fetch(new URL('healthz', server.url));
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('with an access token', () => {
  const TOKEN = 'status-secret-0123456789abcdef';

  it('answers 401 to every request from elsewhere without it (the page sends to the login), and serves requests with a bearer token', async () => {
    const app = build(new FakeSource(), TOKEN);
    for (const url of ['/status.json', '/healthz', '/metrics', '/events', '/actions']) {
      const res = await app.inject({
        url,
        headers: { host: 'frontdesk.lan:8720' },
        remoteAddress: '192.0.2.7',
      });
      expect(res.statusCode, url).toBe(401);
      expect(res.body).not.toContain(TOKEN);
    }
    const page = await app.inject({
      url: '/',
      headers: { host: 'frontdesk.lan:8720' },
      remoteAddress: '192.0.2.7',
    });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('login');
    const wrong = await app.inject({ url: '/status.json', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    const ok = await app.inject({
      url: '/status.json',
      headers: { host: 'frontdesk.lan:8720', authorization: `Bearer ${TOKEN}` },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('the login form with the token opens a session: an HttpOnly, SameSite=Strict cookie that is not the token; the cookie then grants access', async () => {
    const log = createMemoryLogger();
    const app = build(new FakeSource(), TOKEN, log);
    const login = (token: string) =>
      app.inject({
        method: 'POST',
        url: '/login',
        headers: { host: 'frontdesk.lan:8720', origin: 'http://frontdesk.lan:8720', 'content-type': FORM },
        payload: form({ token }),
      });
    expect((await login('wrong')).statusCode).toBe(401);
    const res = await login(TOKEN);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('./');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(
      /^frontdesk_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800$/,
    );
    expect(cookie).not.toContain(TOKEN);
    expect(res.body).not.toContain(TOKEN);
    const page = await app.inject({
      url: '/',
      headers: { host: 'frontdesk.lan:8720', cookie: cookie.split(';')[0] as string },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(TOKEN);
    // Issue 40, item 2: never in an address, where the browser's history keeps it.
    const inAddress = await app.inject({
      url: `/login?token=${TOKEN}`,
      headers: { host: 'frontdesk.lan:8720' },
    });
    expect(inAddress.statusCode).toBe(400);
    expect(inAddress.headers['set-cookie']).toBeUndefined();
    expect(log.lines.join('\n')).not.toContain(TOKEN);
  });

  it('a browser logged in with it still needs same origin and the CSRF token for cut-keys; a script with the bearer token needs neither, and from elsewhere neither gets in over plain HTTP', async () => {
    const source = new FakeSource();
    const app = build(source, TOKEN);
    const host = { host: 'frontdesk.lan:8720' };
    const login = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { ...host, origin: 'http://frontdesk.lan:8720', 'content-type': FORM },
      payload: form({ token: TOKEN }),
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    const listing = await app.inject({ url: '/actions', headers: { ...host, cookie } });
    const csrf = (listing.json() as { csrfToken: string }).csrfToken;
    const payload = form({ csrf, deviceId: ENCODER_ID, reservationId: 'r', keyCount: '1' });
    const post = (headers: Record<string, string>, body = payload, remoteAddress = '127.0.0.1') =>
      app.inject({
        method: 'POST',
        url: '/cut-keys',
        headers: { ...host, 'content-type': FORM, accept: 'application/json', ...headers },
        payload: body,
        remoteAddress,
      });
    expect((await post({ cookie, origin: 'http://evil.example' })).statusCode).toBe(403);
    expect((await post({ cookie, origin: 'http://frontdesk.lan:8720' })).statusCode).toBe(201);
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const script = form({ deviceId: ENCODER_ID, reservationId: 'r', keyCount: '1' });
    expect((await post(bearer, script)).statusCode).toBe(201);
    // Beyond loopback the session is not this browser's, and the token has crossed in clear.
    expect(
      (await post({ cookie, origin: 'http://frontdesk.lan:8720' }, payload, '192.0.2.7')).statusCode,
    ).toBe(401);
    const inClear = await post(bearer, script, '192.0.2.7');
    expect(inClear.statusCode).toBe(403);
    expect(inClear.json()).toMatchObject({ error: { code: 'TLS_REQUIRED' } });
    expect(source.cutCalls).toHaveLength(2);
  });

  it('may bind a non-loopback address with a metrics token: Prometheus reads /metrics from elsewhere, and nothing else', async () => {
    const server = await startStatusServer({
      source: new FakeSource(),
      log: silentLogger,
      listen: '0.0.0.0:0',
      metricsToken: 'metrics-secret-0123456789',
      accessToken: TOKEN,
    });
    try {
      // Monitoring on this PC needs no login; from elsewhere a token is asked for.
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
      const remote = { headers: { host: 'frontdesk.lan:8720' }, remoteAddress: '192.0.2.7' };
      expect((await server.app.inject({ ...remote, url: '/metrics' })).statusCode).toBe(401);
      const metrics = { ...remote.headers, authorization: 'Bearer metrics-secret-0123456789' };
      expect((await server.app.inject({ ...remote, url: '/metrics', headers: metrics })).statusCode).toBe(
        200,
      );
      expect((await server.app.inject({ ...remote, url: '/healthz', headers: metrics })).statusCode).toBe(
        200,
      );
      const status = await server.app.inject({ ...remote, url: '/status.json', headers: metrics });
      expect(status.statusCode).toBe(403);
      expect(status.json()).toMatchObject({ error: { code: 'METRICS_ONLY' } });
    } finally {
      await server.close();
    }
  });
});
