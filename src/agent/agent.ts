import { type Clock, systemClock } from '../clock.js';
import type { EngineTuning } from '../commands/index.js';
import type { Config, Secrets } from '../config.js';
import type { DriverRegistry } from '../drivers-api/types.js';
import { Listeners } from '../listeners.js';
import { errorFields, type Logger } from '../log.js';
import type { StatusSource } from '../status-model.js';
import type { EscapeOrigin } from '../supervision/index.js';
import { CommandEngine } from './command-engine.js';
import { DeviceSimulators, Devices, DeviceWatch } from './devices.js';
import { JournalFile } from './journal.js';
import type { AgentPart } from './part.js';
import { PlatformConnection, PlatformLink } from './platform.js';
import { StatusPage, type StatusPageDeps } from './status-page.js';
import type { EventBus } from './status-source.js';
import { GuardedRestarts, Supervision } from './supervision.js';

export interface AgentDeps extends StatusPageDeps {
  registry: DriverRegistry;
  log: Logger;
  /** The tokens; omitted when the config embeds the platform simulator (it has its own). */
  secrets?: Secrets;
  /**
   * The logger's redaction list: the agent pushes every token it learns (the simulator's too) so
   * that no log line can carry one.
   */
  redactions?: string[];
  clock?: Clock;
  /** Engine knobs (tests shorten them). */
  tuning?: Partial<EngineTuning>;
}

export interface Agent {
  /** Starts every part in order: platform, journal, connection, devices, engine, page. */
  start(): Promise<{ statusUrl: string }>;
  /** Graceful stop: running jobs may finish until the deadline. Never rejects; idempotent. */
  stop(deadlineMs?: number): Promise<void>;
  /** The second signal: abort everything now; the journal stays consistent. */
  abortNow(): void;
  /** The running agent for the page; available after `start()`. */
  readonly source: StatusSource;
  /**
   * True while the agent itself is alive: its event loop runs and its journal can be written.
   * This feeds the systemd watchdog, so it deliberately ignores the platform and the devices: an
   * internet outage or an unplugged printer must not make systemd restart the agent.
   */
  alive(): boolean;
  /**
   * An error escaped every handler (the process-level guard in `app/main.ts`): logged as one
   * line, the component it came from restarted when its stack tells, `/healthz` 503 for a while;
   * when it keeps happening `alive()` turns false (see `src/supervision/escaped-faults.ts`).
   */
  reportEscaped(error: unknown, origin: EscapeOrigin): void;
}

/**
 * `createAgent(config, deps)` builds the agent's parts and starts none until `start()`. With
 * `config.simulator.enabled` the platform is the embedded platform simulator.
 */
export function createAgent(config: Config, deps: AgentDeps): Agent {
  return new RunningAgent(config, deps);
}

/**
 * The agent as a list of parts (`part.ts`), composed as the engine composes its stages: one
 * constructor builds each part in the order they start, each getting only parts that exist
 * already; `start` starts them in that order and `stop` stops them in reverse. The agent holds no
 * logic of theirs.
 */
class RunningAgent implements Agent {
  private readonly parts: readonly AgentPart[];
  private readonly supervision: Supervision;
  private readonly journal: JournalFile;
  private readonly engine: CommandEngine;
  private readonly page: StatusPage;
  /** The parts whose start began, in order: what a stop must stop. */
  private readonly begun: AgentPart[] = [];
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly config: Config,
    private readonly deps: AgentDeps,
  ) {
    const clock = deps.clock ?? systemClock;
    const { log, registry } = deps;
    const bus: EventBus = new Listeners();
    const supervision = new Supervision({ clock, log });
    const platform = new PlatformLink(config, { log, secrets: deps.secrets, redactions: deps.redactions });
    const journal = new JournalFile(config.journal.path, { clock, log });
    const connection = new PlatformConnection(config, { platform, journal, bus, clock, log });
    const simulators = new DeviceSimulators(config, { registry, log });
    const devices = new Devices(config, { registry, journal, connection, clock, log });
    const engine = new CommandEngine(config, {
      journal,
      connection,
      devices,
      bus,
      clock,
      log,
      tuning: deps.tuning,
    });
    const watch = new DeviceWatch({ devices, bus, clock, log });
    const page = new StatusPage(config, deps, {
      supervision,
      platform,
      connection,
      journal,
      devices,
      engine,
      bus,
      clock,
      log,
    });
    const restarts = new GuardedRestarts(supervision.guard, [connection]);
    this.parts = [
      supervision,
      platform,
      journal,
      connection,
      simulators,
      devices,
      engine,
      watch,
      page,
      restarts,
    ];
    this.supervision = supervision;
    this.journal = journal;
    this.engine = engine;
    this.page = page;
  }

  // The agent's methods are bound: callers hand them on (`isHealthy: agent.alive`).

  readonly start = async (): Promise<{ statusUrl: string }> => {
    for (const part of this.parts) {
      this.begun.push(part);
      await part.start();
    }
    return { statusUrl: this.page.url };
  };

  readonly stop = (deadlineMs = this.config.shutdown.deadlineMs): Promise<void> => {
    this.stopping ??= this.shutdown(deadlineMs);
    return this.stopping;
  };

  readonly abortNow = (): void => {
    this.engine.abortNow();
  };

  get source(): StatusSource {
    return this.page.source;
  }

  readonly alive = (): boolean => this.journal.health().ok && this.supervision.alive();

  readonly reportEscaped = (error: unknown, origin: EscapeOrigin): void => {
    this.supervision.guard.report(error, origin);
  };

  private async shutdown(deadlineMs: number): Promise<void> {
    for (const part of this.begun.splice(0).reverse()) {
      try {
        await part.stop(deadlineMs);
      } catch (error) {
        this.deps.log.warn(`${part.name} did not stop cleanly`, errorFields(error));
      }
    }
  }
}
