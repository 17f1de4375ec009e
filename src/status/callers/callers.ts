import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../../log.js';
import { isLoopback } from '../../loopback.js';
import type { PeerCredentials, StaffSocket } from '../sockets/index.js';
import { isLoopbackHostHeader, safeEqual } from './access.js';
import type { FailedAttempts } from './attempts.js';
import { sessionCookieValues } from './session-cookie.js';
import { describeBinding, type Peer, type StaffSession, type StaffSessions } from './staff-sessions.js';

/**
 * Who sent a request to the status server, and what they may do. Being on this PC proves nothing
 * (any Unix account, a CUPS filter running as `lp`, malware in the receptionist's session can
 * reach 127.0.0.1), so a caller is one of:
 *
 * - `staff-socket`: came through the staff socket; the kernel named a staff uid (staff-socket.ts);
 * - `session`: a browser with the page's session cookie, presented by the person it is bound to
 *   (staff-sessions.ts: the same Unix user on this PC, the same address beyond it);
 * - `token`: `Authorization: Bearer <action token>` (`status.accessTokenFile`): scripts, IT. From
 *   beyond loopback only over TLS (`status.tls`): the token is never accepted after it crossed
 *   the network in clear;
 * - `metrics`: `Authorization: Bearer <metrics token>` (`status.metricsTokenFile`): `/metrics` and
 *   `/healthz` only, for Prometheus; it can read no receipt and act on nothing;
 * - `anonymous`: none of these — it may read `/healthz` and `/metrics` from a loopback address
 *   and name, and open `/login`, nothing else;
 * - `refused`: came through the staff socket but is not staff (its connection is being closed).
 *
 * Wrong tokens and sessions presented by the wrong person are failures of their source (the uid
 * on this PC, the address beyond it): after `FailedAttempts`' limit the source's attempts are
 * refused unseen for a while. A session presented by someone it is not bound to is audited
 * (`audit=session-refused`, one line a minute per source: `Logger.repeated`).
 */

export type Caller =
  | { kind: 'staff-socket'; peer: PeerCredentials }
  | { kind: 'session'; session: StaffSession; cookie: string; peer: Peer }
  | { kind: 'token'; peer: Peer }
  | { kind: 'metrics'; peer: Peer }
  | { kind: 'anonymous'; peer: Peer; refusal?: Refusal }
  | { kind: 'refused' };

/** Why a caller who presented a credential is anonymous. */
export type Refusal = 'wrong-token' | 'token-in-clear' | 'too-many-attempts';

export interface CallerDeps {
  sessions: StaffSessions;
  /** The action token (`status.accessTokenFile`). */
  accessToken?: string | undefined;
  /** The read-only metrics token (`status.metricsTokenFile`). */
  metricsToken?: string | undefined;
  staff?: StaffSocket | undefined;
  /** The session cookie's name (session-cookie.ts). */
  cookieName: string;
  /** Who is at the other end of a TCP connection (peers.ts). */
  peerOf(socket: Socket, ip: string | undefined): Promise<Peer>;
  attempts: FailedAttempts;
  log: Logger;
}

