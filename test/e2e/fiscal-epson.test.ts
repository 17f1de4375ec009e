import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FpmateSimulator, startFpmateSimulator } from '../../drivers/epson-fpmate/simulator.js';
import type { CommandState } from '../../src/connector/wire.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/simulator/index.js';
import { createDaemon, type DaemonHandle, eventually } from '../helpers/daemon.js';
import { historyProblems, TOKENS } from './harness.js';

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

  beforeAll(async () => {
    printer = await startFpmateSimulator({ serial: SERIAL });
    sim = await startPlatformSimulator({
      scenario: {
        platform: { ...TOKENS, rateLimit: { requests: 100_000, windowSeconds: 30 } },
        devices: [{ id: RT, type: 'FiscalMachine', name: 'RT', apiUrl: printer.url, serialNumber: SERIAL }],
        reservations: { generate: 5 },
      },
    });
    daemon = createDaemon({
      config: {
        version: 1,
        platform: {
          url: sim.url,
          websocketUrl: sim.wsUrl,
          rateLimit: { requests: 100_000, windowSeconds: 30 },
        },
        poll: { intervalMs: 500, safetyNetMs: 5000, fiscalLookbackHours: 24 },
        shutdown: { deadlineMs: 3000 },
        devices: [
          {
            id: RT,
            name: 'Reception RT',
            type: 'FiscalMachine',
            driver: 'epson-fpmate',
            // The printer's address comes from the configuration, never from the platform by default.
            options: { url: 'fromPlatform', allowedHosts: [new URL(printer.url).host] },
          },
        ],
      },
      env: { FRONTDESK_CLIENT_TOKEN: TOKENS.clientToken, FRONTDESK_ACCESS_TOKEN: TOKENS.accessToken },
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
  async function settle(id: string, timeoutMs = 30_000): Promise<string> {
    const final = await eventually(
      () => (TERMINAL.includes(state(id)) ? state(id) : undefined),
      timeoutMs,
      `command ${id}`,
      100,
    );
    return final === 'Processed' ? final : `${final}: ${notes(id)}`;
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
    await printer.setFault('busy', true);
    const busy = track(sim.createFiscalData({ deviceId: RT }).id);
    await new Promise((r) => setTimeout(r, 1000));
    await printer.setFault('busy', false);
    expect(await settle(busy)).toBe('Processed');

    await printer.setFault('refused', true);
    const refused = track(sim.createFiscalPayload({ deviceId: RT }).id);
    await new Promise((r) => setTimeout(r, 1000));
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
    await printer.setFault('slow', { ms: 5000 });
    const before = printer.printed.length;
    const id = track(sim.createFiscalData({ deviceId: RT }).id);
    await eventually(() => printer.printed.length > before, 20_000, 'the receipt to be printed');
    await daemon.kill();
    await printer.setFault('slow', false);
    await daemon.start();
    expect(await settle(id)).toBe('Processed');
    expect(printer.printed.length).toBe(before + 1);
    const last = printer.printed.at(-1);
    const number = `${String(last?.z).padStart(4, '0')}-${String(last?.doc).padStart(4, '0')}`;
    expect(notes(id)).toContain(`Receipt ${number}`);
  }, 90_000);

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
