import { createHash } from 'node:crypto';
import { type Clock, systemClock } from '../clock.js';
import { randomToken } from './access.js';

/**
 * The page's logins. A browser acts only inside a session: it gets one by presenting a one-time
 * login code (from `frontdesk-agent login` on the staff socket, or the address `npm start`
 * prints) or the status token, and keeps it as an HttpOnly, SameSite=Strict cookie. Each session
 * has its own CSRF token, served only to it.
 *
 * Codes and session ids are 256-bit random strings, kept only as SHA-256 digests (a lookup's
 * timing says nothing about a secret), in memory: a restart logs everyone out. Both expire, and
 * both are bounded in number (the oldest go first), so nobody can fill the agent's memory.
 */

/** How a page session was opened, and by whom when a Unix user asked for the login address. */
export interface StaffIdentity {
  login: 'link' | 'status-token' | 'start-link';
  uid?: number;
  user?: string;
}

export interface StaffSession {
  /** A public, short id for the audit line (not the cookie's value). */
  readonly id: string;
  readonly identity: StaffIdentity;
  readonly csrfToken: string;
  readonly expiresAt: number;
}

export interface StaffSessionsOptions {
  clock?: Clock;
  /** How long a session lasts: a shift (default 12 h). */
  sessionMs?: number;
  /** How long a login code from `frontdesk-agent login` waits for its browser (default 5 min). */
  codeMs?: number;
  maxSessions?: number;
  maxCodes?: number;
}

const digest = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

export const DEFAULT_SESSION_MS = 12 * 3600_000;
export const DEFAULT_CODE_MS = 5 * 60_000;

export class StaffSessions {
  readonly sessionMs: number;
  readonly codeMs: number;
  private readonly clock: Clock;
  private readonly maxSessions: number;
  private readonly maxCodes: number;
  private readonly codes = new Map<string, { identity: StaffIdentity; expiresAt: number }>();
  private readonly sessions = new Map<string, StaffSession>();

  constructor(options: StaffSessionsOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.sessionMs = options.sessionMs ?? DEFAULT_SESSION_MS;
    this.codeMs = options.codeMs ?? DEFAULT_CODE_MS;
    this.maxSessions = options.maxSessions ?? 50;
    this.maxCodes = options.maxCodes ?? 20;
  }

  /** A new one-time login code for `identity`, valid for `ttlMs` (default `codeMs`). */
  mintCode(identity: StaffIdentity, ttlMs = this.codeMs): string {
    this.sweep();
    const code = randomToken();
    this.codes.set(digest(code), { identity, expiresAt: this.clock.now() + ttlMs });
    for (const key of this.codes.keys()) if (this.codes.size > this.maxCodes) this.codes.delete(key);
    return code;
  }

  /** The identity of a valid code, which is spent by this call; undefined for anything else. */
  redeemCode(code: string): StaffIdentity | undefined {
    const key = digest(code);
    const entry = this.codes.get(key);
    if (!entry) return undefined;
    this.codes.delete(key);
    return entry.expiresAt > this.clock.now() ? entry.identity : undefined;
  }

  /** Opens a session; the cookie's value is returned once and kept only as a digest. */
  open(identity: StaffIdentity): { cookie: string; session: StaffSession } {
    this.sweep();
    const cookie = randomToken();
    const key = digest(cookie);
    const session: StaffSession = {
      id: key.slice(0, 12),
      identity,
      csrfToken: randomToken(),
      expiresAt: this.clock.now() + this.sessionMs,
    };
    this.sessions.set(key, session);
    for (const old of this.sessions.keys())
      if (this.sessions.size > this.maxSessions) this.sessions.delete(old);
    return { cookie, session };
  }

  /** The live session a cookie names, or undefined. */
  find(cookie: string | undefined): StaffSession | undefined {
    if (!cookie) return undefined;
    const key = digest(cookie);
    const session = this.sessions.get(key);
    if (!session) return undefined;
    if (session.expiresAt <= this.clock.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return session;
  }

  /** Ends the session a cookie names (log out). */
  close(cookie: string): void {
    this.sessions.delete(digest(cookie));
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.codes) if (entry.expiresAt <= now) this.codes.delete(key);
    for (const [key, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(key);
  }
}
