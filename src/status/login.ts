import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '../messages/catalogue.js';
import type { MessageRenderer } from '../messages/render.js';
import { isSameOrigin, safeEqual } from './access.js';
import { type Caller, CLEARED_SESSION_COOKIE, sessionCookie } from './callers.js';
import { html, trusted } from './html.js';
import { staffMessages as m } from './messages.js';
import { PAGE_CSS } from './page-assets.js';
import type { StaffIdentity, StaffSessions } from './staff-sessions.js';

/**
 * How a browser gets a page session (staff-sessions.ts):
 *
 * - `GET /login?token=<code>`: a one-time code from `frontdesk-agent login` (or the address
 *   `npm start` prints) is spent and exchanged for the session cookie, then `303 ./`;
 * - `GET /login?token=<status token>` or the login form (`POST /login`, same origin): the status
 *   token opens a session too (IT; a remote browser when the page listens beyond loopback);
 * - `POST /logout` (the session's CSRF token) ends it;
 * - `POST /login-links`, on the staff socket only: a new one-time address for the Unix user the
 *   kernel named, which is what `frontdesk-agent login` prints. Whoever opens it acts in the page
 *   as that user in the audit.
 *
 * Nothing here echoes a code or token; a refused login is logged without it.
 */

export interface LoginDeps {
  sessions: StaffSessions;
  accessToken?: string | undefined;
  say: MessageRenderer;
  locale: Locale;
  log: { warn(message: string, fields?: Record<string, unknown>): void };
  /** The request's caller, as the server's first hook identified it. */
  callerOf(request: FastifyRequest): Caller;
  /** The page's CSP for a nonce (server.ts). */
  csp(nonce: string): string;
}

const COMMAND = 'frontdesk-agent login';

/** The login page: what to do, and the form for the status token. */
export function renderLoginPage(
  say: MessageRenderer,
  locale: Locale,
  nonce: string,
  refused: boolean,
): string {
  const title = say.render(m.title());
  return html`<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title}</title>
<style nonce="${nonce}">${trusted(PAGE_CSS)}</style>
</head>
<body>
<main><section class="wide" id="login"><h2>${title}</h2>
${refused ? html`<p class="badge err" id="login-refused">${say.render(m.refused({ command: COMMAND }))}</p>` : ''}
<p>${say.render(m.howStaff({ command: COMMAND }))}</p>
<p class="muted">${say.render(m.howIt())}</p>
<form method="post" action="login" class="cut">
<label>${say.render(m.tokenLabel())}<input name="token" type="password" required autocomplete="current-password" spellcheck="false"></label>
<button type="submit">${say.render(m.submit())}</button>
</form></section></main>
</body>
</html>`.value;
}

/** The address a browser on this PC opens: loopback for a wildcard bind. */
export function localBaseUrl(address: AddressInfo | string | null): string | undefined {
  if (!address || typeof address === 'string') return undefined;
  const host =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/`;
}

export function registerLogin(app: FastifyInstance, deps: LoginDeps): void {
  const { sessions, say } = deps;

  const loginPage = (reply: FastifyReply, status: number, refused: boolean) => {
    const nonce = randomBytes(16).toString('base64');
    return reply
      .code(status)
      .header('content-security-policy', deps.csp(nonce))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderLoginPage(say, deps.locale, nonce, refused));
  };

  /** The identity a presented secret proves: a live one-time code, or the status token. */
  const prove = (secret: string): StaffIdentity | undefined => {
    const identity = sessions.redeemCode(secret);
    if (identity) return identity;
    if (deps.accessToken !== undefined && safeEqual(secret, deps.accessToken))
      return { login: 'status-token' };
    return undefined;
  };

  const logIn = (reply: FastifyReply, secret: unknown) => {
    const identity = typeof secret === 'string' && secret.length <= 200 ? prove(secret) : undefined;
    if (!identity) {
      deps.log.warn('status page login refused');
      return loginPage(reply, 401, true);
    }
    const { cookie } = sessions.open(identity);
    return reply
      .code(303)
      .header('set-cookie', sessionCookie(cookie, sessions.sessionMs))
      .header('cache-control', 'no-store')
      .header('location', './')
      .send();
  };

  app.get('/login', async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    if (token === undefined) return loginPage(reply, 200, false);
    return logIn(reply, token);
  });

  app.post('/login', async (request, reply) => {
    // A page elsewhere must not log this browser in to a session of its choosing.
    if (!isSameOrigin(request.headers)) return reply.code(403).send({ error: { code: 'CROSS_SITE' } });
    return logIn(reply, ((request.body ?? {}) as Record<string, unknown>).token);
  });

  app.post('/logout', async (request, reply) => {
    const caller = deps.callerOf(request);
    if (caller.kind === 'session') {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const presented = typeof body.csrf === 'string' ? body.csrf : '';
      if (!isSameOrigin(request.headers) || !safeEqual(presented, caller.session.csrfToken))
        return reply.code(403).send({ error: { code: 'CSRF' } });
      sessions.close(caller.cookie);
    }
    return reply.code(303).header('set-cookie', CLEARED_SESSION_COOKIE).header('location', 'login').send();
  });

  app.post('/login-links', async (request, reply) => {
    const caller = deps.callerOf(request);
    if (caller.kind !== 'staff-socket') return reply.code(403).send({ error: { code: 'SOCKET_ONLY' } });
    const base = localBaseUrl(app.server.address());
    if (!base)
      return reply.code(503).send({ error: { code: 'NOT_LISTENING', notes: say.render(m.notListening()) } });
    const { peer } = caller;
    const code = sessions.mintCode({
      login: 'link',
      uid: peer.uid,
      ...(peer.user ? { user: peer.user } : {}),
    });
    return reply
      .header('cache-control', 'no-store')
      .send({ url: `${base}login?token=${code}`, expiresInSeconds: Math.round(sessions.codeMs / 1000) });
  });
}
