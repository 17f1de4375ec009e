import type { Clock } from '../clock.js';
import { type Config, greetingLocaleOf, localeOf } from '../config.js';
import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { messageRenderer } from '../messages/render.js';
import { staffMessages } from '../status/callers/index.js';
import { createMetrics, type RunningStatusServer, startStatusServer } from '../status/index.js';
import { type PassedSockets, prepareStaffDirectory } from '../status/sockets/index.js';
import type { StatusSource } from '../status-model.js';
import { agentVersion } from '../version.js';
import type { CommandEngine } from './command-engine.js';
import type { Devices } from './devices.js';
import type { JournalFile } from './journal.js';
import type { AgentPart } from './part.js';
import type { PlatformConnection, PlatformLink } from './platform.js';
import { createStatusSource, type EventBus } from './status-source.js';
import type { Supervision } from './supervision.js';

/** How long the demo's printed login address waits for its browser. */
const DEMO_LOGIN_MS = 12 * 3600_000;

/** What the status page is given beside the configuration: credentials, sockets, the terminal. */
export interface StatusPageDeps {
  /** The action token (`status.accessTokenFile`): scripts' bearer, and a login for IT. */
  statusAccessToken?: string | undefined;
  /** The read-only metrics token (`status.metricsTokenFile`). */
  statusMetricsToken?: string | undefined;
  /** The page's HTTPS key and certificate (`status.tls`), PEM. */
  statusTls?: { key: string; cert: string } | undefined;
  /** Where the staff socket is (`staffSocketPath`); none when omitted. */
  staffSocket?: string | undefined;
  /** The sockets systemd passed: the page's and the staff socket. */
  passed?: PassedSockets | undefined;
  /** Tells the person at the terminal something (the demo's one-time login address). */
  announce?: ((text: string) => void) | undefined;
}

/** The parts the page shows. */
export interface StatusPageParts {
  supervision: Supervision;
  platform: PlatformLink;
  connection: PlatformConnection;
  journal: JournalFile;
  devices: Devices;
  engine: CommandEngine;
  bus: EventBus;
  clock: Clock;
  log: Logger;
}

/**
 * The status page (`src/status/`) over the running agent: the status source reading every other
 * part, the page, `/status.json`, `/healthz`, `/metrics` and the staff socket. Once the page
 * listens the log says where; the demo (`npm start`) also prints a one-time login address.
 */
export class StatusPage implements AgentPart {
  readonly name = 'status page';
  private server: RunningStatusServer | undefined;
  private shown: StatusSource | undefined;

  constructor(
    private readonly config: Config,
    private readonly deps: StatusPageDeps,
    private readonly parts: StatusPageParts,
  ) {}

  /** The running agent as the page sees it, once started. */
  get source(): StatusSource {
    if (!this.shown) throw new AgentError('INTERNAL', 'The agent has not started');
    return this.shown;
  }

  /** The page's base address, without its last slash, once started. */
  get url(): string {
    if (!this.server) throw new AgentError('INTERNAL', 'The status page has not started');
    return this.server.url.replace(/\/$/, '');
  }

  async start(): Promise<void> {
    const { config, deps } = this;
    const { supervision, platform, connection, journal, devices, engine, bus, clock, log } = this.parts;
    const locale = localeOf(config);
    const source = createStatusSource({
      version: agentVersion(),
      timezone: config.timezone,
      clock,
      supervision,
      platform,
      connection,
      journal,
      engine: engine.engine,
      devices: devices.list,
      bus,
      platformSilenceMs:
        Math.max(3 * config.poll.intervalMs, 2 * config.poll.safetyNetMs) + config.platform.requestTimeoutMs,
      enterpriseIds: config.platform.enterpriseIds,
    });
    this.shown = source;
    const server = await startStatusServer({
      listen: config.status.listen,
      ...(deps.passed ? { passed: deps.passed } : {}),
      ...this.staffSocketOption(),
      ...(deps.statusMetricsToken ? { metricsToken: deps.statusMetricsToken } : {}),
      ...(deps.statusTls ? { tls: deps.statusTls } : {}),
      source,
      actions: config.status.actions,
      locale,
      clock,
      log: log.child({ component: 'status' }),
      metrics: createMetrics({
        site: config.site,
        deviceNames: new Map(devices.list.map((d) => [d.id, d.name])),
      }),
      ...(deps.statusAccessToken ? { accessToken: deps.statusAccessToken } : {}),
      staffGroup: config.status.staffGroup,
    });
    this.server = server;
    void server.listening.then((url) => {
      log.info(`status page at ${url.replace(/\/$/, '')}`, {
        devices: devices.list.length,
        websocket: connection.socket ? 'on' : 'off',
        platform: platform.url,
        locale,
      });
      if (config.simulator?.enabled && deps.announce) {
        // The demo is one command, like Jupyter: the address logs this browser in once — the
        // browser of the account running the demo, and no other (staff-sessions.ts).
        const address = server.loginAddress(
          { login: 'start-link', uid: process.getuid?.() ?? -1 },
          DEMO_LOGIN_MS,
        );
        deps.announce(
          messageRenderer(greetingLocaleOf(config)).render(staffMessages.demoLogin({ url: address })),
        );
      }
    });
  }

  async stop(): Promise<void> {
    await this.server?.close().catch(() => undefined);
  }

  /**
   * The staff socket to open (issue 41, item 2): the one systemd passed, else the path of the one
   * rule (`staffSocketPath`) when its directory can be trusted — made now when this process may
   * (root) — else none, and the log says exactly why.
   */
  private staffSocketOption(): { staffSocket?: string } {
    const { staffSocket: path, passed } = this.deps;
    if (!path) return {};
    if (passed?.staff !== undefined) return { staffSocket: path };
    const problem = prepareStaffDirectory(path, process.getuid?.() ?? -1);
    if (problem) {
      this.parts.log.warn('no staff socket: the command line (login, report, void) cannot reach this agent', {
        path,
        reason: problem,
        fix: 'start the agent as root or under systemd, or set status.staffSocket to a path in a directory of this user',
      });
      return {};
    }
    return { staffSocket: path };
  }
}
