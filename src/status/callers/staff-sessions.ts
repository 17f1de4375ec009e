import { createHash } from 'node:crypto';
import { type Clock, systemClock } from '../../clock.js';
import { randomToken } from './access.js';

/**
 * The page's logins. A browser acts only inside a session: it gets one by presenting a one-time
 * login code (from `frontdesk-agent login` on the staff socket, or the address `npm start`
 * prints) or the action token, and keeps it as an HttpOnly, SameSite=Strict cookie. Each session
 * has its own CSRF token, served only to it.
 *
 * A code and a session belong to a person (issue 40, item 1): a code is minted for the Unix user
 * the staff socket named, and only a browser of that user on this PC redeems it — a connection
 * whose socket the kernel lists under another uid (peer-uid.ts) is refused and the code stays
 * good for its owner. A session is bound to what opened it: the uid of a browser on this PC, the
 * address of one beyond it. A cookie presented from anywhere else opens nothing, so a cookie that
 * leaked to another local port (cookies ignore ports, RFC 6265 §8.5) is worth nothing to the
 * account that caught it.
 *
 * A session ends after `sessionMs` (a shift), or after `idleMs` without a request or an open page.
 * Codes and session ids are 256-bit random strings, kept only as SHA-256 digests (a lookup's
 * timing says nothing about a secret), in memory: a restart logs everyone out. Both are bounded
 * in number (the oldest go first), so nobody can fill the agent's memory.
 */

/** How a page session was opened, and by whom when a Unix user asked for the login address. */
export interface StaffIdentity {
  login: 'link' | 'status-token' | 'start-link';
  uid?: number;
  user?: string;
}

/** A one-time code's owner: the Unix user who asked for it. */
export type CodeOwner = StaffIdentity & { uid: number };

/** Who is asking, as the connection shows it. */
export interface Peer {
  /** The connection comes from this PC (a loopback address). */
  local: boolean;
  address: string;
  /** For a local peer, the uid owning its socket (undefined when the kernel's tables do not say). */
  uid?: number | undefined;
}

/** What a session is bound to: the uid of a browser on this PC, the address of one beyond it. */
export type Binding = { uid: number } | { address: string };

export interface StaffSession {
  /** A public, short id for the audit line (not the cookie's value). */
  readonly id: string;
  readonly identity: StaffIdentity;
  readonly bound: Binding;
  readonly csrfToken: string;
  readonly expiresAt: number;
  /** The last request or page refresh of this session. */
  lastSeen: number;
}

/** Why a session or code was not honoured for a peer that presented it. */
export type Mismatch = 'another-user' | 'another-address' | 'unknown-user' | 'not-this-pc';

export interface StaffSessionsOptions {
  clock?: Clock;
  /** How long a session lasts at most: a shift (default 8 h). */
  sessionMs?: number;
  /** A session with no request and no open page for this long ends (default 30 min). */
  idleMs?: number;
  /** How long a login code from `frontdesk-agent login` waits for its browser (default 5 min). */
  codeMs?: number;
  maxSessions?: number;
  maxCodes?: number;
}

const digest = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

export const DEFAULT_SESSION_MS = 8 * 3600_000;
export const DEFAULT_IDLE_MS = 30 * 60_000;
export const DEFAULT_CODE_MS = 5 * 60_000;

/** The binding a peer would give a new session; a mismatch when it cannot have one. */
export function bindingOf(peer: Peer): Binding | Mismatch {
  if (!peer.local) return { address: peer.address };
  return peer.uid === undefined ? 'unknown-user' : { uid: peer.uid };
}

/** Whether `peer` is what `bound` names; the mismatch otherwise. */
export function matches(bound: Binding, peer: Peer): Mismatch | undefined {
  if ('uid' in bound) {
    if (!peer.local) return 'not-this-pc';
    if (peer.uid === undefined) return 'unknown-user';
    return peer.uid === bound.uid ? undefined : 'another-user';
  }
  return !peer.local && peer.address === bound.address ? undefined : 'another-address';
}

/** A binding for the audit line: `uid 1001`, `address 192.0.2.7`. */
export function describeBinding(bound: Binding): string {
  return 'uid' in bound ? `uid ${bound.uid}` : `address ${bound.address}`;
}

