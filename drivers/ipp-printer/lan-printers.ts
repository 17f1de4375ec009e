import { isIPv6 } from 'node:net';
import tls from 'node:tls';

/**
 * Judging what printers announce on the LAN, for `frontdesk-agent devices`. mDNS is
 * unauthenticated: anyone on the hotel's network can announce any name, any UUID and any host.
 * So (issue 27, finding 7):
 * - two announcements of one UUID are one printer (the `_ipp` and `_ipps` of the same device)
 *   only when they name the same host *and* the same addresses; otherwise both are kept and each
 *   is flagged, since a device copying the real printer's UUID must not hide it;
 * - the suggested address is the printer's IP address, never its `.local` name (which the agent
 *   would resolve again by mDNS at every print, and anyone can answer);
 * - the suggestion carries the SHA-256 fingerprint of the certificate the printer presented, so
 *   the agent then talks only to that device (`tls.fingerprint`), and the person configuring it
 *   can compare it with the printer's own network page.
 */

/** The part of an announced printer these rules read. */
export interface Announced {
  instance: string;
  host: string;
  secure: boolean;
  addresses: string[];
  uuid?: string;
  /** Set here: the other announcements of this UUID that disagree on host or addresses. */
  conflictsWith?: string[];
}

function sameAddresses(a: readonly string[], b: readonly string[]): boolean {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

function agree(a: Announced, b: Announced): boolean {
  return a.host.toLowerCase() === b.host.toLowerCase() && sameAddresses(a.addresses, b.addresses);
}

function describe(p: Announced): string {
  return `"${p.instance}" (${p.host}${p.addresses.length > 0 ? ` at ${p.addresses.join(', ')}` : ''})`;
}

/**
 * One entry per device: announcements of one UUID (or, without one, of one host and instance)
 * that agree on host and addresses become one, the IPPS one kept; disagreeing ones stay apart,
 * each with `conflictsWith` naming the others.
 */
export function mergeAnnouncements<P extends Announced>(printers: readonly P[]): P[] {
  const byKey = new Map<string, P[][]>();
  for (const p of printers) {
    const key = p.uuid ? `uuid:${p.uuid.toLowerCase()}` : `name:${p.host.toLowerCase()}|${p.instance}`;
    const clusters = byKey.get(key) ?? [];
    const same = clusters.find((c) => agree(c[0] as P, p));
    if (same) same.push(p);
    else clusters.push([p]);
    byKey.set(key, clusters);
  }
  const out: P[] = [];
  for (const clusters of byKey.values()) {
    const kept = clusters.map((c) => c.find((p) => p.secure) ?? (c[0] as P));
    for (const p of kept) {
      const others = kept.filter((o) => o !== p);
      out.push(others.length > 0 ? { ...p, conflictsWith: others.map(describe) } : p);
    }
  }
  return out;
}

/** The address to suggest: the first IPv4 address, else the first IPv6 one, else the name. */
export function suggestedHost(p: Pick<Announced, 'host' | 'addresses'>): string {
  const v4 = p.addresses.find((a) => !isIPv6(a));
  if (v4) return v4;
  const v6 = p.addresses[0];
  if (v6) return `[${v6}]`;
  return p.host;
}

/** Reads the certificate a TLS server presents: its SHA-256 fingerprint, or undefined. */
export type CertificateProbe = (
  host: string,
  port: number,
  signal: AbortSignal,
) => Promise<string | undefined>;

/** How long the certificate probe waits for one printer. */
const PROBE_TIMEOUT_MS = 3000;

/**
 * The default probe: a TLS handshake without verification (the point is to *read* the
 * certificate, whatever signed it), then the connection is closed; nothing is sent.
 */
export const tlsCertificateProbe: CertificateProbe = (host, port, signal) =>
  new Promise((resolve) => {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    const socket = tls.connect({ host: bare, port, rejectUnauthorized: false, timeout: PROBE_TIMEOUT_MS });
    const finish = (fingerprint: string | undefined) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(fingerprint);
    };
    const onAbort = () => finish(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('secureConnect', () => finish(socket.getPeerCertificate()?.fingerprint256 || undefined));
    socket.once('timeout', () => finish(undefined));
    socket.once('error', () => finish(undefined));
  });
