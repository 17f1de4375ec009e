import type { DiscoveredDevice, DiscoveryContext, DiscoveryReport } from '../../src/drivers-api/types.js';
import { MAX_ANSWER_BYTES } from './config.js';
import { IppClient, IppTransportError } from './ipp-client.js';
import { PRINTER_STATE_NAMES } from './ipp-constants.js';
import {
  type CertificateProbe,
  mergeAnnouncements,
  suggestedHost,
  tlsCertificateProbe,
} from './lan-printers.js';
import { IppOperations } from './operations.js';

/**
 * What `frontdesk-agent devices` shows for office printers: the local CUPS's queues (IPP
 * CUPS-Get-Printers on localhost:631) and IPP printers announcing themselves on the LAN by mDNS /
 * DNS-SD (`_ipp._tcp`, `_ipps._tcp`; the TXT keys `rp`, `ty`, `pdl`, `UUID` of the PWG's "IPP
 * Everywhere" / Apple's Bonjour Printing Specification), each with the `options:` that would use it.
 * The LAN browse is injectable; the default one (multicast-dns) is loaded only when it runs.
 */

/** A DNS resource record as multicast-dns (dns-packet) hands it over. */
export interface MdnsRecord {
  name: string;
  type: string;
  data?: unknown;
}

export type MdnsBrowse = (
  services: readonly string[],
  ms: number,
  signal: AbortSignal,
) => Promise<MdnsRecord[]>;

export interface LanPrinter {
  instance: string;
  host: string;
  port: number;
  secure: boolean;
  resourcePath: string;
  addresses: string[];
  makeAndModel?: string;
  formats?: string[];
  uuid?: string;
  /** Other announcements of this UUID that disagree on host or addresses (lan-printers.ts). */
  conflictsWith?: string[];
}

export const IPP_SERVICES = ['_ipp._tcp.local', '_ipps._tcp.local'] as const;

function txtOf(data: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const items = Array.isArray(data) ? data : data === undefined ? [] : [data];
  for (const item of items) {
    const text = Buffer.isBuffer(item) ? item.toString('utf8') : typeof item === 'string' ? item : '';
    const eq = text.indexOf('=');
    if (eq > 0) out[text.slice(0, eq).toLowerCase()] = text.slice(eq + 1);
  }
  return out;
}

function unescapeInstance(full: string, service: string): string {
  const label = full.endsWith(`.${service}`) ? full.slice(0, -service.length - 1) : full;
  return label
    .replace(/\\(\d{3})/g, (_, d: string) => String.fromCharCode(Number(d)))
    .replace(/\\(.)/g, '$1');
}

/** Turns the records an mDNS browse collected into printers (PTR → SRV → TXT, A/AAAA). */
export function printersFromMdns(records: readonly MdnsRecord[]): LanPrinter[] {
  const out = new Map<string, LanPrinter>();
  const byName = (type: string, name: string) =>
    records.filter((r) => r.type === type && r.name.toLowerCase() === name.toLowerCase());
  for (const service of IPP_SERVICES) {
    for (const ptr of records.filter((r) => r.type === 'PTR' && r.name.toLowerCase() === service)) {
      const full = typeof ptr.data === 'string' ? ptr.data : '';
      if (!full || out.has(full.toLowerCase())) continue;
      const srv = byName('SRV', full)[0]?.data as { port?: unknown; target?: unknown } | undefined;
      if (!srv || typeof srv.port !== 'number' || typeof srv.target !== 'string') continue;
      const txt = txtOf(byName('TXT', full)[0]?.data);
      const host = srv.target.replace(/\.$/, '');
      const addresses = [...byName('A', host), ...byName('AAAA', host)]
        .map((r) => r.data)
        .filter((a): a is string => typeof a === 'string');
      const printer: LanPrinter = {
        instance: unescapeInstance(full, service),
        host,
        port: srv.port,
        secure: service.startsWith('_ipps'),
        resourcePath: (txt.rp ?? 'ipp/print').replace(/^\/+/, ''),
        addresses: [...new Set(addresses)],
      };
      if (txt.ty) printer.makeAndModel = txt.ty;
      if (txt.pdl) printer.formats = txt.pdl.split(',').filter(Boolean);
      if (txt.uuid) printer.uuid = txt.uuid;
      out.set(full.toLowerCase(), printer);
    }
  }
  // One printer announced as both ipp and ipps is one entry (the secure one) only when both name
  // the same host and addresses; a device copying another's UUID stays visible and flagged.
  return mergeAnnouncements([...out.values()]).sort((a, b) => a.instance.localeCompare(b.instance));
}

/**
 * The printer's address as the options should name it: its IP address (a `.local` name would be
 * resolved by unauthenticated mDNS at every print), `ipps://` when `secure`.
 */
export function lanPrinterUri(p: LanPrinter, secure = p.secure): string {
  const port = p.port === 631 ? '' : `:${p.port}`;
  return `${secure ? 'ipps' : 'ipp'}://${suggestedHost(p)}${port}/${p.resourcePath}`;
}

