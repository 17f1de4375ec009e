import type { Clock } from '../clock.js';
import type { EngineDevice } from '../commands/index.js';
import type { Config } from '../config.js';
import type { DriverRegistry, SimulatedDevice } from '../drivers-api/types.js';
import { errorFields, type Logger } from '../log.js';
import { runPeriodically } from '../periodic.js';
import { createTransportFactory } from '../transport/factory.js';
import { createDevices, startDeviceSimulators } from './device-drivers/index.js';
import type { JournalFile } from './journal.js';
import type { AgentPart } from './part.js';
import type { PlatformConnection } from './platform.js';
import { platformReader } from './platform-reader.js';
import type { EventBus } from './status-source.js';

/** How long the first, background `open()` of a device may take. */
const FIRST_OPEN_MS = 10_000;
/** How often the page hears of a device whose status changed. */
const WATCH_MS = 5000;

/**
 * Demo mode (`simulator.devices: true`, as `npm start` runs): the device simulator of every
 * configured device whose family has one, where its options point (`startDeviceSimulators`).
 */
export class DeviceSimulators implements AgentPart {
  readonly name = 'device simulators';
  private started: SimulatedDevice[] = [];

  constructor(
    private readonly config: Config,
    private readonly deps: { registry: DriverRegistry; log: Logger },
  ) {}

  async start(): Promise<void> {
    if (!this.config.simulator?.enabled || !this.config.simulator.devices) return;
    this.started = await startDeviceSimulators(this.config, this.deps.registry, this.deps.log);
  }

  async stop(): Promise<void> {
    await Promise.all(this.started.splice(0).map((d) => d.close().catch(() => undefined)));
  }
}

/**
 * One driver per configured device (`createDevices`), each with its store in the journal, the
 * platform reader and the transports; closed when the agent stops.
 */
export class Devices implements AgentPart {
  readonly name = 'devices';
  private built: EngineDevice[] = [];

  constructor(
    private readonly config: Config,
    private readonly deps: {
      registry: DriverRegistry;
      journal: JournalFile;
      connection: PlatformConnection;
      clock: Clock;
      log: Logger;
    },
  ) {}

  /** The devices, once started (none before). */
  get list(): readonly EngineDevice[] {
    return this.built;
  }

  async start(): Promise<void> {
    const { registry, journal, connection, clock, log } = this.deps;
    this.built = await createDevices(this.config, {
      registry,
      journal: journal.journal,
      platform: platformReader(connection.client, clock, log.child({ component: 'platform-reader' })),
      io: createTransportFactory({ log: log.child({ component: 'transport' }) }),
      clock,
      log,
    });
  }

  async stop(): Promise<void> {
    await Promise.all(this.built.map((d) => d.driver.close().catch(() => undefined)));
  }
}

/**
 * Once the engine runs: every driver is opened once in the background, so the page shows real
 * device state before the first job (a device that is not ready is opened again by its next
 * job), and every 5 s each device whose status changed becomes an event for the page and the
 * metrics.
 */
export class DeviceWatch implements AgentPart {
  readonly name = 'device watch';
  private readonly loop = new AbortController();

  constructor(private readonly deps: { devices: Devices; bus: EventBus; clock: Clock; log: Logger }) {}

  async start(): Promise<void> {
    const { devices, bus, clock, log } = this.deps;
    for (const device of devices.list) {
      device.driver.open(AbortSignal.timeout(FIRST_OPEN_MS)).catch((error: unknown) => {
        log.warn('device not ready yet; the agent keeps trying when a job comes', {
          device: device.name,
          ...errorFields(error),
        });
      });
    }
    const seen = new Map<string, string>();
    void runPeriodically(
      () => {
        for (const device of devices.list) {
          let status: ReturnType<EngineDevice['driver']['status']>;
          try {
            status = device.driver.status();
          } catch {
            continue;
          }
          const key = JSON.stringify([status.connected, status.summary, status.warnings]);
          if (seen.get(device.id) === key) continue;
          seen.set(device.id, key);
          bus.emit({ type: 'device', at: clock.now(), deviceId: device.id, status });
        }
      },
      {
        clock,
        signal: this.loop.signal,
        intervalMs: WATCH_MS,
        firstRun: 'after-interval',
        onError: (error) => log.warn('device watch failed', errorFields(error)),
      },
    );
  }

  async stop(): Promise<void> {
    this.loop.abort();
  }
}
