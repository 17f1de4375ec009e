import { createServer } from 'node:net';
import { join } from 'node:path';
import { CustomRtOptionsSchema, simulatedProgramming } from '../../drivers/custom-rt/index.js';
import { type CustomRtSimulator, startCustomRtSimulator } from '../../drivers/custom-rt/simulator/index.js';
import { type FpmateSimulator, startFpmateSimulator } from '../../drivers/epson-fpmate/simulator/index.js';
import { FiasLockServerSimulator } from '../../drivers/fias-lock/simulator/index.js';
import { RchRtOptionsSchema, simulatedProgramming as rchProgramming } from '../../drivers/rch-rt/index.js';
import { type RchRtSimulator, startRchRtSimulator } from '../../drivers/rch-rt/simulator/index.js';
import {
  EncoderSimulator,
  type EncoderTcpServer,
  startEncoderTcpServer,
} from '../../drivers/salto-encoder/simulator/index.js';
import {
  type PlatformSimulator,
  type ScenarioInput,
  startPlatformSimulator,
} from '../../src/platform-simulator/index.js';
import { createDaemon, type DaemonHandle, tempDir } from '../helpers/daemon.js';
import { type ReplyMangler, startReplyMangler } from './reply-mangler.js';

/**
 * The fault campaign's world, all real parts: the platform simulator in the test process, the
 * real daemon as a child process, three simulated devices with ledgers (sim-fiscal ×2,
 * sim-encoder), an Epson RT driven by the epson-fpmate driver against the fpmate device simulator
 * (behind a proxy that can mangle its answers), a Salto encoder driven by the salto-encoder
 * driver over TCP against the encoder simulator, which can be unplugged and plugged back, and a
 * FIAS encoder driven by the fias-lock driver, whose simulated lock server connects to the
 * daemon's port (and again after every kill) and can drop the link mid-request, and a Custom RT
 * driven by the custom-rt driver against the Custom printer simulator (which can lose its answers),
 * and an RCH RT driven by the rch-rt driver against the RCH printer simulator (which can drop the
 * connection of a request that printed).
 */

export const FAULT_DEVICES = {
  simFiscalA: 'fa000000-0000-4000-8000-000000000001',
  simFiscalB: 'fa000000-0000-4000-8000-000000000002',
  simKeys: 'fa000000-0000-4000-8000-000000000003',
  epson: 'fa000000-0000-4000-8000-000000000004',
  salto: 'fa000000-0000-4000-8000-000000000005',
  printer: 'fa000000-0000-4000-8000-000000000006',
  fias: 'fa000000-0000-4000-8000-000000000007',
  custom: 'fa000000-0000-4000-8000-000000000008',
  rch: 'fa000000-0000-4000-8000-000000000009',
} as const;

export const FAULT_TOKENS = {
  clientToken: 'FAULT-CLIENT-TOKEN-SECRET-7f3a9c',
  accessToken: 'FAULT-ACCESS-TOKEN-SECRET-b81d44',
};

/** Ledger file of each simulated device, relative to the run's directory. */
export const LEDGERS = {
  [FAULT_DEVICES.simFiscalA]: 'ledger-fiscal-a.jsonl',
  [FAULT_DEVICES.simFiscalB]: 'ledger-fiscal-b.jsonl',
  [FAULT_DEVICES.simKeys]: 'ledger-keys.jsonl',
} as const;

export const EPSON_SERIAL = '99MEYFAULT1';
/** A Custom serial (two letters of the approval, two of the maker, a letter, six digits). */
export const CUSTOM_SERIAL = 'STMTE900008';

/** The Custom RT's options, short timeouts so that faults resolve quickly. */
function customOptions(url: string) {
  return {
    url,
    serialNumber: CUSTOM_SERIAL,
    documentTimeoutMs: 2000,
    reportTimeoutMs: 2000,
    readTimeoutMs: 1000,
    busyRetries: 1,
    busyRetryDelayMs: 200,
    statusIntervalMs: 0,
    statusRetryMs: 500,
  };
}

/** The Custom printer simulator, programmed as the driver's defaults expect (VAT slots, departments). */
export function startCustomPrinter(): Promise<CustomRtSimulator> {
  const programming = simulatedProgramming(CustomRtOptionsSchema.parse(customOptions('http://127.0.0.1:1')));
  return startCustomRtSimulator({ serial: CUSTOM_SERIAL, ...programming });
}

/** An RCH serial: 72, two letters, seven digits (rch-driver-js `src/RegexUtils.ts`). */
export const RCH_SERIAL = '72MS0900009';

/** The RCH RT's options, short timeouts as the Custom RT's. */
function rchOptions(url: string) {
  const { serialNumber: _custom, ...timeouts } = customOptions(url);
  return { ...timeouts, serialNumber: RCH_SERIAL };
}

/** The RCH printer simulator, programmed as the driver's defaults expect (departments, VAT). */
export function startRchPrinter(): Promise<RchRtSimulator> {
  const programming = rchProgramming(RchRtOptionsSchema.parse(rchOptions('http://127.0.0.1:1')));
  return startRchRtSimulator({ serial: RCH_SERIAL, ...programming });
}