export class StaffSessions {
  readonly sessionMs: number;
  readonly idleMs: number;
  readonly codeMs: number;
  private readonly clock: Clock;
  private readonly maxSessions: number;
  private readonly maxCodes: number;
  private readonly codes = new Map<string, { owner: CodeOwner; expiresAt: number }>();
  private readonly sessions = new Map<string, StaffSession>();

  constructor(options: StaffSessionsOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.sessionMs = options.sessionMs ?? DEFAULT_SESSION_MS;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.codeMs = options.codeMs ?? DEFAULT_CODE_MS;
    this.maxSessions = options.maxSessions ?? 50;
    this.maxCodes = options.maxCodes ?? 20;
  }

  /** A new one-time login code for `owner`, valid for `ttlMs` (default `codeMs`). */
  mintCode(owner: CodeOwner, ttlMs = this.codeMs): string {
    this.sweep();
    const code = randomToken();
    this.codes.set(digest(code), { owner, expiresAt: this.clock.now() + ttlMs });
    for (const key of this.codes.keys()) if (this.codes.size > this.maxCodes) this.codes.delete(key);
    return code;
  }

  /**
   * Redeems a code for `peer`: its owner when the code is live and `peer` is its owner's browser
   * on this PC (the code is spent); `{mismatch}` when someone else presents a live code (it stays
   * good for its owner); undefined for anything else.
   */
  redeemCode(
    code: string,
    peer: Peer,
  ): { owner: CodeOwner } | { mismatch: Mismatch; owner: CodeOwner } | undefined {
    const key = digest(code);
    const entry = this.codes.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.codes.delete(key);
      return undefined;
    }
    const mismatch = matches({ uid: entry.owner.uid }, peer);
    if (mismatch) return { mismatch, owner: entry.owner };
    this.codes.delete(key);
    return { owner: entry.owner };
  }

  /** Opens a session bound to `bound`; the cookie's value is returned once and kept only as a digest. */
  open(identity: StaffIdentity, bound: Binding): { cookie: string; session: StaffSession } {
    this.sweep();
    const cookie = randomToken();
    const key = digest(cookie);
    const now = this.clock.now();
    const session: StaffSession = {
      id: key.slice(0, 12),
      identity,
      bound,
      csrfToken: randomToken(),
      expiresAt: now + this.sessionMs,
      lastSeen: now,
    };
    this.sessions.set(key, session);
    for (const old of this.sessions.keys())
      if (this.sessions.size > this.maxSessions) this.sessions.delete(old);
    return { cookie, session };
  }

  /**
   * The live session a cookie names, for `peer`: `{session}` when the peer is what the session is
   * bound to (the session counts as used now), `{session, mismatch}` when someone else presents
   * it, undefined when it names no live session (unknown, over its lifetime, or idle too long).
   */
  find(cookie: string | undefined, peer: Peer): { session: StaffSession; mismatch?: Mismatch } | undefined {
    const session = this.live(cookie);
    if (!session) return undefined;
    const mismatch = matches(session.bound, peer);
    if (mismatch) return { session, mismatch };
    session.lastSeen = this.clock.now();
    return { session };
  }

  /**
   * Keeps a session alive while its page is open (the live feed asks every few seconds); false
   * once it has ended (logged out, over its lifetime), so the feed closes the page's stream.
   */
  keepAlive(cookie: string): boolean {
    const session = this.live(cookie);
    if (session) session.lastSeen = this.clock.now();
    return session !== undefined;
  }

  /** Ends the session a cookie names (log out). */
  close(cookie: string): void {
    this.sessions.delete(digest(cookie));
  }

  private live(cookie: string | undefined): StaffSession | undefined {
    if (!cookie) return undefined;
    const key = digest(cookie);
    const session = this.sessions.get(key);
    if (!session) return undefined;
    if (this.ended(session, this.clock.now())) {
      this.sessions.delete(key);
      return undefined;
    }
    return session;
  }

  private ended(session: StaffSession, now: number): boolean {
    return session.expiresAt <= now || session.lastSeen + this.idleMs <= now;
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.codes) if (entry.expiresAt <= now) this.codes.delete(key);
    for (const [key, session] of this.sessions) if (this.ended(session, now)) this.sessions.delete(key);
  }
}
