import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LogFields, Logger } from '../../log.js';
import type { Locale } from '../../messages/catalogue.js';
import type { Message } from '../../messages/message.js';
import type { MessageRenderer } from '../../messages/render.js';
import { html, pageHead } from '../page/index.js';
import { isSameOrigin, safeEqual } from './access.js';
import type { FailedAttempts } from './attempts.js';
import { type Caller, sourceOf } from './callers.js';
import { staffMessages as m } from './messages.js';
import { clearedSessionCookie, sessionCookie } from './session-cookie.js';
import {
  type Binding,
  bindingOf,
  type Peer,
  type StaffIdentity,
  type StaffSessions,
} from './staff-sessions.js';

/**
 * How a browser gets a page session (staff-sessions.ts):
 *
 * - `GET /login?token=<code>`: a one-time code from `frontdesk-agent login` (or the address
 *   `npm start` prints) is exchanged for the session cookie, then `303 ./` — by a browser of the
 *   Unix user it was minted for, on this PC (peer-uid.ts). Presented by anyone else it is refused,
 *   audited (`audit=login-refused`) and stays good for its owner;
 * - the login form (`POST /login`, same origin): a code as above, or the action token (IT); over
 *   plain HTTP only from this PC (beyond it the token needs `status.tls`). A token in the address
 *   (`GET /login?token=<action token>`) is refused: an address ends up in the browser's history,
 *   the proxy's log and other people's screens;
 * - `POST /logout` (the session's CSRF token) ends it;
 * - `POST /login-links`, on the staff socket only: a new one-time address for the Unix user the
 *   kernel named, which is what `frontdesk-agent login` prints.
 *
 * Every refused attempt is a failure of its source (`FailedAttempts`: the uid here, the address
 * beyond); after the limit the source is answered 429 for a while. Nothing here echoes a code or
 * token; a refused login is logged without it, one line a minute per source (`Logger.repeated`).
 */

export interface LoginDeps {
  sessions: StaffSessions;
  accessToken?: string | undefined;
  metricsToken?: string | undefined;
  say: MessageRenderer;
  locale: Locale;
  log: Logger;
  /** The request's caller, as the server's first hook identified it. */
  callerOf(request: FastifyRequest): Caller;
  /** Who is at the other end of the request's connection. */
  peerOf(request: FastifyRequest): Promise<Peer>;
  attempts: FailedAttempts;
  /** The page is served over HTTPS: the cookie is `__Host-` and `Secure` (session-cookie.ts). */
  tls: boolean;
  /** The page's CSP for a nonce (server.ts). */
  csp(nonce: string): string;
}

const COMMAND = 'frontdesk-agent login';

/** How long a login lasts, as the login page says it. */
export interface LoginTimes {
  sessionMs: number;
  idleMs: number;
}

/** The login page: what to do, and the form for the action token; `refused` says why not, if so. */
export function renderLoginPage(
  say: MessageRenderer,
  locale: Locale,
  nonce: string,
  refused: Message | undefined,
  times: LoginTimes,
): string {
  const title = say.render(m.title());
  const hours = Math.round(times.sessionMs / 3600_000);
  const minutes = Math.round(times.idleMs / 60_000);
  return html`${pageHead(locale, title, nonce)}
<body>
<main><section class="wide" id="login"><h2>${title}</h2>
${refused ? html`<p class="badge err" id="login-refused">${say.render(refused)}</p>` : ''}
<p>${say.render(m.howStaff({ command: COMMAND, hours, minutes }))}</p>
<p class="muted">${say.render(m.howIt())}</p>
<form method="post" action="login" class="cut">
<label>${say.render(m.tokenLabel())}<input name="token" type="password" required autocomplete="current-password" spellcheck="false"></label>
<button type="submit">${say.render(m.submit())}</button>
</form></section></main>
</body>
</html>`.value;
}

