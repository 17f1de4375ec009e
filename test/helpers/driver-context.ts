import type { Clock } from '../../src/clock.js';
import { systemClock } from '../../src/clock.js';
import type { CommandData, PlatformCommand } from '../../src/connector/model.js';
import type { WireOrderItem, WirePayment } from '../../src/connector/wire.js';
import type { DeviceStore, DriverContext, ExecuteContext, Job } from '../../src/drivers-api/types.js';
import { silentLogger } from '../../src/log.js';
import { createHttpClient } from '../../src/transport/http.js';
import type { TransportFactory } from '../../src/transport/types.js';

/** A DeviceStore in memory that round-trips through JSON like the journal does. */
export function memoryStore(): DeviceStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: (key) => {
      const v = data.get(key);
      return v === undefined ? undefined : JSON.parse(v);
    },
    set: (key, value) => {
      data.set(key, JSON.stringify(value));
    },
    flush: async () => undefined,
  };
}

export interface TestContextOptions {
  clock?: Clock;
  store?: DeviceStore;
  orderItems?: WireOrderItem[];
  payments?: WirePayment[];
  io?: TransportFactory;
  /** The HTTP stack drivers get; a test may wrap it to fault or count exchanges. */
  http?: DriverContext['http'];
  timezone?: string;
}

/** A DriverContext with no hardware and an in-memory platform, for driver unit tests. */
export function testDriverContext(options: TestContextOptions = {}): DriverContext {
  return {
    deviceId: 'dev-1',
    deviceName: 'Test device',
    timezone: options.timezone ?? 'Europe/Rome',
    log: silentLogger,
    clock: options.clock ?? systemClock,
    store: options.store ?? memoryStore(),
    platform: {
      orderItems: async () => options.orderItems ?? [],
      payments: async () => options.payments ?? [],
    },
    io: options.io ?? {
      create: () => {
        throw new Error('no transports in this test');
      },
    },
    http: options.http ?? createHttpClient,
  };
}

/**
 * An ExecuteContext that records progress and checkpoints. A checkpoint is "on disk" (counted in
 * `durable`) a turn of the event loop after it is stored, as the journal's flush is, or
 * `durableAfterMs` later: a driver that acts before awaiting it acts on a checkpoint not yet
 * durable (a slow disk makes that visible to a device that answers within the delay).
 */
export function recordingExecuteContext(
  signal: AbortSignal = new AbortController().signal,
  durableAfterMs?: number,
): ExecuteContext & {
  progressSeen: Array<{ fraction: number; milestone: boolean }>;
  checkpoints: unknown[];
  /** How many of `checkpoints` are on disk. */
  durable(): number;
} {
  const progressSeen: Array<{ fraction: number; milestone: boolean }> = [];
  const checkpoints: unknown[] = [];
  let durable = 0;
  return {
    signal,
    progressSeen,
    checkpoints,
    durable: () => durable,
    progress: (fraction, opts) => progressSeen.push({ fraction, milestone: opts?.milestone ?? false }),
    checkpoint: (value) => {
      checkpoints.push(JSON.parse(JSON.stringify(value)));
      const stored = checkpoints.length;
      return new Promise((resolve) => {
        const done = () => {
          durable = Math.max(durable, stored);
          resolve();
        };
        if (durableAfterMs === undefined) setImmediate(done);
        else setTimeout(done, durableAfterMs);
      });
    },
  };
}

/** Builds a Job around command data, filling the envelope with plausible values. */
export function jobFor(data: CommandData, overrides: Partial<Job> = {}): Job {
  const command: PlatformCommand = {
    id: overrides.commandId ?? 'cmd-1',
    state: 'Received',
    createdUtc: '2026-11-21T10:00:00Z',
    device: { id: 'dev-1', type: data.kind === 'keys' ? 'KeyCutter' : 'FiscalMachine', name: 'Test device' },
    source: 'commands',
    data,
  };
  return { commandId: command.id, deviceId: 'dev-1', command, data, attempt: 1, ...overrides };
}
