import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FISCAL_ID } from '../status/helpers/fake-source.js';
import {
  asAccount,
  canRunAsAnotherAccount,
  csrfOf,
  type Desk,
  NOBODY,
  OWN_UID,
  openDesk,
  postAsStaff,
  raw,
  staffCookie,
} from './desk.js';

/**
 * Issue 40, finding H1: the session cookie is host-only for 127.0.0.1 and cookies ignore ports
 * (RFC 6265 §8.5), so a page on 127.0.0.1:<any port>, one redirect away from any web site,
 * receives the receptionist's cookie; another account replayed it and ran a Z report, audited as
 * the receptionist. Finding M3: the one-time login address shows in `/proc/<pid>/cmdline` of
 * `xdg-open` and the browser, and another account redeemed it first.
 *
 * Now a session and a code belong to the Unix user they were made for: the agent reads which uid
 * owns the client's socket (src/status/callers/peer-uid.ts, /proc/self/net/tcp). Replayed by another
 * account, the cookie opens nothing and the code stays good for its owner; both are audited.
 */

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

const json = (desk: Desk) => ({
  'content-type': 'application/json',
  accept: 'application/json',
  origin: new URL(desk.server.url).origin,
});

describe.skipIf(!canRunAsAnotherAccount)('a stolen session or login address, used by another account', () => {
  it('H1: the receptionist’s cookie, replayed by another account, reads nothing and runs no Z report; the attempt is audited', async () => {
    const auditFile = join(mkdtempSync(join(tmpdir(), 'fd-theft-')), 'audit.log');
    desk = await openDesk({ auditFile });
    const maria = await staffCookie(desk);
    const stolen = await asAccount(NOBODY, desk.server.url, [
      { path: '/actions', headers: { cookie: maria }, readCsrf: true },
      { path: '/status.json', headers: { cookie: maria } },
      {
        method: 'POST',
        path: `/actions/${FISCAL_ID}/z-report`,
        headers: { ...json(desk), cookie: maria, 'x-csrf-token': '{csrf}' },
        body: '{"confirm":"yes"}',
      },
    ]);
    expect(stolen.map((a) => a.status)).toEqual([401, 401, 401]);
    expect(stolen[0]?.text).not.toContain('csrfToken');
    expect(desk.performed).toEqual([]);
    const audit = readFileSync(auditFile, 'utf8');
    expect(audit).toMatch(
      new RegExp(
        `audit=session-refused session=\\w{12} login=link owner="uid ${OWN_UID}" from=127\\.0\\.0\\.1 uid=${NOBODY} reason=another-user`,
      ),
    );
    // Her own browser is not locked out by it.
    const own = await postAsStaff(desk, `/actions/${FISCAL_ID}/z-report`, {
      cookie: maria,
      body: '{"confirm":"yes"}',
    });
    expect(own.status).toBe(200);
    expect(desk.performed).toEqual(['z-report']);
  });

  it('M3: a login address read from another process’s command line logs the other account in nowhere, and still works for its owner', async () => {
    desk = await openDesk();
    const address = desk.server.loginAddress({ login: 'link', uid: OWN_UID, user: 'maria' });
    const path = new URL(address).pathname + new URL(address).search;
    const [taken] = await asAccount(NOBODY, desk.server.url, [{ path }]);
    expect(taken?.status).toBe(401);
    expect(taken?.headers['set-cookie']).toBeUndefined();
    expect(taken?.text).toContain('belongs to another account');
    expect(desk.log.lines.join('\n')).toMatch(
      new RegExp(
        `login refused: the code belongs to another account .*uid=${NOBODY} audit=login-refused owner="uid ${OWN_UID}"`,
      ),
    );
    const mine = await raw(address, address);
    expect(mine.status).toBe(303);
    expect(String(mine.headers['set-cookie'])).toMatch(/^frontdesk_session=/);
  });
});

describe('cookie tossing', () => {
  it('a second frontdesk_session planted by another page of the host (Path=/actions, sent first) does not lock staff out', async () => {
    desk = await openDesk();
    const maria = await staffCookie(desk);
    const csrf = await csrfOf(desk, maria);
    const planted = 'frontdesk_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    for (const cookie of [`${planted}; ${maria}`, `${maria}; ${planted}`]) {
      const z = await postAsStaff(desk, `/actions/${FISCAL_ID}/x-report`, { cookie, csrf });
      expect(z.status, cookie).toBe(200);
    }
    expect(desk.performed).toEqual(['x-report', 'x-report']);
  });
});
