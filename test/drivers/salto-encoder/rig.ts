import { saltoEncoderFactory } from '../../../drivers/salto-encoder/index.js';
import type { EncoderSimulator } from '../../../drivers/salto-encoder/simulator/index.js';
import type { KeyJobData } from '../../../src/connector/model.js';
import type { Driver, Job } from '../../../src/drivers-api/types.js';
import { toAgentError } from '../../../src/errors.js';
import { type Message, readMessage } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import type { TransportFactory } from '../../../src/transport/types.js';
import { jobFor, recordingExecuteContext, testDriverContext } from '../../helpers/driver-context.js';

/** A simulator reachable through some transport, and the driver options that reach it. */
export interface Rig {
  sim: EncoderSimulator;
  /** The transport part of the driver's options. */
  transport: Record<string, unknown>;
  io: TransportFactory;
  dispose(): Promise<void>;
}

/** Timings small enough for tests, large enough for real pty and TCP I/O. */
export const FAST = {
  ackTimeoutMs: 1000,
  cardTimeoutMs: 3000,
  busyBackoffMs: 2,
  reconnectMinMs: 20,
  reconnectMaxMs: 100,
};

export function keyData(extra: Partial<KeyJobData> = {}): KeyJobData {
  return {
    keyCount: 3,
    lockIds: ['101'],
    startUtc: '2026-11-21T13:00:00Z',
    endUtc: '2026-11-23T10:00:00Z',
    guest: { firstName: 'Ann', lastName: 'Smith' },
    reservationNumber: '4711',
    keyCutterId: 'E1',
    settings: { value: {} },
    ...extra,
  };
}

export function keyJob(extra: Partial<KeyJobData> = {}, job: Partial<Job> = {}): Job {
  return jobFor({ kind: 'keys', keys: keyData(extra) }, job);
}

export function makeDriver(
  rig: Pick<Rig, 'transport' | 'io'>,
  options: Record<string, unknown> = {},
): Driver {
  const parsed = saltoEncoderFactory.configSchema.parse({ ...rig.transport, ...FAST, ...options });
  return saltoEncoderFactory.create(parsed, testDriverContext({ io: rig.io }));
}

/**
 * Runs a job and returns its outcome together with what the core would have seen: the result and
 * the error with their Notes in English (`said`: the message itself, for other languages).
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