/** The bearer token a request carries, if any. */
function bearerOf(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

/** The source a failure counts against: the uid on this PC, the address beyond it. */
export function sourceOf(peer: Peer): string {
  return peer.local ? `uid ${peer.uid ?? 'unknown'}` : `address ${peer.address}`;
}

/** True when the connection is TLS (`status.tls`). */
function encrypted(socket: Socket): boolean {
  return (socket as Socket & { encrypted?: boolean }).encrypted === true;
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
  const bearer = bearerOf(raw.headers);
  const cookies = sessionCookieValues(raw.headers.cookie, deps.cookieName);
  if (bearer === undefined && cookies.length === 0) {
    return {
      kind: 'anonymous',
      peer: { local: ip !== undefined && isLoopback(ip), address: ip ?? 'unknown' },
    };
  }
  const peer = await deps.peerOf(raw.socket, ip);
  const source = sourceOf(peer);
  if (deps.attempts.blockedFor(source) !== undefined) {
    return { kind: 'anonymous', peer, refusal: 'too-many-attempts' };
  }
  if (bearer !== undefined) return bearerCaller(bearer, peer, encrypted(raw.socket), deps);
  const found = cookies.map((cookie) => ({ cookie, found: deps.sessions.find(cookie, peer) }));
  for (const { cookie, found: match } of found) {
    if (match && !match.mismatch) return { kind: 'session', session: match.session, cookie, peer };
  }
  for (const { found: match } of found) {
    if (!match?.mismatch) continue;
    deps.attempts.failed(source);
    deps.log.repeated('a page session was presented by someone it does not belong to; refused', source, {
      audit: 'session-refused',
      session: match.session.id,
      login: match.session.identity.login,
      owner: describeBinding(match.session.bound),
      from: peer.address,
      ...(peer.uid !== undefined ? { uid: peer.uid } : {}),
      reason: match.mismatch,
    });
  }
  return { kind: 'anonymous', peer };
}

function bearerCaller(bearer: string, peer: Peer, tls: boolean, deps: CallerDeps): Caller {
  if (deps.accessToken !== undefined && safeEqual(bearer, deps.accessToken)) {
    if (peer.local || tls) return { kind: 'token', peer };
    deps.log.repeated(
      'the action token came from another machine over plain HTTP; refused (configure status.tls, or use an SSH tunnel)',
      peer.address,
      { from: peer.address },
    );
    return { kind: 'anonymous', peer, refusal: 'token-in-clear' };
  }
  if (deps.metricsToken !== undefined && safeEqual(bearer, deps.metricsToken))
    return { kind: 'metrics', peer };
  const source = sourceOf(peer);
  deps.attempts.failed(source);
  deps.log.repeated('a request with a wrong status token; refused', source, {
    from: peer.address,
    ...(peer.uid !== undefined ? { uid: peer.uid } : {}),
  });
  return { kind: 'anonymous', peer, refusal: 'wrong-token' };
}

/** What a path asks of its caller. */
export type Access = 'open' | 'login' | 'staff' | 'socket';

export function accessOf(path: string): Access {
  if (path === '/healthz' || path === '/metrics') return 'open';
  if (path === '/login') return 'login';
  if (path === '/login-links' || path.startsWith('/login-links/')) return 'socket';
  return 'staff';
}

/** True for a loopback peer that addressed the request to a loopback name (no DNS rebinding). */
export function isLocalAndAddressedLocally(ip: string | undefined, hostHeader: string | undefined): boolean {
  return ip !== undefined && isLoopback(ip) && isLoopbackHostHeader(hostHeader);
}

/** The decision for one request: `ok`, or why not. */
export type Verdict = 'ok' | 'login-first' | 'not-staff' | 'socket-only' | 'metrics-only' | Refusal;

export function verdict(
  access: Access,
  caller: Caller,
  ip: string | undefined,
  hostHeader: string | undefined,
): Verdict {
  if (caller.kind === 'refused') return 'not-staff';
  if (access === 'login')
    return caller.kind === 'anonymous' && caller.refusal === 'too-many-attempts' ? caller.refusal : 'ok';
  if (access === 'socket') return caller.kind === 'staff-socket' ? 'ok' : 'socket-only';
  if (caller.kind === 'metrics') return access === 'open' ? 'ok' : 'metrics-only';
  if (caller.kind !== 'anonymous') return 'ok';
  if (caller.refusal) return caller.refusal;
  if (access === 'open' && isLocalAndAddressedLocally(ip, hostHeader)) return 'ok';
  return 'login-first';
}

/** Whether the caller is a browser (a page session): only then do Origin and CSRF token apply. */
export function isBrowserSession(caller: Caller): caller is Extract<Caller, { kind: 'session' }> {
  return caller.kind === 'session';
}