/** The address a browser on this PC opens: loopback for a wildcard bind. */
export function localBaseUrl(address: AddressInfo | string | null, tls = false): string | undefined {
  if (!address || typeof address === 'string') return undefined;
  const host =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${address.port}/`;
}

/** The longest secret the login reads (a code or token is 43 characters). */
const MAX_SECRET = 200;

export function registerLogin(app: FastifyInstance, deps: LoginDeps): void {
  const { sessions, say, log, attempts } = deps;

  const loginPage = (reply: FastifyReply, status: number, refused?: Message) => {
    const nonce = randomBytes(16).toString('base64');
    return reply
      .code(status)
      .header('content-security-policy', deps.csp(nonce))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderLoginPage(say, deps.locale, nonce, refused, sessions));
  };

  const isToken = (secret: string) =>
    (deps.accessToken !== undefined && safeEqual(secret, deps.accessToken)) ||
    (deps.metricsToken !== undefined && safeEqual(secret, deps.metricsToken));

  /** A refused attempt: counted against its source, logged a line a minute per source. */
  const refuse = (reply: FastifyReply, peer: Peer, why: string, notes: Message, audit?: LogFields) => {
    const source = sourceOf(peer);
    attempts.failed(source);
    log.repeated(`status page login refused: ${why}`, source, {
      from: peer.address,
      ...(peer.uid !== undefined ? { uid: peer.uid } : {}),
      ...audit,
    });
    return loginPage(reply, 401, notes);
  };

  const open = (reply: FastifyReply, identity: StaffIdentity, bound: Binding) => {
    const { cookie } = sessions.open(identity, bound);
    return reply
      .code(303)
      .header('set-cookie', sessionCookie(cookie, sessions.sessionMs, deps.tls))
      .header('cache-control', 'no-store')
      .header('location', './')
      .send();
  };

  /** A one-time code, spent only by its owner's browser on this PC. */
  const redeem = (reply: FastifyReply, peer: Peer, code: string) => {
    const redeemed = sessions.redeemCode(code, peer);
    if (!redeemed) return refuse(reply, peer, 'unknown or spent code', m.refused({ command: COMMAND }));
    if ('mismatch' in redeemed) {
      return refuse(
        reply,
        peer,
        'the code belongs to another account',
        m.refusedNotYours({ command: COMMAND }),
        {
          audit: 'login-refused',
          owner: `uid ${redeemed.owner.uid}`,
          reason: redeemed.mismatch,
        },
      );
    }
    return open(reply, redeemed.owner, { uid: redeemed.owner.uid });
  };

  /** The action token typed into the form: a session bound to this browser. */
  const withToken = (reply: FastifyReply, peer: Peer) => {
    if (!peer.local && !deps.tls)
      return refuse(reply, peer, 'the token came over plain HTTP', m.tokenNeedsTls());
    const bound = bindingOf(peer);
    if (typeof bound === 'string')
      return refuse(reply, peer, 'no account owns the connection', m.refused({ command: COMMAND }));
    return open(reply, { login: 'status-token', ...('uid' in bound ? { uid: bound.uid } : {}) }, bound);
  };

  /** A source over its limit of failures is answered 429 without looking at what it sent. */
  const throttled = (reply: FastifyReply, peer: Peer) => {
    const waitMs = attempts.blockedFor(sourceOf(peer));
    if (waitMs === undefined) return undefined;
    return reply
      .code(429)
      .header('retry-after', String(Math.ceil(waitMs / 1000)))
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(`${say.render(m.tooManyAttempts({ seconds: Math.ceil(waitMs / 1000) }))}\n`);
  };

  const secretOf = (value: unknown) =>
    typeof value === 'string' && value.length > 0 && value.length <= MAX_SECRET ? value : undefined;

  app.get('/login', async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    if (token === undefined) return loginPage(reply, 200);
    const peer = await deps.peerOf(request);
    const busy = throttled(reply, peer);
    if (busy) return busy;
    const secret = secretOf(token);
    if (secret !== undefined && isToken(secret)) {
      log.repeated('a status token was put in an address; refused', sourceOf(peer), { from: peer.address });
      return loginPage(reply, 400, m.tokenInAddress());
    }
    if (secret === undefined) return refuse(reply, peer, 'malformed code', m.refused({ command: COMMAND }));
    return redeem(reply, peer, secret);
  });

  app.post('/login', async (request, reply) => {
    // A page elsewhere must not log this browser in to a session of its choosing.
    if (!isSameOrigin(request.headers)) return reply.code(403).send({ error: { code: 'CROSS_SITE' } });
    const peer = await deps.peerOf(request);
    const busy = throttled(reply, peer);
    if (busy) return busy;
    const secret = secretOf(((request.body ?? {}) as Record<string, unknown>).token);
    if (secret === undefined) return refuse(reply, peer, 'no code or token', m.refused({ command: COMMAND }));
    if (deps.accessToken !== undefined && safeEqual(secret, deps.accessToken)) return withToken(reply, peer);
    return redeem(reply, peer, secret);
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
    return reply
      .code(303)
      .header('set-cookie', clearedSessionCookie(deps.tls))
      .header('location', 'login')
      .send();
  });

  app.post('/login-links', async (request, reply) => {
    const caller = deps.callerOf(request);
    if (caller.kind !== 'staff-socket') return reply.code(403).send({ error: { code: 'SOCKET_ONLY' } });
    const base = localBaseUrl(app.server.address(), deps.tls);
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
