import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { StaffIdentity, StaffSessions } from '../../src/status/staff-sessions.js';

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

export const MARIA: StaffIdentity = { login: 'link', uid: 1001, user: 'maria' };

export async function logIn(
  app: FastifyInstance,
  sessions: StaffSessions,
  options: { identity?: StaffIdentity; headers?: Record<string, string>; remoteAddress?: string } = {},
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

/** The session cookie of a staff login on a listening server (its one-time login address). */
export async function loginCookie(server: {
  loginAddress(identity: StaffIdentity, ttlMs?: number): string;
}): Promise<string> {
  const answer = await fetch(server.loginAddress(MARIA), { redirect: 'manual' });
  if (answer.status !== 303) throw new Error(`login refused (${answer.status})`);
  return String(answer.headers.get('set-cookie')).split(';')[0] as string;
}
