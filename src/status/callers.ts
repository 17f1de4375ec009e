import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { isLoopback } from '../loopback.js';
import { isLoopbackHostHeader, parseCookies, safeEqual } from './access.js';
import type { Actor } from './local-actions.js';
import { tokenActorOf } from './local-actions.js';
import type { PeerCredentials } from './peer-credentials.js';
import type { StaffSession, StaffSessions } from './staff-sessions.js';
import type { StaffSocket } from './staff-socket.js';

/**
 * Who sent a request to the status server, and what they may do. Being on this PC proves nothing
 * (any Unix account, a CUPS filter running as `lp`, malware in the receptionist's session can
 * reach 127.0.0.1), so a caller is one of:
 *
 * - `staff-socket`: came through the staff socket; the kernel named a staff uid (staff-socket.ts);
 * - `session`: a browser with the page's session cookie (staff-sessions.ts);
 * - `token`: `Authorization: Bearer <status token>` (a script, Prometheus beyond loopback);
 * - `anonymous`: none of these — it may read `/healthz` and `/metrics` from a loopback address
 *   and name, and open `/login`, nothing else: no page, no `/status.json` (receipt numbers, guest
 *   notes), no `/actions` listing, no CSRF token, no action;
 * - `refused`: came through the staff socket but is not staff (its connection is being closed).
 */

export type Caller =
  | { kind: 'staff-socket'; peer: PeerCredentials }
  | { kind: 'session'; session: StaffSession; cookie: string; from: string }
  | { kind: 'token'; from: string }
  | { kind: 'anonymous'; from: string; wrongToken: boolean }
  | { kind: 'refused' };

/** The page session's cookie. */
export const SESSION_COOKIE = 'frontdesk_session';

/** `Set-Cookie` for a new session: HttpOnly, SameSite=Strict, for the session's lifetime. */
export function sessionCookie(value: string, maxAgeMs: number): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(maxAgeMs / 1000)}`;
}

/** `Set-Cookie` that ends a session in the browser. */
export const CLEARED_SESSION_COOKIE = `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;

export interface CallerDeps {
  sessions: StaffSessions;
  accessToken?: string | undefined;
  staff?: StaffSocket | undefined;
}

/** The bearer token a request carries, if any. */
function bearerOf(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

/** Identifies a request's caller (waits for the kernel's answer on the staff socket). */
export async function identify(
  raw: { headers: IncomingHttpHeaders; socket: Socket },
  ip: string | undefined,
  deps: CallerDeps,
): Promise<Caller> {
  const viaSocket = deps.staff?.peerOf(raw.socket);
  if (viaSocket) {
    const peer = await viaSocket;
    return peer ? { kind: 'staff-socket', peer } : { kind: 'refused' };
  }
  const from = ip ?? 'unknown';
  const bearer = bearerOf(raw.headers);
  if (bearer !== undefined) {
    if (deps.accessToken !== undefined && safeEqual(bearer, deps.accessToken)) return { kind: 'token', from };
    return { kind: 'anonymous', from, wrongToken: true };
  }
  const cookie = parseCookies(raw.headers.cookie).get(SESSION_COOKIE);
  const session = deps.sessions.find(cookie);
  if (session && cookie) return { kind: 'session', session, cookie, from };
  return { kind: 'anonymous', from, wrongToken: false };
}

/** What a path asks of its caller. */
export type Access = 'open' | 'login' | 'staff' | 'socket';

export function accessOf(path: string): Access {
  if (path === '/healthz' || path === '/metrics') return 'open';
  if (path === '/login') return 'login';
  if (path === '/login-links') return 'socket';
  return 'staff';
}

/** True for a loopback peer that addressed the request to a loopback name (no DNS rebinding). */
export function isLocalAndAddressedLocally(ip: string | undefined, hostHeader: string | undefined): boolean {
  return ip !== undefined && isLoopback(ip) && isLoopbackHostHeader(hostHeader);
}

/** The decision for one request: `ok`, or why not. */
export type Verdict = 'ok' | 'login-first' | 'wrong-token' | 'not-staff' | 'socket-only';

export function verdict(
  access: Access,
  caller: Caller,
  ip: string | undefined,
  hostHeader: string | undefined,
): Verdict {
  if (caller.kind === 'refused') return 'not-staff';
  if (access === 'login') return 'ok';
  if (access === 'socket') return caller.kind === 'staff-socket' ? 'ok' : 'socket-only';
  if (caller.kind !== 'anonymous') return 'ok';
  if (caller.wrongToken) return 'wrong-token';
  if (access === 'open' && isLocalAndAddressedLocally(ip, hostHeader)) return 'ok';
  return 'login-first';
}

/** The audit's view of an authenticated caller. */
export function actorOf(caller: Caller): Actor {
  switch (caller.kind) {
    case 'staff-socket':
      return {
        who: 'staff-socket',
        uid: caller.peer.uid,
        ...(caller.peer.user ? { user: caller.peer.user } : {}),
      };
    case 'session': {
      const { identity } = caller.session;
      return {
        who: 'page',
        from: caller.from,
        session: caller.session.id,
        login: identity.login,
        ...(identity.uid !== undefined ? { uid: identity.uid } : {}),
        ...(identity.user ? { user: identity.user } : {}),
      };
    }
    case 'token':
      return tokenActorOf(caller.from);
    default:
      // The server answers anonymous and refused callers itself; an action never sees one.
      throw new Error(`no actor for an unauthenticated caller (${caller.kind})`);
  }
}

/** Whether the caller is a browser (a page session): only then do Origin and CSRF token apply. */
export function isBrowserSession(caller: Caller): caller is Extract<Caller, { kind: 'session' }> {
  return caller.kind === 'session';
}
