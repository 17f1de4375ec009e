import { afterEach, describe, expect, it } from 'vitest';
import { ENCODER_ID, FISCAL_ID } from '../status/helpers/fake-source.js';
import { csrfOf, type Desk, OWN_UID, openDesk, postAsStaff, raw, staffCookie } from './desk.js';

/**
 * Issue 27, finding 1: any local process could void fiscal receipts, run Z reports and cut keys.
 * It read the CSRF token from `GET /actions` (or the page), then posted with a self-set Origin
 * and X-CSRF-Token; `/status.json` gave it the device ids and receipt numbers. Now every action
 * needs a caller who proved who they are — a page session, the status token, the staff socket —
 * and a local process without one gets nothing to act with and nothing to read but health and
 * metrics, whatever headers it sends.
 */

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

const ORIGIN = (base: string) => new URL(base).origin;

/** Every state-changing request a hostile process tries: void, Z, X (a print) and cut keys. */
function attacks(base: string): Array<{ path: string; body: string; form: boolean }> {
  return [
    {
      path: `/actions/${FISCAL_ID}/void`,
      body: JSON.stringify({ receipt: '0012-0034', confirm: 'yes' }),
      form: false,
    },
    { path: `/actions/${FISCAL_ID}/z-report`, body: JSON.stringify({ confirm: 'yes' }), form: false },
    { path: `/actions/${FISCAL_ID}/x-report`, body: '{}', form: false },
    {
      path: '/cut-keys',
      body: new URLSearchParams({ deviceId: ENCODER_ID, reservationId: 'res-1', keyCount: '10' }).toString(),
      form: true,
    },
  ].map((a) => ({ ...a, path: new URL(a.path, base).pathname }));
}

describe('hostile local process, no credential', () => {
  it('gets no CSRF token, no page, no status.json with receipt numbers, no action listing', async () => {
    desk = await openDesk();
    const base = desk.server.url;
    const listing = await raw(base, '/actions', { headers: { host: new URL(base).host } });
    expect(listing.status).toBe(401);
    expect(listing.text).not.toContain('csrf');
    const page = await raw(base, '/');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('login');
    const login = await raw(base, '/login');
    expect(login.status).toBe(200);
    expect(login.text).not.toMatch(/name="csrf"|0012-0034/);
    const status = await raw(base, '/status.json');
    expect(status.status).toBe(401);
    expect(status.text).not.toContain('0012-0034');
    expect((await raw(base, '/events')).status).toBe(401);
  });

  it('cannot void, close the day, print or cut keys, whatever Host, Origin, X-CSRF-Token, cookie or bearer it sends', async () => {
    desk = await openDesk();
    const base = desk.server.url;
    // The token a real session holds: the attacker may even have stolen a stale one from a page.
    const staff = await staffCookie(desk);
    const realCsrf = await csrfOf(desk, staff);
    const forged: Array<Record<string, string>> = [
      {},
      { host: '127.0.0.1', origin: ORIGIN(base) },
      { host: new URL(base).host, origin: ORIGIN(base), 'x-csrf-token': 'made-up' },
      { host: new URL(base).host, origin: ORIGIN(base), 'x-csrf-token': realCsrf },
      { host: 'localhost', origin: 'http://localhost', referer: `${base}`, 'x-csrf-token': realCsrf },
      { origin: ORIGIN(base), 'x-csrf-token': realCsrf, cookie: 'token=anything' },
      { origin: ORIGIN(base), 'x-csrf-token': realCsrf, cookie: 'frontdesk_session=made-up-session-id' },
      { origin: ORIGIN(base), 'x-csrf-token': realCsrf, cookie: `frontdesk_session=${realCsrf}` },
      { origin: ORIGIN(base), authorization: `Bearer ${realCsrf}` },
      { origin: ORIGIN(base), authorization: 'Bearer guessed-status-token' },
    ];
    for (const headers of forged) {
      for (const attack of attacks(base)) {
        const answer = await raw(base, attack.path, {
          method: 'POST',
          headers: {
            'content-type': attack.form ? 'application/x-www-form-urlencoded' : 'application/json',
            accept: 'application/json',
            ...headers,
          },
          body: attack.form ? `${attack.body}&csrf=${encodeURIComponent(realCsrf)}` : attack.body,
        });
        expect([401, 403], `${attack.path} ${JSON.stringify(headers)}`).toContain(answer.status);
      }
    }
    expect(desk.performed).toEqual([]);
    expect(desk.source.cutCalls).toEqual([]);
    // The staff member's own session was not spent by any of it.
    const own = await postAsStaff(desk, `/actions/${FISCAL_ID}/x-report`, { cookie: staff, csrf: realCsrf });
    expect(own.status).toBe(200);
    expect(desk.performed).toEqual(['x-report']);
  });

  it('cannot log in with a login address that was used already, nor with a made-up one', async () => {
    desk = await openDesk();
    const address = desk.server.loginAddress({ login: 'link', uid: OWN_UID, user: 'maria' });
    expect((await raw(address, address)).status).toBe(303);
    const again = await raw(address, address);
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
    const made = await raw(desk.server.url, '/login?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(made.status).toBe(401);
    // And a login form posted from another page is refused (no session of the attacker's choosing).
    const crossSite = await raw(desk.server.url, '/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
      body: 'token=x',
    });
    expect(crossSite.status).toBe(403);
  });

  it('still lets monitoring read /healthz and /metrics from this PC without a login, and /metrics names no receipt', async () => {
    desk = await openDesk({ accessToken: 'status-token-0123456789' });
    const health = await raw(desk.server.url, '/healthz');
    expect(health.status).toBe(200);
    const metrics = await raw(desk.server.url, '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('# TYPE');
    expect(metrics.text).not.toContain('0012-0034');
  });
});
