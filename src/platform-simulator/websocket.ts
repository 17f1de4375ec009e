import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { runPeriodically } from '../periodic.js';
import type { CommandChange } from './commands.js';
import type { FaultController } from './faults.js';
import { pathOf } from './http-util.js';
import type { Metrics } from './metrics.js';
import type { Rng } from './rng.js';
import { utc } from './time.js';

export const WEBSOCKET_PATH = '/ws/connector';

export interface EventHubDeps {
  tokens: { clientToken: string; accessToken: string };
  clock: Clock;
  metrics: Metrics;
  faults: FaultController;
  log: Logger;
  /** Probability that a push also carries an event of another type (Reservation, Resource …). */
  otherEventRate: number;
  rng: Rng;
}

/** `Cookie: a=b; c=d` → map. Values are taken verbatim (the platform sends no quoting). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

function refuse(socket: Duplex, status: string): void {
  socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/**
 * The platform's WebSocket `/ws/connector`: clients authenticate with the two tokens as cookies
 * (`Cookie: ClientToken=…; AccessToken=…`), anything else is refused with 401 before the upgrade.
 * Every command creation and update is pushed as `{Events: [{Type: "DeviceCommand", Id, State}]}`
 * to every open socket; sometimes an event of another type rides along, which clients must
 * ignore. Faults: refuse every upgrade (503), drop every socket now or every N seconds.
 */
export class EventHub {
  private readonly wss = new WebSocketServer({ noServer: true });
  private dropLoop: AbortController | undefined;

  constructor(private readonly deps: EventHubDeps) {
    this.applyFaults();
    deps.faults.onChange(() => this.applyFaults());
  }

  get openCount(): number {
    return this.wss.clients.size;
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const { metrics, tokens, faults } = this.deps;
    if (pathOf(req) !== WEBSOCKET_PATH) {
      refuse(socket, '404 Not Found');
      return;
    }
    if (faults.get().websocket.refuse) {
      metrics.fault('websocket-refused');
      metrics.websocket('rejected');
      refuse(socket, '503 Service Unavailable');
      return;
    }
    const cookies = parseCookies(req.headers.cookie);
    if (
      cookies.get('ClientToken') !== tokens.clientToken ||
      cookies.get('AccessToken') !== tokens.accessToken
    ) {
      metrics.websocket('rejected');
      refuse(socket, '401 Unauthorized');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      metrics.websocket('connected');
      ws.on('close', () => metrics.websocket('closed'));
      ws.on('error', () => undefined);
    });
  }

  /** Pushes the DeviceCommand event of a created or updated command. */
  publish(change: CommandChange): void {
    const events: Record<string, unknown>[] = [
      { Type: 'DeviceCommand', Id: change.command.id, State: change.command.state },
    ];
    if (this.deps.rng.chance(this.deps.otherEventRate)) events.push(this.otherEvent());
    const text = JSON.stringify({ Events: events });
    for (const ws of this.wss.clients) {
      if (ws.readyState !== ws.OPEN) continue;
      ws.send(text);
      this.deps.metrics.websocket('message');
    }
  }

  private otherEvent(): Record<string, unknown> {
    const { rng, clock } = this.deps;
    const kind = rng.pick(['Reservation', 'Resource', 'PriceUpdate'] as const);
    if (kind === 'Resource')
      return { Type: 'Resource', Id: rng.uuid(), State: rng.pick(['Dirty', 'Clean', 'Inspected']) };
    const start = utc(clock.now());
    if (kind === 'PriceUpdate') {
      return {
        Type: 'PriceUpdate',
        Id: rng.uuid(),
        StartUtc: start,
        EndUtc: start,
        RateId: rng.uuid(),
        ResourceCategoryId: null,
      };
    }
    return {
      Type: 'Reservation',
      Id: rng.uuid(),
      State: 'Confirmed',
      StartUtc: start,
      EndUtc: utc(clock.now() + 86_400_000),
    };
  }

  /** Closes every open socket abruptly (as a network drop would); returns how many. */
  dropAll(): number {
    const clients = [...this.wss.clients];
    for (const ws of clients) ws.terminate();
    if (clients.length > 0) this.deps.metrics.fault('websocket-drop');
    return clients.length;
  }

  private applyFaults(): void {
    this.dropLoop?.abort();
    this.dropLoop = undefined;
    const every = this.deps.faults.get().websocket.dropEverySeconds;
    if (every === null) return;
    const abort = new AbortController();
    this.dropLoop = abort;
    void runPeriodically(() => this.dropAll(), {
      clock: this.deps.clock,
      signal: abort.signal,
      intervalMs: every * 1000,
      firstRun: 'after-interval',
      onError: () => abort.abort(),
    });
  }

  /** Closes every socket and stops the drop loop. Idempotent. */
  async close(): Promise<void> {
    this.dropLoop?.abort();
    this.dropLoop = undefined;
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
