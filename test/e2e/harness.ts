import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandView, PlatformSimulator, ScenarioInput } from '../../src/platform-simulator/index.js';
import { createDaemon, type DaemonHandle } from '../helpers/daemon.js';

/**
 * The e2e world: a platform simulator in the test process and the real daemon as a child process,
 * with four devices whose outcomes are scripted per device (through the embedded JSON the
 * simulated drivers read), so every command's final state is known in advance.
 */
export const DEVICES = {
  fiscalOk: 'e2e00000-0000-4000-8000-000000000001',
  fiscalPaperOut: 'e2e00000-0000-4000-8000-000000000002',
  keysOk: 'e2e00000-0000-4000-8000-000000000003',
  keysNoCard: 'e2e00000-0000-4000-8000-000000000004',
  printer: 'e2e00000-0000-4000-8000-000000000005',
} as const;

export const TOKENS = {
  clientToken: 'E2E-CLIENT-TOKEN-SECRET-0001',
  accessToken: 'E2E-ACCESS-TOKEN-SECRET-0002',
};

/** The daemon's environment: the platform tokens the e2e scenarios accept. */
export const TOKEN_ENV = {
  FRONTDESK_CLIENT_TOKEN: TOKENS.clientToken,
  FRONTDESK_ACCESS_TOKEN: TOKENS.accessToken,
};

/**
 * The daemon's `platform` section for `sim`: its WebSocket on and the rate limit far out of the
 * way, so that a run measures the agent rather than its throttle; `extra` adds or overrides keys.
 */
export function e2ePlatform(sim: PlatformSimulator, extra: Record<string, unknown> = {}) {
  return {
    url: sim.url,
    websocketUrl: sim.wsUrl,
    rateLimit: { requests: 100_000, windowSeconds: 30 },
    ...extra,
  };
}

/** The daemon's quick `poll` section for e2e runs. */
export const E2E_POLL = { intervalMs: 500, safetyNetMs: 5000, fiscalLookbackHours: 24 };

/**
 * The top of an e2e daemon's configuration around `sim`, before its devices: English (the tests
 * read the Notes and the page), the platform section, the quick poll and a 3 s shutdown.
 */
export function e2eAgentBase(sim: PlatformSimulator) {
  return {
    version: 1,
    locale: 'en',
    platform: e2ePlatform(sim),
    poll: E2E_POLL,
    shutdown: { deadlineMs: 3000 },
  };
}

export function e2eScenario(): ScenarioInput {
  return {
    name: 'e2e',
    seed: 4242,
    platform: { ...TOKENS, rateLimit: { requests: 100_000, windowSeconds: 30 }, otherEventRate: 0.1 },
    enterprises: [{ id: 'e2e0e000-0000-4000-8000-000000000000', name: 'Hotel E2E' }],
    devices: [
      {
        id: DEVICES.fiscalOk,
        type: 'FiscalMachine',
        name: 'RT ok',
        apiUrl: 'http://127.0.0.1:1',
        serialNumber: '99E2E000001',
        settings: { sim: { outcome: 'ok', durationMs: 5 } },
      },
      {
        id: DEVICES.fiscalPaperOut,
        type: 'FiscalMachine',
        name: 'RT paper out',
        apiUrl: 'http://127.0.0.1:1',
        serialNumber: '99E2E000002',
        settings: { sim: { outcome: 'PAPER_OUT', durationMs: 5 } },
      },
      {
        id: DEVICES.keysOk,
        type: 'KeyCutter',
        name: 'Encoder ok',
        keyCutterId: '1',
        settings: { sim: { durationMs: 6 } },
      },
      {
        id: DEVICES.keysNoCard,
        type: 'KeyCutter',
        name: 'Encoder no card',
        keyCutterId: '2',
        settings: { sim: { outcome: 'NO_CARD', failAtCard: 2, durationMs: 6 } },
      },
      { id: DEVICES.printer, type: 'Printer', name: 'Laser (not ours)' },
    ],
    reservations: { generate: 10 },
    generator: { autostart: false, rate: 0 },
  };
}

/**
 * The e2e agent's configuration. `locale` defaults to English, since these tests read the Notes:
 * without it the default rule (the property's zone, Europe/Rome) would say them in Italian.
 */
