/**
 * The page session's cookie: its name, its `Set-Cookie` lines and how a request's `Cookie`
 * header is read.
 *
 * Over plain HTTP (the page on 127.0.0.1) it is `frontdesk_session`: HttpOnly, SameSite=Strict,
 * Path=/. Over HTTPS (`status.tls`) it is `__Host-frontdesk_session` with `Secure`: a browser
 * stores a cookie of that name only from a secure origin, with Path=/ and no Domain (RFC 6265bis
 * §4.1.3.2, the `__Host-` prefix), so no other page — not even one on another port of the same
 * host — can plant one beside it. The prefix needs `Secure`, and `Secure` needs HTTPS: browsers
 * differ on whether http://127.0.0.1 counts as secure for cookies, and a browser that says no
 * would drop the session cookie altogether, so the plain page keeps the plain name.
 *
 * Cookie tossing (another page of the host sets a second `frontdesk_session` with a longer Path,
 * which the browser then sends first, RFC 6265 §5.4) must not lock staff out: the first and the
 * last value of the name are both tried (`sessionCookieValues`), and the session is the one that
 * is live and belongs to the caller (callers.ts).
 */

export const PLAIN_SESSION_COOKIE = 'frontdesk_session';
export const SECURE_SESSION_COOKIE = '__Host-frontdesk_session';

export function sessionCookieName(tls: boolean): string {
  return tls ? SECURE_SESSION_COOKIE : PLAIN_SESSION_COOKIE;
}

function attributes(tls: boolean): string {
  return `Path=/; HttpOnly; SameSite=Strict${tls ? '; Secure' : ''}`;
}

/** `Set-Cookie` for a new session, for its lifetime. */
export function sessionCookie(value: string, maxAgeMs: number, tls: boolean): string {
  return `${sessionCookieName(tls)}=${value}; ${attributes(tls)}; Max-Age=${Math.floor(maxAgeMs / 1000)}`;
}

/** `Set-Cookie` that ends a session in the browser. */
export function clearedSessionCookie(tls: boolean): string {
  return `${sessionCookieName(tls)}=; ${attributes(tls)}; Max-Age=0`;
}

/**
 * The values a `Cookie` header gives `name`: the first and, when it differs, the last. Values are
 * percent-decoded when possible; malformed pairs are skipped.
 */
export function sessionCookieValues(header: string | undefined, name: string): string[] {
  if (!header) return [];
  let first: string | undefined;
  let last: string | undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // keep the raw value
    }
    first ??= value;
    last = value;
  }
  if (first === undefined || last === undefined) return [];
  return first === last ? [first] : [first, last];
}
