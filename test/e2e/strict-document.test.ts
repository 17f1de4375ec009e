import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FpmateSimulator, startFpmateSimulator } from '../../drivers/epson-fpmate/simulator/index.js';
import type { CommandState } from '../../src/connector/wire.js';
import {
  type CommandView,
  type PlatformSimulator,
  startPlatformSimulator,
} from '../../src/platform-simulator/index.js';
import { createDaemon, type DaemonHandle, tempDir } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { agentMoveProblems } from './agent-moves.js';
import { E2E_POLL, e2ePlatform, ledgerCounts, TOKEN_ENV, TOKENS } from './harness.js';

/**
 * The fiscal path end to end against a platform that applies the interface document strictly
 * (`strictDocument: true`, platform-interfaces.md): `EnterpriseIds` required on
 * fiscalMachineCommands/getAll, `Discriminator` present, absent or null, fiscal commands listed as
 * FiscalMachine or Printer (and in commands/* as Printer-typed items with fiscal data), pages
 * capped below the Count asked for with the last item's id as Cursor, and commands/update moving
 * any state to the state given. The real daemon drives a simulated RT (sim-fiscal), the Epson RT
 * driver against the RT printer simulator (which answers only the reads public drivers make), and
 * a simulated encoder. The agent's discipline is
 * read from the platform's histories, since the platform refuses nothing.
 */

const E = 'e5e0e000-0000-4000-8000-000000000000';
const RT = 'e5e00000-0000-4000-8000-000000000001';
const EPSON = 'e5e00000-0000-4000-8000-000000000002';
const KEYS = 'e5e00000-0000-4000-8000-000000000003';
const PRINTER = 'e5e00000-0000-4000-8000-000000000004';
const SERIAL = '99MEYSTRICT';
const TERMINAL: CommandState[] = ['Processed', 'Error', 'Cancelled'];
const DAY = 86_400_000;

type Expected = 'Processed' | 'Error' | 'untouched';
interface Planned {
  view: CommandView;
  expected: Expected;
}

