import { randomInt } from 'node:crypto';
import { resolve } from 'node:path';
import type { Clock } from '../clock.js';
import type { Config, Secrets } from '../config.js';
import { type ConnectorClient, createConnectorClient } from '../connector/client.js';
import { ConnectorSocket } from '../connector/websocket.js';
import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';
import type { PlatformSimulator } from '../platform-simulator/index.js';
import { clientName } from '../version.js';
import type { JournalFile } from './journal.js';
import type { AgentPart } from './part.js';
import type { EventBus } from './status-source.js';
import type { Restartable, RestartableLink } from './supervision.js';

/** Where the platform answers, and the tokens it takes. */
export interface PlatformEndpoint {
  url: string;
  /** The WebSocket's address, when the configuration turns it on. */
  wsUrl?: string;
  secrets: Secrets;
}

/**
 * The platform the agent talks to: the configured one with the configured tokens, or, with
 * `simulator.enabled` (`npm start`), the embedded platform simulator, started here. Every token
 * it learns goes into the logger's redaction list before anything can log it.
 */
export class PlatformLink implements AgentPart {
  readonly name = 'platform';
  private simulator: PlatformSimulator | undefined;
  private endpoint: PlatformEndpoint | undefined;

  constructor(
    private readonly config: Config,
    private readonly deps: {
      log: Logger;
      /** The tokens; omitted with the embedded simulator (it has its own). */
      secrets?: Secrets | undefined;
      /** The logger's redaction list. */
      redactions?: string[] | undefined;
    },
  ) {}

  /** Where the platform answers, once started. */
  get current(): PlatformEndpoint {
    if (!this.endpoint) throw new AgentError('INTERNAL', 'The platform link has not started');
    return this.endpoint;
  }

  /** The platform's address: the simulator's once it runs, the configured one before. */
  get url(): string {
    return this.endpoint?.url ?? this.config.platform.url;
  }

  async start(): Promise<void> {
    const { config, deps } = this;
    const websocket = config.platform.websocketUrl;
    if (config.simulator?.enabled) {
      const { loadScenario, startPlatformSimulator } = await import('../platform-simulator/index.js');
      const scenario = config.simulator.scenario
        ? loadScenario(resolve(config.simulator.scenario))
        : undefined;
      this.simulator = await startPlatformSimulator({
        port: config.simulator.port,
        log: deps.log,
        // A fixed seed would hand out the same command ids at every start, and the journal (kept
        // across starts) would take them for commands it already finished.
        seed: config.simulator.seed ?? randomInt(2 ** 31),
        ...(scenario ? { scenario } : {}),
      });
      const { url, wsUrl, tokens } = this.simulator;
      deps.redactions?.push(tokens.clientToken, tokens.accessToken);
      deps.log.info('embedded platform simulator started', { url });
      this.endpoint = { url, ...(websocket ? { wsUrl } : {}), secrets: tokens };
      return;
    }
    if (!deps.secrets) throw new AgentError('CONFIG_INVALID', 'No platform tokens were provided');
    deps.redactions?.push(deps.secrets.clientToken, deps.secrets.accessToken);
    this.endpoint = {
      url: config.platform.url,
      ...(websocket ? { wsUrl: websocket } : {}),
      secrets: deps.secrets,
    };
  }

  async stop(): Promise<void> {
    await this.simulator?.close().catch(() => undefined);
  }
}

/**
 * The agent's connection to the platform: the Connector API client (its rate budget kept in the
 * journal across restarts) and, when configured, the WebSocket listener. Every request and every
 * refused item becomes an event for the page and the metrics; the socket's opening and closing
 * too. The engine starts and stops the socket; the guard may restart it (`restartable`).
 */
export class PlatformConnection implements AgentPart, Restartable {
  readonly name = 'platform connection';
  private connector: ConnectorClient | undefined;
  private listener: ConnectorSocket | undefined;
  private lastSuccess: number | undefined;

  constructor(
    private readonly config: Config,
    private readonly deps: {
      platform: PlatformLink;
      journal: JournalFile;
      bus: EventBus;
      clock: Clock;
      log: Logger;
    },
  ) {}

  /** The Connector API client, once started. */
  get client(): ConnectorClient {
    if (!this.connector) throw new AgentError('INTERNAL', 'The platform connection has not started');
    return this.connector;
  }

  /** The WebSocket listener, when the configuration has one. */
  get socket(): ConnectorSocket | undefined {
    return this.listener;
  }

  /** Epoch ms of the last 2xx answer the client saw. */
  get lastSuccessAt(): number | undefined {
    return this.lastSuccess;
  }

  async start(): Promise<void> {
    const { config } = this;
    const { platform, journal, bus, clock, log } = this.deps;
    const { url, wsUrl, secrets } = platform.current;
    const { requests, windowSeconds, reserveShare, maxRetryAfterSeconds } = config.platform.rateLimit;
    this.connector = createConnectorClient({
      baseUrl: url,
      clientToken: secrets.clientToken,
      accessToken: secrets.accessToken,
      client: config.platform.client ?? clientName(),
      clock,
      log: log.child({ component: 'connector' }),
      rateLimit: { requests, windowSeconds, reserveShare, maxRetryAfterSeconds },
      budgetStore: journal.journal.rateBudget,
      requestTimeoutMs: config.platform.requestTimeoutMs,
      enterpriseIds: config.platform.enterpriseIds,
      onRequest: (record) => {
        if (record.status >= 200 && record.status < 300) this.lastSuccess = clock.now();
        bus.emit({ type: 'request', at: clock.now(), record });
      },
      onRefusedItems: (refused) => {
        log.repeated('the platform sent items the agent refused', `${refused.operation} ${refused.reason}`, {
          ...refused,
        });
        bus.emit({ type: 'refused', at: clock.now(), refused });
      },
    });
    if (!wsUrl) return;
    const socket = new ConnectorSocket({
      url: wsUrl,
      clientToken: secrets.clientToken,
      accessToken: secrets.accessToken,
      clock,
      log: log.child({ component: 'websocket' }),
    });
    socket.onConnected(() => bus.emit({ type: 'platform', at: clock.now(), websocket: 'open' }));
    socket.onDisconnected(() => bus.emit({ type: 'platform', at: clock.now(), websocket: 'down' }));
    this.listener = socket;
  }

  async stop(): Promise<void> {
    await this.listener?.stop().catch(() => undefined);
  }

  /** The WebSocket listener is stateless: a new connection runs a catch-up, so nothing announced meanwhile is lost. */
  restartable(): RestartableLink | undefined {
    const socket = this.listener;
    if (!socket) return undefined;
    return {
      name: 'websocket',
      owns: (file) => /[\\/]src[\\/]connector[\\/]websocket\.[jt]s$|[\\/]node_modules[\\/]ws[\\/]/.test(file),
      stop: () => socket.stop(),
      start: () => socket.start(),
    };
  }
}
