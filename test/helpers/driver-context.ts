import type { Clock } from '../../src/clock.js';
import { systemClock } from '../../src/clock.js';
import type { CommandData, PlatformCommand } from '../../src/connector/model.js';
import type { WireOrderItem, WirePayment } from '../../src/connector/wire.js';
import type {
  DeviceStore,
  Driver,
  DriverContext,
  DriverFactory,
  ExecuteContext,
  Job,
} from '../../src/drivers-api/types.js';
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

/**
 * An RT driver's options for tests: short timeouts, no background polls, no wait for a printer
 * that went away, no closure schedule (on the system clock it could fire mid-test).
 */
export const QUICK_RT = {
  statusIntervalMs: 0,
  documentTimeoutMs: 2_000,
  reportTimeoutMs: 2_000,
  readTimeoutMs: 1_000,
  busyRetryDelayMs: 5,
  settleUnansweredForMinutes: 0,
  dailyClosure: { enabled: false },
};

/** What a device rig's drivers read: the bill, the clock and HTTP stack, and a wrap of their context. */
export interface RigContext {
  items?: WireOrderItem[] | undefined;
  payments?: WirePayment[] | undefined;
  clock?: Clock | undefined;
  http?: DriverContext['http'] | undefined;
  /** Wraps each driver's context (a platform outage, say). */
  ctx?: ((ctx: DriverContext) => DriverContext) | undefined;
}

/**
 * Drivers of `factory` with `options` on one device store: `driver` first, `restart()` another on
 * the same store (the agent after a crash); `close()` closes them all, then `device`.
 */
export function driversOn<C>(
  factory: Pick<DriverFactory<C>, 'create'>,
  options: C,
  o: RigContext,
  device: { close(): Promise<void> },
): { store: DeviceStore; driver: Driver; restart(): Driver; close(): Promise<void> } {
  const store = memoryStore();
  const drivers: Driver[] = [];
  const restart = () => {
    const ctx = testDriverContext({
      store,
      orderItems: o.items ?? [],
      payments: o.payments ?? [],
      ...(o.clock ? { clock: o.clock } : {}),
      ...(o.http ? { http: o.http } : {}),
    });
    const driver = factory.create(options, o.ctx ? o.ctx(ctx) : ctx);
    drivers.push(driver);
    return driver;
  };
  return {
    store,
    driver: restart(),
    restart,
    async close() {
      for (const d of drivers) await d.close();
      await device.close();
    },
  };
}
