import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type Clock, systemClock } from '../clock.js';
import type { Journal } from '../commands/index.js';
import {
  createEngine,
  type Engine,
  type EngineDevice,
  type EngineTuning,
  openJournal,
} from '../commands/index.js';
import { type Config, greetingLocaleOf, localeOf, type Secrets } from '../config.js';
import { type ConnectorClient, createConnectorClient } from '../connector/client.js';
import { ConnectorSocket } from '../connector/websocket.js';
import type { DriverRegistry, SimulatedDevice } from '../drivers-api/types.js';
import { AgentError, toAgentError } from '../errors.js';
import { Listeners } from '../listeners.js';
import { errorFields, type Logger } from '../log.js';
import { messageRenderer } from '../messages/render.js';
import type { PlatformSimulator } from '../platform-simulator/index.js';
import { staffMessages } from '../status/callers/index.js';
import { createMetrics, type RunningStatusServer, startStatusServer } from '../status/index.js';
import type { PassedSockets } from '../status/sockets/index.js';
import { prepareStaffDirectory } from '../status/sockets/index.js';
import type { StatusSource } from '../status-model.js';
import { EscapedFaults, type EscapeOrigin, loopLag } from '../supervision/index.js';
import { createTransportFactory } from '../transport/factory.js';
import { agentVersion, clientName } from '../version.js';
import { createDevices, startDeviceSimulators } from './drivers.js';
import { platformReader } from './platform-reader.js';
import { createStatusSource, type EventBus } from './status-source.js';

export interface AgentDeps {
  registry: DriverRegistry;
  log: Logger;
  /** The tokens; omitted when the config embeds the platform simulator (it has its own). */
  secrets?: Secrets;
  /**
   * The logger's redaction list: the agent pushes every token it learns (the simulator's too) so
   * that no log line can carry one.
   */
  redactions?: string[];
  /** The action token (`status.accessTokenFile`): scripts' bearer, and a login for IT. */
  statusAccessToken?: string;
  /** The read-only metrics token (`status.metricsTokenFile`). */
  statusMetricsToken?: string;
  /** The page's HTTPS key and certificate (`status.tls`), PEM. */
  statusTls?: { key: string; cert: string };
  /** Where the staff socket is (`staffSocketPath`); none when omitted. */
  staffSocket?: string;
  /** The sockets systemd passed (passed-sockets.ts): the page's and the staff socket. */
  passed?: PassedSockets;
  /**
   * Tells the person at the terminal something (not a log line). With the embedded simulator
   * (`npm start`) the agent says a one-time login address through it.
   */
  announce?: (text: string) => void;
  clock?: Clock;
  /** Engine knobs (tests shorten them). */
  tuning?: Partial<EngineTuning>;
}

