import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { driverRegistry } from '../../../drivers/index.js';
import {
  discoverIppPrinters,
  lanPrinterUri,
  type MdnsRecord,
  printersFromMdns,
} from '../../../drivers/ipp-printer/discovery.js';
import { ippPrinterFactory } from '../../../drivers/ipp-printer/index.js';
import { type IppSimulator, startIppSimulator } from '../../../drivers/ipp-printer/simulator/index.js';
import { devicesCommand } from '../../../src/cli/devices.js';
import type { CliIo } from '../../../src/cli/io.js';
import { testPageCommand } from '../../../src/cli/test-page.js';
import type { DriverFactory, DriverRegistry } from '../../../src/drivers-api/types.js';
import { silentLogger } from '../../../src/log.js';
import { createHttpClient } from '../../../src/transport/http.js';
import { captureCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/daemon.js';

/** What a browse collects when two printers answer (dns-packet shapes: TXT as Buffers). */
const RECORDS: MdnsRecord[] = [
  { name: '_ipp._tcp.local', type: 'PTR', data: 'Back Office Inkjet._ipp._tcp.local' },
  { name: '_ipps._tcp.local', type: 'PTR', data: 'Reception\\032HP\\032M404._ipps._tcp.local' },
  { name: '_ipp._tcp.local', type: 'PTR', data: 'Reception\\032HP\\032M404._ipp._tcp.local' },
  {
    name: 'Back Office Inkjet._ipp._tcp.local',
    type: 'SRV',
    data: { port: 631, target: 'inkjet.local', priority: 0, weight: 0 },
  },
  {
    name: 'Back Office Inkjet._ipp._tcp.local',
    type: 'TXT',
    data: [
      Buffer.from('txtvers=1'),
      Buffer.from('rp=ipp/print'),
      Buffer.from('ty=EPSON ET-2850'),
      Buffer.from('pdl=application/pdf,image/urf'),
    ],
  },
  { name: 'inkjet.local', type: 'A', data: '192.168.1.61' },
  {
    name: 'Reception\\032HP\\032M404._ipps._tcp.local',
    type: 'SRV',
    data: { port: 443, target: 'hp-m404.local.', priority: 0, weight: 0 },
  },
  {
    name: 'Reception\\032HP\\032M404._ipps._tcp.local',
    type: 'TXT',
    data: [Buffer.from('rp=ipp/print'), Buffer.from('UUID=1234'), Buffer.from('ty=HP LaserJet Pro M404')],
  },
  {
    name: 'Reception\\032HP\\032M404._ipp._tcp.local',
    type: 'SRV',
    data: { port: 631, target: 'hp-m404.local.', priority: 0, weight: 0 },
  },
  {
    name: 'Reception\\032HP\\032M404._ipp._tcp.local',
    type: 'TXT',
    data: [Buffer.from('rp=ipp/print'), Buffer.from('UUID=1234')],
  },
  { name: 'hp-m404.local', type: 'A', data: '192.168.1.60' },
  // An instance without SRV is left out rather than guessed.
  { name: '_ipp._tcp.local', type: 'PTR', data: 'Ghost._ipp._tcp.local' },
];

const HP_FINGERPRINT = Array.from({ length: 32 }, (_, i) =>
  (i * 7).toString(16).padStart(2, '0').toUpperCase(),
).join(':');

/** Captured CLI streams, usable where the commands take a `CliIo`. */
function captureIo(): CliIo & { out: () => string; err: () => string } {
  const { io, out, err } = captureCli();
  return { ...io, out, err };
}

describe('printers found on the LAN by mDNS', () => {
  it('turns PTR, SRV, TXT and A records into printers, preferring IPPS for one printer', () => {
    const printers = printersFromMdns(RECORDS);
    expect(printers.map((p) => [p.instance, lanPrinterUri(p), p.makeAndModel])).toEqual([
      ['Back Office Inkjet', 'ipp://192.168.1.61/ipp/print', 'EPSON ET-2850'],
      ['Reception HP M404', 'ipps://192.168.1.60:443/ipp/print', 'HP LaserJet Pro M404'],
    ]);
    expect(printers[0]?.addresses).toEqual(['192.168.1.61']);
    expect(printers[0]?.formats).toEqual(['application/pdf', 'image/urf']);
  });

  it('ignores garbage records', () => {
    expect(
      printersFromMdns([
        { name: '_ipp._tcp.local', type: 'PTR', data: 42 },
        { name: 'x', type: 'SRV' },
      ]),
    ).toEqual([]);
  });
});

describe('devices and test-page on the command line', () => {
  let sim: IppSimulator;
  beforeAll(async () => {
    sim = await startIppSimulator({ printers: [{ name: 'Front_Desk', pageMs: 1 }] });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('devices lists CUPS queues and LAN printers with suggested options', async () => {
    const cupsUrl = `ipp://127.0.0.1:${sim.port}`;
    const factory: DriverFactory<unknown> = {
      ...(ippPrinterFactory as DriverFactory<unknown>),
      discover: (ctx) =>
        discoverIppPrinters(ctx, {
          cupsUrl,
          browse: async () => RECORDS,
          // The HP presents a certificate on its IPPS port; the inkjet has none.
          certificateOf: async (host, port) =>
            host === '192.168.1.60' && port === 443 ? HP_FINGERPRINT : undefined,
        }),
    };
    const registry: DriverRegistry = new Map([['ipp-printer', async () => factory]]);
    const io = captureIo();
    const code = await devicesCommand({ json: false, lan: true }, io, {
      registry,
      listCandidates: async () => ({ devices: [], problems: [] }),
    });
    expect(code).toBe(0);
    expect(io.out()).toContain(`print  Front_Desk  ${cupsUrl}/printers/Front_Desk`);
    expect(io.out()).toContain(
      `driver: ipp-printer  options: {"printers":{"Front_Desk":"${cupsUrl}/printers/Front_Desk"}}`,
    );
    expect(io.out()).toContain(
      `IPP printer on the LAN (mDNS): HP LaserJet Pro M404, at 192.168.1.60, certificate SHA-256 ${HP_FINGERPRINT}`,
    );
    expect(io.out()).toContain(
      `options: {"printers":{"Reception HP M404":"ipps://192.168.1.60:443/ipp/print"},"tls":{"fingerprint":"${HP_FINGERPRINT}"}}`,
    );
    expect(io.out()).toContain(
      'EPSON ET-2850, at 192.168.1.61, no TLS certificate: documents would cross the LAN unencrypted',
    );
    const json = captureIo();
    await devicesCommand({ json: true, lan: true }, json, {
      registry,
      listCandidates: async () => ({ devices: [], problems: [] }),
    });
    expect(JSON.parse(json.out()).found).toHaveLength(3);
  });

  it('devices without CUPS says so and never fails', async () => {
    const report = await discoverIppPrinters(
      { http: createHttpClient, log: silentLogger, signal: new AbortController().signal, browseMs: 0 },
      { cupsUrl: 'ipp://127.0.0.1:1' },
    );
    expect(report.devices).toEqual([]);
    expect(report.problems).toEqual([
      'No CUPS at ipp://127.0.0.1:1 (nothing answers there); install and start cups to print through local queues',
    ]);
  });

  it('test-page prints a one-page PDF the agent makes, through the device’s driver', async () => {
    const dir = tempDir('test-page');
    const config = join(dir, 'agent.yaml');
    writeFileSync(
      config,
      stringify({
        version: 1,
        platform: { url: 'http://127.0.0.1:9' },
        journal: { path: join(dir, 'journal.db') },
        devices: [
          {
            id: 'p1',
            name: 'Front desk printer',
            type: 'Printer',
            driver: 'ipp-printer',
            options: {
              printers: { 'Front Desk': sim.printerUri('Front_Desk') },
              cupsQueues: false,
              pollIntervalMs: 50,
            },
          },
        ],
      }),
    );
    const io = captureIo();
    expect(await testPageCommand({ config, device: 'p1' }, io, driverRegistry)).toBe(0);
    // No `locale:` and the default zone (Europe/Rome): it speaks Italian.
    expect(io.out()).toBe('Stampa eseguita: 1 copia di 1 pagina su Front Desk\n');
    const printed = sim.printer('Front_Desk').spooled;
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatchObject({
      format: 'application/pdf',
      pages: 1,
      jobName: expect.stringMatching(/^test-page-/),
    });
    const wrong = captureIo();
    await expect(testPageCommand({ config, device: 'nope' }, wrong, driverRegistry)).rejects.toThrow(
      'No device nope',
    );
  });
});
