import { userInfo } from 'node:os';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { CodeOwner, StaffSessions } from '../../../src/status/callers/staff-sessions.js';

/**
 * A staff member's browser for `inject()` tests: logged in the way staff are (a one-time login
 * address from `frontdesk-agent login`, exchanged at `/login` for the session cookie), then every
 * request carries the cookie. `csrf` is the session's token, as the page and `GET /actions` give it.
 */
export interface StaffBrowser {
  cookie: string;
  csrf: string;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

export const MARIA: CodeOwner = { login: 'link', uid: 1001, user: 'maria' };

/**
 * `peerUid` for a server tested with `inject()` (no socket): every request comes from Maria's
 * account, as a one-time code of hers must (staff-sessions.ts).
 */
export const asMaria = async (): Promise<number> => MARIA.uid;

/** The account running the tests: a code for a browser on a real connection from this process. */
export const THIS_USER: CodeOwner = {
  login: 'link',
  uid: process.getuid?.() ?? 0,
  user: userInfo().username,
};

export async function logIn(
  app: FastifyInstance,
  sessions: StaffSessions,
  options: { identity?: CodeOwner; headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<StaffBrowser> {
  const code = sessions.mintCode(options.identity ?? MARIA);
  const login = await app.inject({
    url: `/login?token=${code}`,
    headers: options.headers ?? {},
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
  if (login.statusCode !== 303) throw new Error(`login refused (${login.statusCode})`);
  const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
  const inject = (request: InjectOptions) =>
    app.inject({
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
      ...request,
      headers: { ...(options.headers ?? {}), ...(request.headers as Record<string, string>), cookie },
    });
  const listing = await inject({ url: '/actions' });
  const csrf = (listing.json() as { csrfToken?: string }).csrfToken;
  if (!csrf) throw new Error('no CSRF token for the session');
  return { cookie, csrf, inject };
}

/** The session cookie of a staff login on a listening server (its one-time login address, for this process's account). */
export async function loginCookie(server: {
  loginAddress(owner: CodeOwner, ttlMs?: number): string;
}): Promise<string> {
  const answer = await fetch(server.loginAddress(THIS_USER), { redirect: 'manual' });
  if (answer.status !== 303) throw new Error(`login refused (${answer.status})`);
  return String(answer.headers.get('set-cookie')).split(';')[0] as string;
}

/** What a browser on the status page sends with its own requests: the page's host and origin. */
export const PAGE_HEADERS = { host: 'localhost:80', origin: 'http://localhost:80' };

/** The page's script requests: the page's origin, JSON sent and JSON wanted. */
export const PAGE_JSON_HEADERS = {
  ...PAGE_HEADERS,
  'content-type': 'application/json',
  accept: 'application/json',
};

/**
 * A POST the page's script makes for this staff member: JSON from the page's origin with the
 * session's CSRF token, as every staff action needs it (`{}` when the action takes no parameters).
 */
export function postFromPage(
  staff: StaffBrowser,
  url: string,
  payload: object = {},
): Promise<LightMyRequestResponse> {
  return staff.inject({
    method: 'POST',
    url,
    headers: { ...PAGE_JSON_HEADERS, 'x-csrf-token': staff.csrf },
    payload,
  });
}
