import { createServer } from 'node:net';
import { fiasLockFactory } from '../../../drivers/fias-lock/index.js';
import {
  type FiasLockServerOptions,
  FiasLockServerSimulator,
} from '../../../drivers/fias-lock/simulator/index.js';
import type { Clock } from '../../../src/clock.js';
import type { KeyJobData } from '../../../src/connector/model.js';
import type { Driver, DriverContext, Job } from '../../../src/drivers-api/types.js';
import { toAgentError } from '../../../src/errors.js';
import { createMemoryLogger } from '../../../src/log.js';
import { type Message, readMessage } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { jobFor, recordingExecuteContext, testDriverContext } from '../../helpers/driver-context.js';

/** Timings small enough for tests, large enough for real TCP on a loaded machine. */
export const FAST = {
  answerTimeoutMs: 3000,
  linkTimeoutMs: 3000,
  openWaitMs: 2000,
  linkEndWaitMs: 500,
  busyBackoffMs: 2,
  rebindMinMs: 20,
  rebindMaxMs: 100,
  aliveCheckMs: 0,
};

/** A free port on 127.0.0.1 (asked of the kernel, then released for the driver to bind). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

export function keyData(extra: Partial<KeyJobData> = {}): KeyJobData {
  return {
    keyCount: 3,
    lockIds: ['101'],
    startUtc: '2026-11-21T13:00:00Z',
    endUtc: '2026-11-23T10:00:00Z',
    guest: { firstName: 'Anna', lastName: 'Nile' },
    reservationNumber: '88123',
    keyCutterId: '2',
    settings: { value: { Type: 'Fias' } },
    ...extra,
  };
}

export function keyJob(extra: Partial<KeyJobData> = {}, job: Partial<Job> = {}): Job {
  return jobFor({ kind: 'keys', keys: keyData(extra) }, job);
}

/** A lock server simulator and drivers listening for it on one port. */
export interface FiasRig {
  port: number;
  sim: FiasLockServerSimulator;
  log: ReturnType<typeof createMemoryLogger>;
  driver(options?: Record<string, unknown>, ctx?: Partial<DriverContext>): Driver;
  /** A driver as `driver` makes it, opened once the lock server simulator has started and linked. */
  linked(options?: Record<string, unknown>, ctx?: Partial<DriverContext>): Promise<Driver>;
  dispose(): Promise<void>;
}

/** `logClock`: the clock of the log's once-a-minute summaries (`Logger.repeated`). */
export async function fiasRig(
  simOptions: Partial<FiasLockServerOptions> = {},
  logClock?: Clock,
): Promise<FiasRig> {
  const port = await freePort();
  const log = createMemoryLogger({ level: 'debug', ...(logClock ? { clock: logClock } : {}) });
  const sim = new FiasLockServerSimulator({ host: '127.0.0.1', port, retryMs: 20, ...simOptions });
  const drivers: Driver[] = [];
  const rig: FiasRig = {
    port,
    sim,
    log,
    driver(options = {}, ctx = {}) {
      const parsed = fiasLockFactory.configSchema.parse({
        port,
        lockServer: '127.0.0.1',
        ...FAST,
        ...options,
      });
      const d = fiasLockFactory.create(parsed, { ...testDriverContext(), log, ...ctx });
      drivers.push(d);
      return d;
    },
    async linked(options, ctx) {
      const d = rig.driver(options, ctx);
      sim.start();
      await d.open(live());
      return d;
    },
    async dispose() {
      for (const d of drivers) await d.close();
      await sim.close();
    },
  };
  return rig;
}

/** A signal nobody aborts. */
export const live = () => new AbortController().signal;

/**
 * Runs a job and returns its outcome with what the core would see: the Notes in English, the
 * checkpoints stored and the progress reported.
 */
export async function run(driver: Driver, job: Job, signal?: AbortSignal) {
  const ctx = recordingExecuteContext(signal);
  const progress = () => ctx.progressSeen.map((p) => p.fraction);
  try {
    const result = await driver.execute(job, ctx);
    const said: Message = readMessage(result.notes);
    return {
      ok: true as const,
      result: { ...result, notes: english(said) },
      said,
      ctx,
      progress: progress(),
    };
  } catch (e) {
    const error = toAgentError(e);
    return {
      ok: false as const,
      error: { ...error.toJSON(), notes: english(error.notes) },
      said: error.notes,
      ctx,
      progress: progress(),
    };
  }
}
