import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isLoopback } from '../../loopback.js';
import type { Message } from '../../messages/message.js';
import { pageMessages } from '../page/index.js';

/**
 * Pieces of the status server's access rules: secret comparison, cookies, the loopback `Host`
 * check, and how a page session's state-changing request proves it comes from our own page.
 * Pure functions over headers, so the rules are testable without a server; who a caller is, is
 * decided in callers.ts.
 */

/** Compares two secrets in time independent of where they differ (and of their lengths). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}

/** A fresh random token (256 bits, base64url). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** `a=1; b=2` → Map. Malformed pairs are skipped; values are percent-decoded when possible. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // keep the raw value
    }
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}

/** The host part of a `Host` header: `[::1]:8720` → `[::1]`, `localhost:8720` → `localhost`. */
export function hostOnly(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * Without an access token the server trusts loopback only; it must then also refuse requests
 * whose `Host` is not a loopback name, or a web page on another site could reach it through DNS
 * rebinding (its own name resolving to 127.0.0.1) and read or drive it as "same origin".
 */
export function isLoopbackHostHeader(hostHeader: string | undefined): boolean {
  return hostHeader !== undefined && isLoopback(hostOnly(hostHeader));
}

/**
 * Same-origin check for state-changing requests: the `Origin` header (or, when a browser sent
 * none, the `Referer`) must name the host the request was sent to. A request with neither is
 * refused: every browser sends `Origin` on a POST (our pages set `Referrer-Policy: same-origin`,
 * which keeps it for same-origin requests).
 */
export function isSameOrigin(headers: IncomingHttpHeaders): boolean {
  const host = headers.host?.trim().toLowerCase();
  if (!host) return false;
  const claimed = headers.origin ?? headers.referer;
  if (!claimed || claimed === 'null') return false;
  try {
    const url = new URL(claimed);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    // Normalise the Host header under the claimed scheme, so `localhost:80` equals `http://localhost`.
    return new URL(`${url.protocol}//${host}`).host === url.host;
  } catch {
    return false;
  }
}

/** `127.0.0.1:8720`, `[::1]:8720`, `0.0.0.0:8720` → host (without brackets) and port. */
export function parseListen(listen: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([\w.-]+)):(\d{1,5})$/.exec(listen.trim());
  const port = Number(match?.[3]);
  if (!match || !Number.isInteger(port) || port > 65535) {
    throw new Error(`expected host:port, e.g. 127.0.0.1:8720, got ${JSON.stringify(listen)}`);
  }
  return { host: (match[1] ?? match[2]) as string, port };
}

/** Why a state-changing request from a page form is refused (403), for the log and the answer. */
export interface FormRefusal {
  /** For the log line: "cross-site request", "missing or wrong CSRF token". */
  reason: string;
  logFields: Record<string, unknown>;
  code: 'CROSS_SITE' | 'CSRF';
  /** What the person reads, rendered in the page's language by the caller. */
  notes: Message;
}

/**
 * The guard of every page form's POST: same origin (`isSameOrigin`) and the page's CSRF token,
 * in the body's `csrf` field or the `X-CSRF-Token` header. Undefined when the request passes.
 */
export function formRefusal(
  headers: IncomingHttpHeaders,
  body: Record<string, unknown>,
  csrfToken: string,
): FormRefusal | undefined {
  if (!isSameOrigin(headers)) {
    return {
      reason: 'cross-site request',
      logFields: { origin: headers.origin ?? null },
      code: 'CROSS_SITE',
      notes: pageMessages.refusedCrossSite(),
    };
  }
  const header = headers['x-csrf-token'];
  const presented = typeof body.csrf === 'string' ? body.csrf : typeof header === 'string' ? header : '';
  if (!presented || !safeEqual(presented, csrfToken)) {
    return {
      reason: 'missing or wrong CSRF token',
      logFields: {},
      code: 'CSRF',
      notes: pageMessages.refusedStalePage(),
    };
  }
  return undefined;
}

/** The client asked for JSON (a script, the page's fetch) rather than a redirect (a plain form). */
export function wantsJson(headers: IncomingHttpHeaders): boolean {
  return (
    (headers.accept ?? '').includes('application/json') ||
    (headers['content-type'] ?? '').includes('application/json')
  );
}