export function faultScenario(seed: number, reservations: number): ScenarioInput {
  return {
    name: 'fault-campaign',
    seed,
    platform: { ...FAULT_TOKENS, rateLimit: { requests: 100_000, windowSeconds: 30 }, otherEventRate: 0.1 },
    enterprises: [{ id: 'fa0e0000-0000-4000-8000-000000000000', name: 'Hotel Faults' }],
    devices: [
      {
        id: FAULT_DEVICES.simFiscalA,
        type: 'FiscalMachine',
        name: 'RT sim A',
        apiUrl: 'http://127.0.0.1:1',
        serialNumber: '99SIMFAULTA',
        settings: { sim: { outcome: 'ok', durationMs: 40 } },
      },
      {
        id: FAULT_DEVICES.simFiscalB,
        type: 'FiscalMachine',
        name: 'RT sim B',
        apiUrl: 'http://127.0.0.1:1',
        serialNumber: '99SIMFAULTB',
        settings: { sim: { outcome: 'ok', durationMs: 120 } },
      },
      {
        id: FAULT_DEVICES.simKeys,
        type: 'KeyCutter',
        name: 'Encoder sim',
        keyCutterId: '7',
        settings: { sim: { durationMs: 150 } },
      },
      {
        id: FAULT_DEVICES.epson,
        type: 'FiscalMachine',
        name: 'RT Epson',
        apiUrl: 'http://127.0.0.1:1',
        serialNumber: EPSON_SERIAL,
        settings: { model: 'FP-81 II RT' },
      },
      {
        id: FAULT_DEVICES.salto,
        type: 'KeyCutter',
        name: 'Encoder Salto',
        keyCutterId: '1',
        settings: { Type: 'IndustryStandardProtocol' },
      },
      {
        id: FAULT_DEVICES.fias,
        type: 'KeyCutter',
        name: 'Encoder FIAS',
        keyCutterId: '3',
        settings: { Type: 'Fias' },
      },
      {
        id: FAULT_DEVICES.custom,
        type: 'FiscalMachine',
        name: 'RT Custom',
        apiUrl: 'http://127.0.0.1:1',
        serialNumber: CUSTOM_SERIAL,
        settings: { model: 'Q3X RT' },
      },
      {
        id: FAULT_DEVICES.rch,
        type: 'FiscalMachine',
        name: 'RT RCH',
        apiUrl: 'http://127.0.0.1:1',
        serialNumber: RCH_SERIAL,
        settings: { model: 'Print!F' },
      },
      { id: FAULT_DEVICES.printer, type: 'Printer', name: 'Laser (not ours)' },
    ],
    reservations: { generate: reservations },
    generator: { autostart: false, rate: 0 },
  };
}

/** The Salto lock server: the encoder simulator behind a TCP port that can be pulled and re-plugged. */
export interface SaltoSite {
  readonly sim: EncoderSimulator;
  readonly port: number;
  readonly plugged: boolean;
  /** Drops every connection and stops listening (the cable is pulled). Idempotent. */
  unplug(): Promise<void>;
  /** Listens again on the same port. Idempotent. */
  plug(): Promise<void>;
  close(): Promise<void>;
}

export async function startSaltoSite(): Promise<SaltoSite> {
  const sim = new EncoderSimulator({ writeMs: 40, noCardMs: 60 });
  let server: EncoderTcpServer | undefined = await startEncoderTcpServer(sim);
  const port = server.port;
  const unplug = async () => {
    const s = server;
    server = undefined;
    await s?.close();
  };
  return {
    sim,
    port,
    get plugged() {
      return server !== undefined;
    },
    unplug,
    async plug() {
      server ??= await startEncoderTcpServer(sim, { port });
    },
    close: unplug,
  };
}

