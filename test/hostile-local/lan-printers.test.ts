import { rmSync } from 'node:fs';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import {
  discoverIppPrinters,
  type MdnsRecord,
  printersFromMdns,
} from '../../drivers/ipp-printer/discovery.js';
import { silentLogger } from '../../src/log.js';
import { createHttpClient } from '../../src/transport/http.js';
import { tempDir } from '../helpers/daemon.js';
import { selfSignedCertificate } from '../helpers/tls.js';
import { requireTool } from '../helpers/tools.js';

/**
 * Issue 27, finding 7 (what discovery suggests). mDNS is unauthenticated: anyone on the hotel's
 * LAN can announce any instance name, UUID and host. `devices` kept one announcement per UUID,
 * preferring `_ipps`, so a device copying the real printer's UUID over IPPS *hid* the real one
 * and was suggested in its place; and it suggested `.local` names, which the agent resolves by
 * mDNS again at every print, with no certificate to tell the printer from an impostor.
 *
 * Now announcements of one UUID merge only when host and addresses agree, a conflict lists both
 * with a warning, and the suggestion is the printer's IP address with the SHA-256 fingerprint of
 * the certificate it presented (read here from a real TLS listener on 127.0.0.1, as the default
 * probe does on the LAN).
 */

const openssl = requireTool('openssl', 'makes the printer’s self-signed certificate');

const SERVICE_IPP = '_ipp._tcp.local';
const SERVICE_IPPS = '_ipps._tcp.local';

function announce(
  service: string,
  instance: string,
  host: string,
  address: string,
  port: number,
  uuid: string,
): MdnsRecord[] {
  const full = `${instance}.${service}`;
  return [
    { name: service, type: 'PTR', data: full },
    { name: full, type: 'SRV', data: { port, target: `${host}.`, priority: 0, weight: 0 } },
    { name: full, type: 'TXT', data: [Buffer.from('rp=ipp/print'), Buffer.from(`UUID=${uuid}`)] },
    { name: host, type: 'A', data: address },
  ];
}

const context = () => ({
  http: createHttpClient,
  log: silentLogger,
  signal: new AbortController().signal,
  browseMs: 1000,
});

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('printers announced on the LAN', () => {
  it('a device copying the real printer’s UUID does not hide it: both are listed and flagged', async () => {
    const uuid = 'urn:uuid:6d4ff0ce-7156-11e2-0000-00000000cafe';
    const records = [
      ...announce(SERVICE_IPP, 'Reception Laser', 'hp-m404.local', '192.168.1.60', 631, uuid),
      ...announce(SERVICE_IPPS, 'Reception Laser', 'evil.local', '192.168.1.66', 631, uuid),
    ];
    const printers = printersFromMdns(records);
    expect(printers.map((p) => p.addresses)).toEqual(
      expect.arrayContaining([['192.168.1.60'], ['192.168.1.66']]),
    );
    const report = await discoverIppPrinters(context(), {
      cupsUrl: 'ipp://127.0.0.1:1',
      browse: async () => records,
      certificateOf: async () => undefined,
    });
    const lan = report.devices.filter((d) => d.source.includes('mDNS'));
    expect(lan).toHaveLength(2);
    for (const device of lan) expect(device.note).toMatch(/WARNING: the same UUID is announced by/);
  });

  it('the ipp and ipps announcements of one device still make one entry', () => {
    const uuid = 'urn:uuid:0000';
    const printers = printersFromMdns([
      ...announce(SERVICE_IPP, 'Back Office', 'inkjet.local', '192.168.1.61', 631, uuid),
      ...announce(SERVICE_IPPS, 'Back Office', 'inkjet.local', '192.168.1.61', 631, uuid),
    ]);
    expect(printers).toHaveLength(1);
    expect(printers[0]).toMatchObject({ secure: true });
    expect(printers[0]?.conflictsWith).toBeUndefined();
  });

  it.runIf(openssl)(
    'suggests the address with the fingerprint of the certificate the printer presented, never a .local name',
    async () => {
      const dir = tempDir('lan-printer');
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const cert = selfSignedCertificate(dir, 'printer.local');
      const server = tls.createServer({ key: cert.key, cert: cert.cert }, (socket) => socket.end());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
      const port = (server.address() as { port: number }).port;

      const report = await discoverIppPrinters(context(), {
        cupsUrl: 'ipp://127.0.0.1:1',
        browse: async () =>
          announce(SERVICE_IPPS, 'Lobby Printer', 'printer.local', '127.0.0.1', port, 'u-1'),
      });
      const [lobby] = report.devices.filter((d) => d.source.includes('mDNS'));
      expect(lobby?.address).toBe(`ipps://127.0.0.1:${port}/ipp/print`);
      expect(lobby?.suggestedOptions).toEqual({
        printers: { 'Lobby Printer': `ipps://127.0.0.1:${port}/ipp/print` },
        tls: { fingerprint: cert.fingerprint },
      });
      expect(JSON.stringify(lobby)).not.toContain('.local');
    },
  );
});