export interface AgentOptions {
  websocket?: boolean;
  locale?: 'en' | 'it';
  /** Devices besides the simulated ones (a real driver against its device simulator). */
  extraDevices?: ReadonlyArray<Record<string, unknown>>;
}

export function agentConfig(sim: PlatformSimulator, dir: string, options: AgentOptions = {}) {
  const sim5 = (name: string) => ({
    durationMs: 5,
    jitterMs: 5,
    ledgerPath: join(dir, `ledger-${name}.jsonl`),
  });
  return {
    version: 1,
    locale: options.locale ?? 'en',
    platform: {
      url: sim.url,
      ...(options.websocket === false ? {} : { websocketUrl: sim.wsUrl }),
      rateLimit: { requests: 100_000, windowSeconds: 30 },
      requestTimeoutMs: 3000,
    },
    poll: E2E_POLL,
    log: { level: 'info' },
    shutdown: { deadlineMs: 3000 },
    devices: [
      {
        id: DEVICES.fiscalOk,
        name: 'RT ok',
        type: 'FiscalMachine',
        driver: 'sim-fiscal',
        options: sim5('fiscal-ok'),
      },
      {
        id: DEVICES.fiscalPaperOut,
        name: 'RT paper out',
        type: 'FiscalMachine',
        driver: 'sim-fiscal',
        options: sim5('fiscal-paper'),
      },
      {
        id: DEVICES.keysOk,
        name: 'Encoder ok',
        type: 'KeyCutter',
        driver: 'sim-encoder',
        options: sim5('keys-ok'),
      },
      {
        id: DEVICES.keysNoCard,
        name: 'Encoder no card',
        type: 'KeyCutter',
        driver: 'sim-encoder',
        options: sim5('keys-nocard'),
      },
      ...(options.extraDevices ?? []),
    ],
  };
}

export function startAgent(sim: PlatformSimulator, dir: string, options: AgentOptions = {}): DaemonHandle {
  return createDaemon({
    config: { ...agentConfig(sim, dir, options), journal: { path: join(dir, 'journal.db') } },
    env: TOKEN_ENV,
  });
}

/** What a command must end as. `untouched`: the agent must never update it. */
export type Expected = 'Processed' | 'Error' | 'untouched' | 'Processed-or-partial';

export interface Planned {
  view: CommandView;
  expected: Expected;
  keyCount?: number;
}

/** Creates `count` commands in a fixed rotation of kinds and devices, each with its expected end. */
export function createMix(sim: PlatformSimulator, count: number, offset = 0): Planned[] {
  const out: Planned[] = [];
  for (let i = offset; i < offset + count; i++) {
    switch (i % 10) {
      case 0:
      case 1:
        out.push({ view: sim.createFiscalPayload({ deviceId: DEVICES.fiscalOk }), expected: 'Processed' });
        break;
      case 2:
        out.push({ view: sim.createFiscalData({ deviceId: DEVICES.fiscalOk }), expected: 'Processed' });
        break;
      case 3:
        out.push({ view: sim.createFiscalPayload({ deviceId: DEVICES.fiscalPaperOut }), expected: 'Error' });
        break;
      case 4:
      case 5:
        out.push({
          view: sim.createKeys({ deviceId: DEVICES.keysOk, keyCount: 2 }),
          expected: 'Processed',
          keyCount: 2,
        });
        break;
      case 6:
        out.push({
          view: sim.createKeys({ deviceId: DEVICES.keysNoCard, keyCount: 3 }),
          expected: 'Error',
          keyCount: 3,
        });
        break;
      case 7:
        out.push({
          view: sim.createFiscalPayload({ deviceId: DEVICES.fiscalOk, malformed: 'bad-base64' }),
          expected: 'Error',
        });
        break;
      case 8:
        out.push({
          view: sim.createKeys({ deviceId: DEVICES.keysOk, malformed: 'missing-field' }),
          expected: 'Error',
        });
        break;
      default:
        out.push({ view: sim.createPrint({ deviceId: DEVICES.printer }), expected: 'untouched' });
    }
  }
  return out;
}

/** Reads a simulated device's ledger: command id → number of side effects. */
export function ledgerCounts(path: string): Map<string, number> {
  const counts = new Map<string, number>();
  if (!existsSync(path)) return counts;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { commandId: string };
    counts.set(entry.commandId, (counts.get(entry.commandId) ?? 0) + 1);
  }
  return counts;
}