/** The FIAS lock server: it connects to the daemon's port, and again whenever the daemon is back. */
export interface FiasSite {
  readonly sim: FiasLockServerSimulator;
  readonly port: number;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

export async function startFiasSite(): Promise<FiasSite> {
  const port = await freePort();
  const sim = new FiasLockServerSimulator({ host: '127.0.0.1', port, retryMs: 100 });
  sim.start();
  return { sim, port, close: () => sim.close() };
}

export interface Rig {
  dir: string;
  /** The daemon's HTTP trace (`http-trace.ts`), one JSON line per event. */
  tracePath: string;
  platform: PlatformSimulator;
  printer: FpmateSimulator;
  mangler: ReplyMangler;
  custom: CustomRtSimulator;
  rch: RchRtSimulator;
  salto: SaltoSite;
  fias: FiasSite;
  daemon: DaemonHandle;
  close(): Promise<void>;
}

export function agentConfig(rig: Omit<Rig, 'daemon' | 'close' | 'tracePath'>) {
  const ledger = (device: keyof typeof LEDGERS) => join(rig.dir, LEDGERS[device]);
  const sim = (device: keyof typeof LEDGERS) => ({
    durationMs: 20,
    jitterMs: 20,
    ledgerPath: ledger(device),
  });
  return {
    version: 1,
    // These tests read the Notes and the page in English.
    locale: 'en',
    platform: {
      url: rig.platform.url,
      websocketUrl: rig.platform.wsUrl,
      rateLimit: { requests: 100_000, windowSeconds: 30 },
      requestTimeoutMs: 2000,
    },
    poll: { intervalMs: 500, safetyNetMs: 3000, fiscalLookbackHours: 24 },
    // Debug: the exchange lines let the HTTP trace see when the daemon noted each 429.
    log: { level: 'debug' },
    shutdown: { deadlineMs: 3000 },
    journal: { path: join(rig.dir, 'journal.db') },
    devices: [
      {
        id: FAULT_DEVICES.simFiscalA,
        name: 'RT sim A',
        type: 'FiscalMachine',
        driver: 'sim-fiscal',
        options: sim(FAULT_DEVICES.simFiscalA),
      },
      {
        id: FAULT_DEVICES.simFiscalB,
        name: 'RT sim B',
        type: 'FiscalMachine',
        driver: 'sim-fiscal',
        options: sim(FAULT_DEVICES.simFiscalB),
      },
      {
        id: FAULT_DEVICES.simKeys,
        name: 'Encoder sim',
        type: 'KeyCutter',
        driver: 'sim-encoder',
        options: sim(FAULT_DEVICES.simKeys),
      },
      {
        id: FAULT_DEVICES.epson,
        name: 'RT Epson',
        type: 'FiscalMachine',
        driver: 'epson-fpmate',
        options: {
          url: rig.mangler.url,
          printerTimeoutMs: 1000,
          clientTimeoutMs: 2000,
          readTimeoutMs: 1000,
          busyRetries: 1,
          busyRetryDelayMs: 200,
          statusIntervalMs: 0,
          statusRetryMs: 500,
        },
      },
      {
        id: FAULT_DEVICES.salto,
        name: 'Encoder Salto',
        type: 'KeyCutter',
        driver: 'salto-encoder',
        options: {
          transport: 'tcp',
          host: '127.0.0.1',
          port: rig.salto.port,
          connectTimeoutMs: 500,
          ackTimeoutMs: 500,
          cardTimeoutMs: 3000,
          busyRetries: 2,
          busyBackoffMs: 100,
          reconnectMinMs: 200,
          reconnectMaxMs: 1000,
        },
      },
      {
        id: FAULT_DEVICES.fias,
        name: 'Encoder FIAS',
        type: 'KeyCutter',
        driver: 'fias-lock',
        options: {
          host: '127.0.0.1',
          port: rig.fias.port,
          lockServer: '127.0.0.1',
          answerTimeoutMs: 3000,
          linkTimeoutMs: 3000,
          openWaitMs: 2000,
          linkEndWaitMs: 500,
          busyBackoffMs: 100,
          rebindMinMs: 100,
          rebindMaxMs: 1000,
        },
      },
      {
        id: FAULT_DEVICES.custom,
        name: 'RT Custom',
        type: 'FiscalMachine',
        driver: 'custom-rt',
        options: customOptions(rig.custom.url),
      },
      {
        id: FAULT_DEVICES.rch,
        name: 'RT RCH',
        type: 'FiscalMachine',
        driver: 'rch-rt',
        options: rchOptions(rig.rch.url),
      },
    ],
  };
}

/** Starts every simulator and prepares (does not start) the daemon. */
export async function startRig(seed: number, reservations: number): Promise<Rig> {
  const dir = tempDir('frontdesk-faults');
  const platform = await startPlatformSimulator({ scenario: faultScenario(seed, reservations) });
  const printer = await startFpmateSimulator({ serial: EPSON_SERIAL });
  const mangler = await startReplyMangler(printer.url);
  const salto = await startSaltoSite();
  const fias = await startFiasSite();
  const custom = await startCustomPrinter();
  const rch = await startRchPrinter();
  const parts = { dir, platform, printer, mangler, salto, fias, custom, rch };
  const tracePath = join(dir, 'http-trace.jsonl');
  const daemon = createDaemon({
    config: agentConfig(parts),
    env: {
      FRONTDESK_CLIENT_TOKEN: FAULT_TOKENS.clientToken,
      FRONTDESK_ACCESS_TOKEN: FAULT_TOKENS.accessToken,
      FRONTDESK_TEST_HTTP_TRACE: tracePath,
    },
    preload: [join(import.meta.dirname, 'http-trace.ts')],
  });
  return {
    ...parts,
    tracePath,
    daemon,
    async close() {
      await daemon.stop(5000).catch(() => undefined);
      await Promise.allSettled([
        platform.close(),
        printer.close(),
        mangler.close(),
        salto.close(),
        fias.close(),
        custom.close(),
        rch.close(),
      ]);
    },
  };
}
