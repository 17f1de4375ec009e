import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { FailedAttempts } from '../../../src/status/callers/attempts.js';
import { sessionCookie, sessionCookieValues } from '../../../src/status/callers/session-cookie.js';
import { type Peer, StaffSessions } from '../../../src/status/callers/staff-sessions.js';

/** Issue 40, item 1: sessions and codes belong to a person, end when idle, and last a shift. */

const MARIA: Peer = { local: true, address: '127.0.0.1', uid: 1001 };
const LP: Peer = { local: true, address: '127.0.0.1', uid: 7 };
const LAPTOP: Peer = { local: false, address: '192.0.2.7' };

describe('page sessions', () => {
  it('end after 30 minutes without use, or after 8 hours however busy', async () => {
    const clock = new ManualClock();
    const sessions = new StaffSessions({ clock });
    const { cookie } = sessions.open({ login: 'link', uid: 1001 }, { uid: 1001 });
    await clock.advance(29 * 60_000);
    expect(sessions.find(cookie, MARIA)?.mismatch).toBeUndefined();
    await clock.advance(30 * 60_000);
    expect(sessions.find(cookie, MARIA)).toBeUndefined();

    const busy = sessions.open({ login: 'link', uid: 1001 }, { uid: 1001 });
    for (let hour = 0; hour < 8; hour++) {
      expect(sessions.keepAlive(busy.cookie), `hour ${hour}`).toBe(true);
      for (let i = 0; i < 4; i++) {
        await clock.advance(15 * 60_000);
        sessions.keepAlive(busy.cookie);
      }
    }
    expect(sessions.find(busy.cookie, MARIA)).toBeUndefined();
    expect(sessions.keepAlive(busy.cookie)).toBe(false);
  });

  it('open only for the account or address they are bound to', () => {
    const sessions = new StaffSessions();
    const local = sessions.open({ login: 'link', uid: 1001 }, { uid: 1001 });
    expect(sessions.find(local.cookie, MARIA)?.mismatch).toBeUndefined();
    expect(sessions.find(local.cookie, LP)?.mismatch).toBe('another-user');
    expect(sessions.find(local.cookie, { ...MARIA, uid: undefined })?.mismatch).toBe('unknown-user');
    expect(sessions.find(local.cookie, LAPTOP)?.mismatch).toBe('not-this-pc');
    const remote = sessions.open({ login: 'status-token' }, { address: '192.0.2.7' });
    expect(sessions.find(remote.cookie, LAPTOP)?.mismatch).toBeUndefined();
    expect(sessions.find(remote.cookie, { local: false, address: '192.0.2.8' })?.mismatch).toBe(
      'another-address',
    );
    expect(sessions.find(remote.cookie, MARIA)?.mismatch).toBe('another-address');
  });

  it('spend a code only for its owner’s browser on this PC', () => {
    const sessions = new StaffSessions();
    const code = sessions.mintCode({ login: 'link', uid: 1001, user: 'maria' });
    expect(sessions.redeemCode(code, LP)).toMatchObject({ mismatch: 'another-user' });
    expect(sessions.redeemCode(code, LAPTOP)).toMatchObject({ mismatch: 'not-this-pc' });
    expect(sessions.redeemCode(code, MARIA)).toEqual({ owner: { login: 'link', uid: 1001, user: 'maria' } });
    expect(sessions.redeemCode(code, MARIA)).toBeUndefined();
  });
});

describe('the session cookie', () => {
  it('is __Host- and Secure over HTTPS only', () => {
    expect(sessionCookie('v', 8 * 3600_000, false)).toBe(
      'frontdesk_session=v; Path=/; HttpOnly; SameSite=Strict; Max-Age=28800',
    );
    expect(sessionCookie('v', 8 * 3600_000, true)).toBe(
      '__Host-frontdesk_session=v; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=28800',
    );
  });

  it('is read as its first and last value, whatever stands between', () => {
    const header = 'frontdesk_session=tossed; other=1; frontdesk_session=middle; frontdesk_session=real';
    expect(sessionCookieValues(header, 'frontdesk_session')).toEqual(['tossed', 'real']);
    expect(sessionCookieValues('frontdesk_session=one', 'frontdesk_session')).toEqual(['one']);
    expect(sessionCookieValues('x=1', 'frontdesk_session')).toEqual([]);
  });
});

describe('failed attempts', () => {
  it('block a source after 10 a minute, and no other source', async () => {
    const clock = new ManualClock();
    const attempts = new FailedAttempts({ clock });
    for (let i = 0; i < 10; i++) {
      expect(attempts.blockedFor('uid 7')).toBeUndefined();
      attempts.failed('uid 7');
      await clock.advance(1000);
    }
    expect(attempts.blockedFor('uid 7')).toBe(50_000);
    expect(attempts.blockedFor('uid 1001')).toBeUndefined();
    await clock.advance(50_000);
    expect(attempts.blockedFor('uid 7')).toBeUndefined();
  });
});