export interface Agent {
  /** Opens the journal, wires platform and devices, recovers, starts intake and the status page. */
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

/** How long the demo's printed login address waits for its browser. */
const DEMO_LOGIN_MS = 12 * 3600_000;

/**
 * The composition root: `createAgent(config, deps)` builds nothing until `start()`. With
 * `config.simulator.enabled` it first starts the embedded platform simulator and points the
 * client at it.
 */
export function createAgent(config: Config, deps: AgentDeps): Agent {
  const clock = deps.clock ?? systemClock;
  const log = deps.log;
  // The language of the Notes and the page; the log stays English.
  const locale = localeOf(config);
  const bus: EventBus = new Listeners();
  const lag = loopLag();
  let simulator: PlatformSimulator | undefined;
  let deviceSimulators: SimulatedDevice[] = [];
  let journal: Journal | undefined;
  let engine: Engine | undefined;
  let client: ConnectorClient | undefined;
  let socket: ConnectorSocket | undefined;
  let devices: EngineDevice[] = [];
  let status: RunningStatusServer | undefined;
  let source: StatusSource | undefined;
  let platformUrl = config.platform.url;
  let lastPlatformSuccess: number | undefined;
  let journalProbe: { ok: boolean; error?: string } = { ok: true };
  const timers: NodeJS.Timeout[] = [];
  let stopping: Promise<void> | undefined;
  const escaped = new EscapedFaults({ clock, log: log.child({ component: 'guard' }) });

  const every = (ms: number, fn: () => void) => {
    const timer = setInterval(fn, ms);
    timer.unref();
    timers.push(timer);
  };

  async function platformTokens(): Promise<{ url: string; wsUrl?: string; secrets: Secrets }> {
    if (config.simulator?.enabled) {
      const { loadScenario, startPlatformSimulator } = await import('../platform-simulator/index.js');
      const scenario = config.simulator.scenario
        ? loadScenario(resolve(config.simulator.scenario))
        : undefined;
      simulator = await startPlatformSimulator({
        port: config.simulator.port,
        log,
        // A fixed seed would hand out the same command ids at every start, and the journal (kept
        // across starts) would take them for commands it already finished.
        seed: config.simulator.seed ?? randomInt(2 ** 31),
        ...(scenario ? { scenario } : {}),
      });
      deps.redactions?.push(simulator.tokens.clientToken, simulator.tokens.accessToken);
      log.info('embedded platform simulator started', { url: simulator.url });
      return {
        url: simulator.url,
        ...(config.platform.websocketUrl ? { wsUrl: simulator.wsUrl } : {}),
        secrets: simulator.tokens,
      };
    }
    if (!deps.secrets) throw new AgentError('CONFIG_INVALID', 'No platform tokens were provided');
    deps.redactions?.push(deps.secrets.clientToken, deps.secrets.accessToken);
    return {
      url: config.platform.url,
      ...(config.platform.websocketUrl ? { wsUrl: config.platform.websocketUrl } : {}),
      secrets: deps.secrets,
    };
  }

  async function start(): Promise<{ statusUrl: string }> {
    const startedAt = clock.now();
    const platform = await platformTokens();
    platformUrl = platform.url;
    if (config.journal.path !== ':memory:')
      mkdirSync(dirname(resolve(config.journal.path)), { recursive: true });
    journal = openJournal(config.journal.path);
    const { requests, windowSeconds, reserveShare, maxRetryAfterSeconds } = config.platform.rateLimit;
    client = createConnectorClient({
      baseUrl: platform.url,
      clientToken: platform.secrets.clientToken,
      accessToken: platform.secrets.accessToken,
      client: config.platform.client ?? clientName(),
      clock,
      log: log.child({ component: 'connector' }),
      rateLimit: { requests, windowSeconds, reserveShare, maxRetryAfterSeconds },
      budgetStore: journal.rateBudget,
      requestTimeoutMs: config.platform.requestTimeoutMs,
      enterpriseIds: config.platform.enterpriseIds,
      onRequest: (record) => {
        if (record.status >= 200 && record.status < 300) lastPlatformSuccess = clock.now();
        bus.emit({ type: 'request', at: clock.now(), record });
      },
      onRefusedItems: (refused) => {
        log.repeated('the platform sent items the agent refused', `${refused.operation} ${refused.reason}`, {
          ...refused,
        });
        bus.emit({ type: 'refused', at: clock.now(), refused });
      },
    });
    if (platform.wsUrl) {
      socket = new ConnectorSocket({
        url: platform.wsUrl,
        clientToken: platform.secrets.clientToken,
        accessToken: platform.secrets.accessToken,
        clock,
        log: log.child({ component: 'websocket' }),
      });
      socket.onConnected(() => bus.emit({ type: 'platform', at: clock.now(), websocket: 'open' }));
      socket.onDisconnected(() => bus.emit({ type: 'platform', at: clock.now(), websocket: 'down' }));
      const listener = socket;
      // Stateless: a new connection runs a catch-up, so nothing announced meanwhile is lost.
      escaped.register({
        name: 'websocket',
        owns: (file) =>
          /[\\/]src[\\/]connector[\\/]websocket\.[jt]s$|[\\/]node_modules[\\/]ws[\\/]/.test(file),
        restart: async () => {
          if (stopping) return;
          await listener.stop();
          if (!stopping) listener.start();
        },
      });
    }
    if (config.simulator?.enabled && config.simulator.devices) {
      deviceSimulators = await startDeviceSimulators(config, deps.registry, log);
    }
    devices = await createDevices(config, {
      registry: deps.registry,
      journal,
      platform: platformReader(client, clock, log.child({ component: 'platform-reader' })),
      io: createTransportFactory({ log: log.child({ component: 'transport' }) }),
      clock,
      log,
    });
    engine = createEngine({
      journal,
      connector: client,
      ...(socket ? { socket } : {}),
      devices,
      clock,
      log: log.child({ component: 'engine' }),
      poll: config.poll,
      enterpriseIds: config.platform.enterpriseIds,
      onEvent: (event) => bus.emit(event),
      ...(deps.tuning ? { tuning: deps.tuning } : {}),
      notesIn: messageRenderer(locale, config.timezone),
    });
    const running = engine;
    const connector = client;
    source = createStatusSource({
      version: agentVersion(),
      startedAt,
      timezone: config.timezone,
      platformUrl: () => platformUrl,
      clock,
      engine: running,
      client: connector,
      socket,
      devices,
      bus,
      loopLagMs: () => lag.currentMs(),
      journalHealth: () => journalProbe,
      faultReasons: () => escaped.reasons(),
      platformSilenceMs:
        Math.max(3 * config.poll.intervalMs, 2 * config.poll.safetyNetMs) + config.platform.requestTimeoutMs,
      lastPlatformSuccess: () => lastPlatformSuccess,
      enterpriseIds: config.platform.enterpriseIds,
    });
    await engine.start();
    openDevicesInBackground();
    watchDevicesAndJournal();
    status = await startStatusServer({
      listen: config.status.listen,
      ...(deps.passed ? { passed: deps.passed } : {}),
      ...staffSocketOption(deps.staffSocket, deps.passed),
      ...(deps.statusMetricsToken ? { metricsToken: deps.statusMetricsToken } : {}),
      ...(deps.statusTls ? { tls: deps.statusTls } : {}),
      source,
      actions: config.status.actions,
      locale,
      clock,
      log: log.child({ component: 'status' }),
      metrics: createMetrics({ site: config.site, deviceNames: new Map(devices.map((d) => [d.id, d.name])) }),
      ...(deps.statusAccessToken ? { accessToken: deps.statusAccessToken } : {}),
      staffGroup: config.status.staffGroup,
    });
    const page = status;
    void page.listening.then((url) => {
      log.info(`status page at ${url.replace(/\/$/, '')}`, {
        devices: devices.length,
        websocket: socket ? 'on' : 'off',
        platform: platformUrl,
        locale,
      });
      if (config.simulator?.enabled && deps.announce) {
        // The demo is one command, like Jupyter: the address logs this browser in once — the
        // browser of the account running the demo, and no other (staff-sessions.ts).
        const address = page.loginAddress(
          { login: 'start-link', uid: process.getuid?.() ?? -1 },
          DEMO_LOGIN_MS,
        );
        deps.announce(
          messageRenderer(greetingLocaleOf(config)).render(staffMessages.demoLogin({ url: address })),
        );
      }
    });
    return { statusUrl: status.url.replace(/\/$/, '') };
  }

  /**
   * The staff socket to open (issue 41, item 2): the one systemd passed, else the path of the one
   * rule (`staffSocketPath`) when its directory can be trusted — made now when this process may
   * (root) — else none, and the log says exactly why.
   */
  function staffSocketOption(
    path: string | undefined,
    passed: PassedSockets | undefined,
  ): { staffSocket?: string } {
    if (!path) return {};
    if (passed?.staff !== undefined) return { staffSocket: path };
    const problem = prepareStaffDirectory(path, process.getuid?.() ?? -1);
    if (problem) {
      log.warn('no staff socket: the command line (login, report, void) cannot reach this agent', {
        path,
        reason: problem,
        fix: 'start the agent as root or under systemd, or set status.staffSocket to a path in a directory of this user',
      });
      return {};
    }
    return { staffSocket: path };
  }

  /** Opens every driver once so the page shows real device state before the first job. */
  function openDevicesInBackground(): void {
    for (const device of devices) {
      device.driver.open(AbortSignal.timeout(10_000)).catch((error: unknown) => {
        log.warn('device not ready yet; the agent keeps trying when a job comes', {
          device: device.name,
          ...errorFields(error),
        });
      });
    }
  }

  function watchDevicesAndJournal(): void {
    const seen = new Map<string, string>();
    every(5000, () => {
      for (const device of devices) {
        let statusNow: ReturnType<EngineDevice['driver']['status']>;
        try {
          statusNow = device.driver.status();
        } catch {
          continue;
        }
        const key = JSON.stringify([statusNow.connected, statusNow.summary, statusNow.warnings]);
        if (seen.get(device.id) !== key) {
          seen.set(device.id, key);
          bus.emit({ type: 'device', at: clock.now(), deviceId: device.id, status: statusNow });
        }
      }
    });
    every(10_000, () => {
      try {
        journal?.deviceStore('__agent__').set('heartbeat', clock.now());
        journalProbe = { ok: true };
      } catch (error) {
        journalProbe = { ok: false, error: toAgentError(error).message };
      }
    });
  }

  async function shutdown(deadlineMs: number): Promise<void> {
    for (const timer of timers) clearInterval(timer);
    await status?.close().catch(() => undefined);
    if (engine) await engine.stop(deadlineMs);
    else journal?.close();
    await Promise.all(devices.map((d) => d.driver.close().catch(() => undefined)));
    await socket?.stop().catch(() => undefined);
    await Promise.all(deviceSimulators.map((d) => d.close().catch(() => undefined)));
    await simulator?.close().catch(() => undefined);
    log.info('agent stopped');
  }

  return {
    start,
    stop(deadlineMs = config.shutdown.deadlineMs) {
      stopping ??= shutdown(deadlineMs);
      return stopping;
    },
    abortNow() {
      engine?.abortNow();
    },
    get source(): StatusSource {
      if (!source) throw new AgentError('INTERNAL', 'The agent has not started');
      return source;
    },
    alive: () => journalProbe.ok && lag.currentMs() < 5000 && escaped.alive(),
    reportEscaped: (error, origin) => {
      escaped.report(error, origin);
    },
  };
}
