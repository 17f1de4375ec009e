import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type FpmateSimulator, startFpmateSimulator } from '../../drivers/epson-fpmate/simulator/index.js';
import { ManualClock } from '../../src/clock.js';
import type { CommandState } from '../../src/connector/wire.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { createHttpClient } from '../../src/transport/http.js';
import { runCliCaptured } from '../helpers/cli.js';
import { historyProblems } from '../helpers/command-states.js';
import { createDaemon, type DaemonHandle } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { e2eAgentBase, TOKEN_ENV, TOKENS } from './harness.js';

const RT = 'f1000000-0000-4000-8000-000000000001';
const SERIAL = '99MEY123456';
const TERMINAL: CommandState[] = ['Processed', 'Error', 'Cancelled'];

/**
 * Fiscal printing end to end: the real daemon with the epson-fpmate driver, the RT printer
 * simulator at the command's ApiUrl (allowed by the configuration), and the platform simulator.
 * The printer simulator answers only the reads public drivers make (`directIO 1387`/`3217`). Sales, refunds and payload
 * documents run with every printer fault switch exercised, and a kill -9 between send and answer;
 * at the end the printer's printed documents and the platform's histories agree one to one.
 */
describe('fiscal receipts end to end with the Epson driver', () => {
  let printer: FpmateSimulator;
  let sim: PlatformSimulator;
  let daemon: DaemonHandle;
  const created: string[] = [];
  const printerClock = new ManualClock(Date.now());

  beforeAll(async () => {
    // The printer's own clock only moves when a test says so: its `slow` fault then holds an
    // answer back until the test has done what it needs (kill -9) instead of for some seconds.
    printer = await startFpmateSimulator({ serial: SERIAL, clock: printerClock });
    sim = await startPlatformSimulator({
      scenario: {
        platform: { ...TOKENS, rateLimit: { requests: 100_000, windowSeconds: 30 } },
        devices: [{ id: RT, type: 'FiscalMachine', name: 'RT', apiUrl: printer.url, serialNumber: SERIAL }],
        reservations: { generate: 5 },
      },
    });
    daemon = createDaemon({
      config: {
        ...e2eAgentBase(sim),
        devices: [
          {
            id: RT,
            name: 'Reception RT',
            type: 'FiscalMachine',
            driver: 'epson-fpmate',
            // The printer's address comes from the configuration, never from the platform by default.
            // The schedule runs on the manual clock in closure-schedule.test.ts; here, on the real
            // clock, a night's closure must not land in the middle of the run.
            options: {
              url: 'fromPlatform',
              allowedHosts: [new URL(printer.url).host],
              dailyClosure: { enabled: false },
            },
          },
        ],
      },
      env: TOKEN_ENV,
    });
    await daemon.start();
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop();
    await sim?.close();
    await printer?.close();
  });

  const state = (id: string) => sim.command(id)?.state ?? 'Pending';
  const notes = (id: string) => sim.history(id).at(-1)?.notes ?? '';
  /** Waits for the command's end; resolves to its state, followed by its Notes unless Processed. */
  async function settle(id: string): Promise<string> {
    const final = await eventually(`command ${id} to end`, () =>
      TERMINAL.includes(state(id)) ? state(id) : undefined,
    );
    return final === 'Processed' ? final : `${final}: ${notes(id)}`;
  }
  /** The printer as the daemon's status page shows it. */
  async function printerShown(): Promise<{ connected: boolean; summary: string } | undefined> {
    const answer = await daemon.staff('/status.json');
    const snapshot = answer.json() as {
      devices: Array<{ id: string; status: { connected: boolean; summary: string } }>;
    };
    return snapshot.devices.find((d) => d.id === RT)?.status;
  }
  function track(id: string): string {
    created.push(id);
    return id;
  }

  it('prints sales and payload documents, then refunds of them', async () => {
    const ids = [
      ...[1, 2, 3].map(() => track(sim.createFiscalData({ deviceId: RT }).id)),
      ...[1, 2].map(() => track(sim.createFiscalPayload({ deviceId: RT }).id)),
    ];
    for (const id of ids) expect(await settle(id)).toBe('Processed');
    expect(notes(ids[0] as string)).toMatch(new RegExp(`^Receipt \\d{4}-\\d{4} on RT ${SERIAL}`));
    const refund = track(sim.createFiscalRefund({ deviceId: RT }).id);
    expect(await settle(refund)).toBe('Processed');
    expect(printer.printed.filter((d) => d.kind === 'refund')).toHaveLength(1);
  }, 90_000);

  it('refuses while out of paper, with a note for the receptionist, and prints nothing', async () => {
    await printer.setFault('paperOut', true);
    const id = track(sim.createFiscalData({ deviceId: RT }).id);
    expect(await settle(id)).toMatch(/^Error: /);
    expect(notes(id)).toMatch(/paper/i);
    await printer.setFault('paperOut', false);
  }, 60_000);

  it('rides out a busy printer and a refused connection by trying again', async () => {
    // Busy until the printer has answered the receipt busy once (its own request log says so).
    await printer.setFault('busy', true);
    const seen = printer.requests.length;
    const busy = track(sim.createFiscalData({ deviceId: RT }).id);
    await eventually('the receipt to be answered busy', () =>
      printer.requests.slice(seen).includes('printerFiscalReceipt'),
    );
    await printer.setFault('busy', false);
    expect(await settle(busy)).toBe('Processed');

    // Refused until the driver has met the refusal: its status, on the daemon's page, turns
    // unreachable (a refused job makes it poll the printer, which is refused too).
    await printer.setFault('refused', true);
    const refused = track(sim.createFiscalPayload({ deviceId: RT }).id);
    await eventually(
      'the daemon to show the printer unreachable',
      async () => (await printerShown())?.connected === false,
      { intervalMs: 50 },
    );
    await printer.setFault('refused', false);
    expect(await settle(refused)).toBe('Processed');
  }, 90_000);

  it('reports a receipt whose answer was lost, without printing it again', async () => {
    await printer.setFault('dropAfterPrint', true);
    const before = printer.printed.length;
    const id = track(sim.createFiscalData({ deviceId: RT }).id);
    expect(await settle(id)).toBe('Processed');
    await printer.setFault('dropAfterPrint', false);
    expect(printer.printed.length).toBe(before + 1);
    expect(notes(id)).toMatch(/^Receipt \d{4}-\d{4}/);
  }, 60_000);

  it('after kill -9 between send and answer, reports the one receipt with its number', async () => {
    // The answer waits on the printer's manual clock, which does not move: the kill lands between
    // the print and its answer by construction.
    await printer.setFault('slow', { ms: 5000 });
    const before = printer.printed.length;
    const id = track(sim.createFiscalData({ deviceId: RT }).id);
    await eventually('the receipt to be printed', () => printer.printed.length > before);
    await daemon.kill();
    await printer.setFault('slow', false);
    await daemon.start();
    expect(await settle(id)).toBe('Processed');
    expect(printer.printed.length).toBe(before + 1);
    const last = printer.printed.at(-1);
    const number = `${String(last?.z).padStart(4, '0')}-${String(last?.doc).padStart(4, '0')}`;
    expect(notes(id)).toContain(`Receipt ${number}`);
  }, 90_000);

  /** Runs the command line in-process against the running daemon; resolves to its code and output. */
  async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
    return runCliCaptured(argv);
  }

  /** The daemon's configuration with the address its status page actually listens on. */
  function liveConfig(): string {
    const path = join(daemon.dir, 'live.yaml');
    const { host } = new URL(daemon.statusUrl());
    writeFileSync(
      path,
      stringify({
        version: 1,
        // The command line speaks the configured language (else the Rome zone's Italian).
        locale: 'en',
        platform: { url: sim.url },
        journal: { path: join(daemon.dir, 'cli-journal.db') },
        status: { listen: host, staffSocket: daemon.staffSocket },
        devices: [
          {
            id: RT,
            name: 'Reception RT',
            type: 'FiscalMachine',
            driver: 'epson-fpmate',
            options: { url: 'fromPlatform', allowedHosts: [new URL(printer.url).host] },
          },
        ],
      }),
    );
    return path;
  }

  it('prints bills with exempt items, tips, deposits, vouchers and unpaid amounts, each balanced', async () => {
    const before = printer.printed.length;
    const ids = Array.from({ length: 8 }, () => track(sim.createFiscalData({ deviceId: RT }).id));
    for (const id of ids) expect(await settle(id)).toBe('Processed');
    const sales = printer.printed.slice(before).filter((d) => d.kind === 'sale');
    expect(sales).toHaveLength(8);
    for (const doc of sales) {
      expect(doc.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(doc.totalCents);
      expect(doc.lines.every((l) => l.vatClass !== 'unprogrammed')).toBe(true);
    }
  }, 90_000);

  it('the X and Z reports from the command line, through the running agent', async () => {
    const config = liveConfig();
    const x = await cli(['report', 'x', '--config', config, '--device', 'Reception RT']);
    expect(x).toMatchObject({ code: 0, out: `X report (daily financial report) printed on RT ${SERIAL}\n` });
    expect(x.err).toContain('audit=device-action who=command-line');
    const z = printer.counters.z;
    const closed = await cli(['report', 'z', '--config', config, '--device', RT]);
    expect(closed.out).toBe(`Daily closure (Z report ${z}) done on RT ${SERIAL}\n`);
    expect(closed.code).toBe(0);
    expect(printer.counters).toEqual({ z: z + 1, doc: 0 });
    const again = await cli(['report', 'z', '--config', config, '--device', RT]);
    expect(again.out).toContain('No daily closure needed');
    expect(printer.printed.filter((d) => d.kind === 'z-report')).toHaveLength(1);
    expect(daemon.lines.some((l) => /audit=device-action .*action=z-report .*result=done/.test(l))).toBe(
      true,
    );
  }, 60_000);

  it('voids a receipt from the status page (a staff session, origin and CSRF token), then refuses to void it twice', async () => {
    const id = track(sim.createFiscalData({ deviceId: RT }).id);
    expect(await settle(id)).toBe('Processed');
    const receipt = /Receipt (\d{4}-\d{4})/.exec(notes(id))?.[1] as string;
    const base = daemon.statusUrl();
    const client = createHttpClient();
    // Logged in as staff are: a one-time address from `frontdesk-agent login`, then the cookie.
    const cookie = await daemon.loginCookie();
    try {
      const page = (
        await client.request({
          method: 'GET',
          url: base,
          headers: { cookie },
          timeoutMs: 5000,
          maxBytes: 4_000_000,
        })
      ).body.toString();
      expect(page).toContain('<h2>Device actions</h2>');
      const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] as string;
      const post = (headers: Record<string, string>) =>
        client.request({
          method: 'POST',
          url: new URL(`actions/${RT}/void`, base),
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
            cookie,
            ...headers,
          },
          body: new URLSearchParams({ csrf, receipt, confirm: 'yes' }).toString(),
          timeoutMs: 30_000,
          maxBytes: 65536,
        });
      expect((await post({ origin: 'http://evil.example' })).status).toBe(403);
      const voided = await post({ origin: new URL(base).origin });
      expect(voided.status).toBe(200);
      expect(JSON.parse(voided.body.toString()).notes).toMatch(
        new RegExp(`^Void \\d{4}-\\d{4} on RT ${SERIAL}.*\\(void of `),
      );
      const twice = await post({ origin: new URL(base).origin });
      expect(twice.status).toBe(422);
      expect(JSON.parse(twice.body.toString()).error.notes).toContain('cannot be voided');
    } finally {
      client.close();
    }
    expect(printer.printed.filter((d) => d.kind === 'void')).toHaveLength(1);
  }, 60_000);

  it('check-config lists every department with its VAT rate or nature', async () => {
    const result = await cli(['check-config', '--config', liveConfig()]);
    // The live printer's address comes with each command (url: fromPlatform).
    expect(result.out).toMatch(
      /devices\[0\] Reception RT: Epson RT printer, Fiscal ePOS-Print XML \(fpmate\) at the address each command carries, within 127\.0\.0\.1:\d+\n/,
    );
    expect(result.out).toContain('devices[0] Reception RT: department 1: VAT 22 %');
    expect(result.out).toContain(
      'devices[0] Reception RT: department 10: nature N1 (EE, excluded (art. 15))',
    );
    expect(result.out).toContain('daily closure: printXZReport at 03:30 local time');
  });

  it('the printed documents and the platform histories agree one to one', () => {
    const fiscal = printer.printed.filter((d) => d.kind === 'sale' || d.kind === 'refund');
    const numbers = fiscal.map((d) => `${String(d.z).padStart(4, '0')}-${String(d.doc).padStart(4, '0')}`);
    const reported = created
      .filter((id) => state(id) === 'Processed')
      .map((id) => /(?:Receipt|Refund) (\d{4}-\d{4})/.exec(notes(id))?.[1]);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect([...reported].sort()).toEqual([...numbers].sort());
    for (const id of created) expect(historyProblems(sim.history(id), true)).toEqual([]);
  });
});
