import { afterEach, describe, expect, it } from 'vitest';
import { FISCAL_ID } from '../status/helpers/fake-source.js';
import { csrfOf, type Desk, openDesk, raw, staffCookie } from './desk.js';

/**
 * Issue 27, finding 2: all actions shared one bucket of 10 a minute, and a request took a slot
 * before its device or action was checked, so 10 POSTs a minute to `/actions/x/x` locked the desk
 * out of its Z report, its voids and its keys. Now the credential, the device and the action are
 * checked first, and each caller (page session, Unix user on the staff socket, token address)
 * has a bucket of its own.
 */

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

async function post(desk: Desk, path: string, cookie?: string, csrf?: string) {
  const base = desk.server.url;
  return raw(base, path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      origin: new URL(base).origin,
      ...(cookie ? { cookie } : {}),
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
    },
    body: JSON.stringify({ confirm: 'yes' }),
  });
}

describe('rate limits that cannot lock staff out', () => {
  it('a stranger’s POSTs, however many, leave the staff’s Z report alone', async () => {
    desk = await openDesk({ perMinute: 10 });
    for (let i = 0; i < 30; i++) {
      expect((await post(desk, '/actions/x/x')).status).toBe(401);
      expect((await post(desk, `/actions/${FISCAL_ID}/z-report`)).status).toBe(401);
    }
    const maria = await staffCookie(desk);
    const z = await post(desk, `/actions/${FISCAL_ID}/z-report`, maria, await csrfOf(desk, maria));
    expect(z.status).toBe(200);
    expect(desk.performed).toEqual(['z-report']);
  });

  it('10 bad POSTs a minute from one staff caller spend nobody’s budget; 10 good ones spend only hers', async () => {
    desk = await openDesk({ perMinute: 10 });
    const luca = await staffCookie(desk, 'luca');
    const lucaCsrf = await csrfOf(desk, luca);
    for (let i = 0; i < 10; i++) {
      expect((await post(desk, '/actions/x/x', luca, lucaCsrf)).status).toBe(404);
      expect((await post(desk, `/actions/${FISCAL_ID}/dance`, luca, lucaCsrf)).status).toBe(404);
    }
    // Unknown devices and actions took no slot: Luca can still print his X report.
    expect((await post(desk, `/actions/${FISCAL_ID}/x-report`, luca, lucaCsrf)).status).toBe(200);
    for (let i = 0; i < 9; i++) await post(desk, `/actions/${FISCAL_ID}/x-report`, luca, lucaCsrf);
    const limited = await post(desk, `/actions/${FISCAL_ID}/x-report`, luca, lucaCsrf);
    expect(limited.status).toBe(429);

    // Maria's Z report is another caller's: her bucket is full.
    const maria = await staffCookie(desk);
    const z = await post(desk, `/actions/${FISCAL_ID}/z-report`, maria, await csrfOf(desk, maria));
    expect(z.status).toBe(200);
    expect(desk.performed.filter((a) => a === 'z-report')).toHaveLength(1);
    expect(desk.performed.filter((a) => a === 'x-report')).toHaveLength(10);

    // A minute later Luca's budget is back.
    await desk.clock.advance(60_000);
    expect((await post(desk, `/actions/${FISCAL_ID}/x-report`, luca, lucaCsrf)).status).toBe(200);
  });
});