/** The default browse: one multicast-dns socket, a PTR query, a second query for missing records. */
export const multicastBrowse: MdnsBrowse = async (services, ms, signal) => {
  const { default: makeMdns } = await import('multicast-dns');
  const mdns = makeMdns();
  const records: MdnsRecord[] = [];
  mdns.on('response', (packet) => {
    for (const r of [...(packet.answers ?? []), ...(packet.additionals ?? [])]) records.push(r as MdnsRecord);
  });
  mdns.on('warning', () => undefined);
  const failed = new Promise<never>((_, reject) => mdns.once('error', reject));
  failed.catch(() => undefined);
  try {
    mdns.query({ questions: services.map((name) => ({ name, type: 'PTR' as const })) });
    const wait = (t: number) =>
      Promise.race([new Promise<void>((resolve) => setTimeout(resolve, t).unref()), failed]);
    await wait(ms / 2);
    const missing = records
      .filter((r) => r.type === 'PTR' && typeof r.data === 'string')
      .map((r) => r.data as string)
      .filter((full) => !records.some((r) => r.type === 'SRV' && r.name === full));
    if (missing.length > 0 && !signal.aborted) {
      mdns.query({
        questions: missing.flatMap((name) => [
          { name, type: 'SRV' as const },
          { name, type: 'TXT' as const },
        ]),
      });
    }
    await wait(ms / 2);
    return records;
  } finally {
    mdns.destroy();
  }
};

export interface DiscoverOptions {
  cupsUrl?: string;
  browse?: MdnsBrowse;
  /** Reads a LAN printer's certificate fingerprint; default: a TLS handshake (lan-printers.ts). */
  certificateOf?: CertificateProbe;
}

export async function discoverIppPrinters(
  ctx: DiscoveryContext,
  options: DiscoverOptions = {},
): Promise<DiscoveryReport> {
  const devices: DiscoveredDevice[] = [];
  const problems: string[] = [];
  const cupsUrl = options.cupsUrl ?? 'ipp://localhost:631';
  const http = ctx.http();
  try {
    const ops = new IppOperations(new IppClient(http, MAX_ANSWER_BYTES));
    const queues = await ops.cupsQueues(`${cupsUrl.replace(/\/+$/, '')}/`, {
      timeoutMs: 3000,
      user: 'frontdesk-agent',
      signal: ctx.signal,
    });
    if (queues.length === 0)
      problems.push(`CUPS at ${cupsUrl} has no print queues yet (add one with lpadmin or its web page)`);
    for (const q of queues) {
      if (!q.name) continue;
      const address = `${cupsUrl.replace(/\/+$/, '')}/printers/${encodeURIComponent(q.name)}`;
      const state = q.state !== undefined ? (PRINTER_STATE_NAMES[q.state] ?? 'unknown') : 'unknown';
      const reasons = q.reasons.filter((r) => r !== 'none');
      devices.push({
        source: 'CUPS queue',
        name: q.name,
        address,
        note: [q.makeAndModel, state, ...reasons, q.accepting === false ? 'not accepting jobs' : undefined]
          .filter(Boolean)
          .join(', '),
        suggestedOptions: { printers: { [q.name]: address } },
      });
    }
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    const why =
      e instanceof IppTransportError
        ? e.sent
          ? 'it answered something that is not IPP'
          : 'nothing answers there'
        : String(e);
    problems.push(`No CUPS at ${cupsUrl} (${why}); install and start cups to print through local queues`);
  } finally {
    http.close();
  }
  if (ctx.browseMs <= 0) return { devices, problems };
  try {
    const records = await (options.browse ?? multicastBrowse)(IPP_SERVICES, ctx.browseMs, ctx.signal);
    const probe = options.certificateOf ?? tlsCertificateProbe;
    for (const p of printersFromMdns(records)) devices.push(await lanDevice(p, probe, ctx.signal));
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    problems.push(`The LAN could not be browsed for printers (mDNS: ${(e as Error).message})`);
  }
  return { devices, problems };
}

/**
 * One LAN printer as `devices` shows it. The certificate is read at the printer's address and
 * announced port (an `_ipps` port speaks TLS; IPP Everywhere printers and CUPS commonly accept
 * TLS on the plain IPP port too): with one, the suggestion is `ipps://` plus `tls.fingerprint`;
 * without, `ipp://` and a note that documents would cross the LAN unencrypted.
 */
async function lanDevice(
  p: LanPrinter,
  probe: CertificateProbe,
  signal: AbortSignal,
): Promise<DiscoveredDevice> {
  const fingerprint = p.addresses.length > 0 ? await probe(suggestedHost(p), p.port, signal) : undefined;
  const address = lanPrinterUri(p, fingerprint !== undefined);
  const note = [
    p.makeAndModel,
    p.addresses.length > 0 ? `at ${p.addresses.join(', ')}` : 'no address announced: not suggested by name',
    fingerprint
      ? `certificate SHA-256 ${fingerprint}: check it on the printer's own network page`
      : p.addresses.length > 0
        ? 'no TLS certificate: documents would cross the LAN unencrypted'
        : undefined,
    p.conflictsWith
      ? `WARNING: the same UUID is announced by ${p.conflictsWith.join(', ')}; one of them may be impersonating the other, compare the fingerprint with the printer's own page`
      : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  const suggestedOptions: Record<string, unknown> = { printers: { [p.instance]: address } };
  if (fingerprint) suggestedOptions.tls = { fingerprint };
  return { source: 'IPP printer on the LAN (mDNS)', name: p.instance, address, note, suggestedOptions };
}
