import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../clock.js';
import { COMMAND_STATES, type CommandState } from '../connector/wire.js';
import { AgentError } from '../errors.js';
import { type Logger, silentLogger } from '../log.js';
import { ADMIN_PREFIX, handleAdmin } from './admin.js';
import { CONNECTOR_PREFIX, handleConnector } from './connector-http.js';
import { SimulatorCore } from './core.js';
import { type DocumentRules, documentRules } from './document.js';
import type { CreateCommandOptions } from './factory.js';
import { sendJson } from './http-util.js';
import { deriveRng } from './rng.js';
import { type CommandKind, type Scenario, type ScenarioInput, validateScenario } from './scenario.js';
import type { PlatformSimulator } from './simulator-api.js';
import { EventHub, WEBSOCKET_PATH } from './websocket.js';

export interface PlatformSimulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port; read it back from `url`). */
  port?: number;
  /** Override the scenario's tokens; default: the scenario's, else random. */
  clientToken?: string;
  accessToken?: string;
  /** A parsed scenario (`loadScenario`) or a plain object to validate; default: a small property, no generator. */
  scenario?: Scenario | ScenarioInput;
  /**
   * Time of everything: stamps, the rate window, latency faults, the generator, WebSocket drop
   * loops and delayed staff cancels. A ManualClock makes all of them move only when advanced.
   */
  clock?: Clock;
  /** Request lines at debug, lifecycle at info; never tokens. Default: silent. */
  log?: Logger;
  /** Overrides the scenario's seed; default 1. */
  seed?: number;
  /** Show fiscal commands in `commands/*` too (legacy `Data` shape); default: the scenario's (true). */
  legacyFiscalInCommands?: boolean;
  /** Overrides the scenario's rate limit. */
  rateLimit?: { requests: number; windowSeconds: number };
  /** Start the generator if the scenario asks for it; default true. */
  autostartGenerator?: boolean;
  /**
   * Strict-document mode: the interface document applied strictly (every `DocumentRules` switch
   * at its strict value, see `document.ts`). Default: the scenario's `platform.strictDocument`.
   */
  strictDocument?: boolean;
  /** Single document switches over the mode's; default: the scenario's `platform.document`. */
  document?: Partial<DocumentRules>;
}

function randomToken(): string {
  return `${randomBytes(16).toString('hex')}-${randomBytes(16).toString('hex').slice(0, 31)}`.toUpperCase();
}

/**
 * Starts the fake platform: Connector API and admin API over HTTP, the WebSocket, the command
 * generator. Resolves once listening. Rejects with CONFIG_INVALID for a bad scenario and with
 * PLATFORM_UNREACHABLE when the port cannot be bound.
 */
export async function startPlatformSimulator(
  options: PlatformSimulatorOptions = {},
): Promise<PlatformSimulator> {
  const scenario = validateScenario(options.scenario ?? {});
  const clock = options.clock ?? systemClock;
  const log = (options.log ?? silentLogger).child({ component: 'platform-simulator' });
  const seed = options.seed ?? scenario.seed ?? 1;
  const tokens = {
    clientToken: options.clientToken ?? scenario.platform.clientToken ?? randomToken(),
    accessToken: options.accessToken ?? scenario.platform.accessToken ?? randomToken(),
  };
  const core = new SimulatorCore({
    scenario,
    seed,
    clock,
    log,
    legacyFiscalInCommands: options.legacyFiscalInCommands ?? scenario.platform.legacyFiscalInCommands,
    rateLimit: options.rateLimit ?? scenario.platform.rateLimit,
    rules: documentRules(options.strictDocument ?? scenario.platform.strictDocument, {
      ...(scenario.platform.document as Partial<DocumentRules>),
      ...options.document,
    }),
  });
  const hub = new EventHub({
    tokens,
    clock,
    log,
    metrics: core.metrics,
    faults: core.faults,
    otherEventRate: scenario.platform.otherEventRate,
    rng: deriveRng(seed, 'websocket'),
  });
  core.store.subscribe((change) => hub.publish(change));

  const closing = new AbortController();
  const hung = new Set<ServerResponse>();
  const autostart = options.autostartGenerator ?? true;
  let sim: PlatformSimulator | undefined;

  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const work = path.startsWith(CONNECTOR_PREFIX)
      ? handleConnector(req, res, { core, tokens, log, closing: closing.signal, hung })
      : path.startsWith(ADMIN_PREFIX) && sim
        ? handleAdmin(req, res, sim)
        : Promise.resolve(
            sendJson(
              res,
              404,
              { Message: `Not found: ${path.split('?')[0]}` },
              { 'Request-Id': randomUUID() },
            ),
          );
    work.catch((e: unknown) => {
      log.error('simulator request failed', { error: e instanceof Error ? e.message : String(e) });
      sendJson(res, 500, { Message: 'The server encountered an internal error.' });
    });
  });
  server.on('upgrade', (req, socket, head) => hub.handleUpgrade(req, socket, head));
  server.on('clientError', (_e, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new AgentError('PLATFORM_UNREACHABLE', `simulator cannot listen: ${e.code ?? e.message}`, {
          cause: e,
        }),
      ),
    );
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  const view = (id: string) => {
    const command = core.store.get(id);
    return command ? core.view(command) : undefined;
  };
  const create = (kind: CommandKind) => (opts?: CreateCommandOptions) =>
    core.view(core.createCommand(kind, opts));
  let closed: Promise<void> | undefined;

  sim = {
    url,
    wsUrl: `ws://${host}:${address.port}${WEBSOCKET_PATH}`,
    tokens,
    seed,
    rules: core.options.rules,
    world: core.world,
    createCommand: (kind, opts) => core.view(core.createCommand(kind, opts)),
    createFiscalData: create('fiscal-data'),
    createFiscalRefund: create('fiscal-refund'),
    createFiscalPayload: create('fiscal-payload'),
    createKeys: create('keys'),
    createPrint: create('printer'),
    createPaymentTerminal: create('payment-terminal'),
    cancelAsStaff: (id, notes) => core.view(core.cancelAsStaff(id, notes)),
    command: view,
    history: (id) => view(id)?.history ?? [],
    commands: (filter) => core.commands(filter).map((c) => core.view(c)),
    stateCounts: () => {
      const counts = Object.fromEntries(COMMAND_STATES.map((s) => [s, 0])) as Record<CommandState, number>;
      for (const c of core.store.newestFirst()) counts[c.state]++;
      return counts;
    },
    counters: () => core.metrics.counters(),
    requestLog: () => core.metrics.requestLog(),
    faults: () => core.faults.get(),
    setFaults: (patch) => core.faults.set(patch),
    clearFaults: () => core.faults.clear(),
    startGenerator: () => core.generator.start(),
    stopGenerator: () => core.generator.stop(),
    get generatorRunning() {
      return core.generator.running;
    },
    dropWebSockets: () => hub.dropAll(),
    get openWebSockets() {
      return hub.openCount;
    },
    receipts: () => core.receipts.all(),
    addReceipt: (receipt) => core.receipts.add(receipt),
    reset: () => core.reset(autostart),
    close: () => {
      closed ??= (async () => {
        core.close();
        closing.abort();
        for (const res of hung) res.destroy();
        await hub.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        log.info('platform simulator stopped');
      })();
      return closed;
    },
  };
  core.begin(autostart);
  log.info('platform simulator listening', { url, seed, devices: core.world.devices.length });
  return sim;
}
