import type { Clock } from '../clock.js';
import { createEngine, type Engine, type EngineTuning } from '../commands/index.js';
import { type Config, localeOf } from '../config.js';
import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { messageRenderer } from '../messages/render.js';
import type { Devices } from './devices.js';
import type { JournalFile } from './journal.js';
import type { AgentPart } from './part.js';
import type { PlatformConnection } from './platform.js';
import type { EventBus } from './status-source.js';

/**
 * The command engine (`src/commands/`) over the journal, the platform connection and the
 * devices, with the configuration's polling and the Notes in its language. Starting it recovers
 * the journal and begins discovery; stopping it lets running jobs finish until the deadline,
 * stops the WebSocket and closes the journal.
 */
export class CommandEngine implements AgentPart {
  readonly name = 'command engine';
  private running: Engine | undefined;

  constructor(
    private readonly config: Config,
    private readonly deps: {
      journal: JournalFile;
      connection: PlatformConnection;
      devices: Devices;
      bus: EventBus;
      clock: Clock;
      log: Logger;
      /** Engine knobs (tests shorten them). */
      tuning?: Partial<EngineTuning> | undefined;
    },
  ) {}

  /** The engine, once started. */
  get engine(): Engine {
    if (!this.running) throw new AgentError('INTERNAL', 'The command engine has not started');
    return this.running;
  }

  async start(): Promise<void> {
    const { config } = this;
    const { journal, connection, devices, bus, clock, log, tuning } = this.deps;
    this.running = createEngine({
      journal: journal.journal,
      connector: connection.client,
      ...(connection.socket ? { socket: connection.socket } : {}),
      devices: devices.list,
      clock,
      log: log.child({ component: 'engine' }),
      poll: config.poll,
      enterpriseIds: config.platform.enterpriseIds,
      onEvent: (event) => bus.emit(event),
      ...(tuning ? { tuning } : {}),
      // The language of the Notes; the log stays English.
      notesIn: messageRenderer(localeOf(config), config.timezone),
    });
    await this.running.start();
  }

  async stop(deadlineMs: number): Promise<void> {
    await this.running?.stop(deadlineMs);
  }

  /** The second signal: every job and request aborted at once. */
  abortNow(): void {
    this.running?.abortNow();
  }
}