describe('the fiscal path against a platform that applies the interface document strictly', () => {
  let printer: FpmateSimulator;
  let sim: PlatformSimulator;
  let daemon: DaemonHandle;
  let dir: string;
  const planned: Planned[] = [];

  const plan = (view: CommandView, expected: Expected) => {
    planned.push({ view, expected });
    return view;
  };
  const state = (id: string): CommandState => sim.command(id)?.state ?? 'Pending';

  async function settleAll(): Promise<void> {
    await eventually(
      () => {
        const open = planned.filter(
          (p) => p.expected !== 'untouched' && !TERMINAL.includes(state(p.view.id)),
        );
        return `${open.length} commands to end (e.g. ${open
          .slice(0, 3)
          .map((p) => `${p.view.kind} ${state(p.view.id)}`)
          .join(', ')})`;
      },
      () => planned.every((p) => p.expected === 'untouched' || TERMINAL.includes(state(p.view.id))),
      { intervalMs: 100 },
    );
  }

  beforeAll(async () => {
    printer = await startFpmateSimulator({ serial: SERIAL });
    sim = await startPlatformSimulator({
      strictDocument: true,
      scenario: {
        name: 'strict-document',
        seed: 1207,
        platform: { ...TOKENS, portfolio: true, rateLimit: { requests: 100_000, windowSeconds: 30 } },
        enterprises: [{ id: E, name: 'Hotel Documento' }],
        devices: [
          {
            id: RT,
            type: 'FiscalMachine',
            name: 'RT sim',
            apiUrl: 'http://127.0.0.1:1',
            serialNumber: '99SIMSTRICT',
            settings: { sim: { outcome: 'ok', durationMs: 5 } },
          },
          { id: EPSON, type: 'FiscalMachine', name: 'RT Epson', apiUrl: printer.url, serialNumber: SERIAL },
          {
            id: KEYS,
            type: 'KeyCutter',
            name: 'Encoder',
            keyCutterId: '1',
            settings: { sim: { durationMs: 5 } },
          },
          { id: PRINTER, type: 'Printer', name: 'Laser (not ours)' },
        ],
        reservations: { generate: 6 },
        generator: { autostart: false, rate: 0 },
      },
    });
    dir = tempDir('e2e-strict');
    // Created three days ago and still Pending: outside the agent's 24-hour lookback.
    plan(sim.createFiscalData({ deviceId: RT, ageMs: 3 * DAY }), 'Processed');
    daemon = createDaemon({
      config: {
        version: 1,
        platform: e2ePlatform(sim, { enterpriseIds: [E], requestTimeoutMs: 3000 }),
        poll: E2E_POLL,
        shutdown: { deadlineMs: 3000 },
        journal: { path: join(dir, 'journal.db') },
        devices: [
          {
            id: RT,
            name: 'RT sim',
            type: 'FiscalMachine',
            driver: 'sim-fiscal',
            options: { durationMs: 5, jitterMs: 5, ledgerPath: join(dir, 'ledger-fiscal.jsonl') },
          },
          {
            id: EPSON,
            name: 'RT Epson',
            type: 'FiscalMachine',
            driver: 'epson-fpmate',
            options: { url: printer.url },
          },
          {
            id: KEYS,
            name: 'Encoder',
            type: 'KeyCutter',
            driver: 'sim-encoder',
            options: { durationMs: 5, jitterMs: 5, ledgerPath: join(dir, 'ledger-keys.jsonl') },
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

  it('runs fiscal commands of every listed type and Discriminator variant, keys, and malformed ones, as the document allows them', async () => {
    for (let i = 0; i < 6; i++) plan(sim.createFiscalData({ deviceId: RT }), 'Processed');
    for (let i = 0; i < 6; i++) plan(sim.createFiscalPayload({ deviceId: RT }), 'Processed');
    for (let i = 0; i < 2; i++) plan(sim.createFiscalData({ deviceId: EPSON }), 'Processed');
    for (let i = 0; i < 2; i++) plan(sim.createFiscalPayload({ deviceId: EPSON }), 'Processed');
    for (let i = 0; i < 4; i++) plan(sim.createKeys({ deviceId: KEYS, keyCount: 2 }), 'Processed');
    plan(sim.createFiscalPayload({ deviceId: RT, malformed: 'bad-base64' }), 'Error');
    plan(sim.createFiscalData({ deviceId: RT, malformed: 'missing-field' }), 'Error');
    plan(sim.createFiscalData({ deviceId: RT, malformed: 'unknown-device-type' }), 'untouched');
    plan(sim.createPrint({ deviceId: PRINTER }), 'untouched');
    await settleAll();

    const problems: string[] = [];
    const printed = ledgerCounts(join(dir, 'ledger-fiscal.jsonl'));
    for (const { view, expected } of planned) {
      const history = sim.history(view.id);
      const final = history.at(-1);
      const label = `${view.kind} ${view.id}`;
      problems.push(...agentMoveProblems(history).map((p) => `${label}: ${p}`));
      if (expected === 'untouched') {
        if (history.length !== 1) problems.push(`${label}: not ours but updated to ${final?.state}`);
        continue;
      }
      if (final?.state !== expected)
        problems.push(`${label}: ended ${final?.state} (${final?.notes}), expected ${expected}`);
      if (view.deviceId === RT && view.kind.startsWith('fiscal')) {
        const times = printed.get(view.id) ?? 0;
        if (times !== (expected === 'Processed' ? 1 : 0)) problems.push(`${label}: printed ${times} times`);
      }
    }
    expect(problems).toEqual([]);

    // The document's variants all occurred among the receipts that printed.
    const fiscal = planned.filter((p) => p.view.kind.startsWith('fiscal') && p.expected === 'Processed');
    const wire = fiscal.map(
      (p) => sim.command(p.view.id)?.wire.fiscal as Record<string, Record<string, unknown>>,
    );
    expect(new Set(wire.map((w) => w.Device?.Type))).toEqual(new Set(['FiscalMachine', 'Printer']));
    const variants = new Set(
      wire.map((w) =>
        !('Discriminator' in (w.CommandData ?? {}))
          ? 'absent'
          : w.CommandData?.Discriminator === null
            ? 'null'
            : 'present',
      ),
    );
    expect(variants).toEqual(new Set(['present', 'absent', 'null']));
    expect(printer.printed.filter((d) => d.kind === 'sale')).toHaveLength(4);
    // Nothing the agent sent was refused: EnterpriseIds always there, every request within the document.
    expect(sim.requestLog().filter((r) => r.status >= 400 && r.status < 500)).toEqual([]);
  }, 120_000);

  it('after kill -9 the only repeats are resends of the last update; nothing printed twice', async () => {
    const before = planned.length;
    for (let i = 0; i < 10; i++) plan(sim.createFiscalPayload({ deviceId: RT }), 'Processed');
    for (let i = 0; i < 4; i++) plan(sim.createKeys({ deviceId: KEYS, keyCount: 1 }), 'Processed');
    await eventually(
      'a first result',
      () => planned.slice(before).some((p) => TERMINAL.includes(state(p.view.id))),
      { intervalMs: 20 },
    );
    await daemon.kill();
    await daemon.start();
    await settleAll();
    const printed = ledgerCounts(join(dir, 'ledger-fiscal.jsonl'));
    for (const { view, expected } of planned.slice(before)) {
      expect(agentMoveProblems(sim.history(view.id)), view.id).toEqual([]);
      expect(state(view.id), view.id).toBe(expected);
      if (view.kind.startsWith('fiscal')) expect(printed.get(view.id), view.id).toBe(1);
    }
  }, 120_000);

  it('cuts keys from the status page with a portfolio token: the form sends EnterpriseId', async () => {
    // Logged in as staff are: a one-time address from `frontdesk-agent login`, then the cookie.
    const cookie = await daemon.loginCookie();
    const page = await (await fetch(daemon.statusUrl(), { headers: { cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const origin = new URL(daemon.statusUrl()).origin;
    const answer = await fetch(`${origin}/cut-keys`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        origin,
        cookie,
      },
      body: new URLSearchParams({
        csrf,
        deviceId: KEYS,
        reservationId: sim.world.reservations[0]?.id ?? '',
        keyCount: '2',
      }).toString(),
    });
    expect(answer.status).toBe(201);
    const { commandId } = (await answer.json()) as { commandId: string };
    await eventually('the new key command', () => state(commandId) === 'Processed', { intervalMs: 50 });
    expect(agentMoveProblems(sim.history(commandId))).toEqual([]);
  }, 60_000);
});
