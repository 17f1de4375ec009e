import { afterEach, describe, expect, it } from 'vitest';
import {
  type AccountRequest,
  asAccount,
  canRunAsAnotherAccount,
  type Desk,
  NOBODY,
  openDesk,
  raw,
} from './desk.js';

/**
 * Issue 40, low finding: nothing braked guessing the status token or the login codes. Now every
 * wrong token, wrong code and session presented by the wrong person is a failure of its source
 * (the uid on this PC, the address beyond: src/status/callers/attempts.ts); after 10 in a minute the
 * source is answered 429 unseen, a right guess included, while other accounts go on as before.
 */

const TOKEN = 'action-token-0123456789abcdef';

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

describe.skipIf(!canRunAsAnotherAccount)('guessing from another account', () => {
  it('10 wrong tokens, then even the right one is refused; the desk’s own account is not', async () => {
    desk = await openDesk({ accessToken: TOKEN });
    const guess = (token: string): AccountRequest => ({
      path: '/status.json',
      headers: { authorization: `Bearer ${token}` },
    });
    const guesses = Array.from({ length: 10 }, (_, i) => guess(`guess-${i}-0123456789abcdef`));
    const answers = await asAccount(NOBODY, desk.server.url, [...guesses, guess(TOKEN)]);
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(401), 429]);
    const own = await raw(desk.server.url, '/status.json', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(own.status).toBe(200);
    // A minute later the account may try again.
    await desk.clock.advance(60_000);
    expect((await asAccount(NOBODY, desk.server.url, [guess(TOKEN)]))[0]?.status).toBe(200);
  });

  it('10 wrong login codes, then the login page answers 429 to that account only', async () => {
    desk = await openDesk();
    const codes = Array.from(
      { length: 11 },
      (_, i): AccountRequest => ({
        path: `/login?token=${String(i).padStart(43, 'A')}`,
      }),
    );
    const answers = await asAccount(NOBODY, desk.server.url, codes);
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(401), 429]);
    expect(answers[10]?.headers['retry-after']).toMatch(/^\d+$/);
    const address = desk.server.loginAddress({ login: 'link', uid: process.getuid?.() ?? 0, user: 'maria' });
    expect((await raw(address, address)).status).toBe(303);
  });
});
