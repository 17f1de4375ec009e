import WebSocket from 'ws';
import { type BackoffRange, fullJitterDelay, type RandomSource } from '../backoff.js';
import { type Clock, systemClock } from '../clock.js';
import { AgentError } from '../errors.js';
import { Listeners } from '../listeners.js';
import { type Logger, redact, silentLogger } from '../log.js';
import { runPeriodically } from '../periodic.js';
import { linkSignals } from '../signals.js';
import { boundedId } from './bounds.js';
import type { CommandSocket, SocketState } from './socket-api.js';
import { WsMessageSchema } from './wire.js';

export interface ConnectorSocketOptions {
  /** The `/ws/connector` address, e.g. `wss://ws.mews-demo.com/ws/connector`. */
  url: string;
  clientToken: string;
  accessToken: string;
  clock?: Clock;
  log?: Logger;
  /** Ping period; a connection that has not answered the previous ping is dropped (default 30000). */
  pingIntervalMs?: number;
  /** Reconnect backoff, full jitter (default 1000..60000). */
  reconnect?: BackoffRange;
  random?: RandomSource;
}

type CommandEvent = { id: string; state?: string };

/**
 * The largest WebSocket message taken (`maxPayload`): an event list of 1,000 commands is about
 * 100 KB. A larger message makes `ws` close the connection (1009); the listener reconnects with
 * its backoff and the polls find whatever it announced.
 */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Events taken from one message; the polls find the rest. */
export const MAX_EVENTS_PER_MESSAGE = 1000;
const MAX_STATE_CHARS = 32;

/**
 * The command events of one WebSocket message, or why it was dropped. Pure and total: any text
 * gives an answer, never a throw. Ids longer than any GUID and events beyond
 * `MAX_EVENTS_PER_MESSAGE` are left out (`skipped`).
 */
export function parseSocketMessage(
  text: string,
): { ok: true; events: CommandEvent[]; skipped: number } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const parsed = WsMessageSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'no Events list' };
  const events: CommandEvent[] = [];
  let skipped = 0;
  for (const event of parsed.data.Events) {
    if (event.Type !== 'DeviceCommand' || !event.Id) continue;
    const id = boundedId(event.Id);
    if (!id || events.length >= MAX_EVENTS_PER_MESSAGE) {
      skipped++;
      continue;
    }
    const state = event.State && event.State.length <= MAX_STATE_CHARS ? event.State : undefined;
    events.push(state ? { id, state } : { id });
  }
  return { ok: true, events, skipped };
}

/** Outcome of one connection attempt. */
interface Session {
  opened: boolean;
  /** Answered at least one ping: the backoff starts from scratch afterwards. */
  stable: boolean;
  /** The last ping has been answered (true before the first ping). */
  answered: boolean;
}

const CLOSE_GRACE_MS = 2000;

function rawText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * `CommandSocket` over the `ws` package. Tokens travel only as the `Cookie` header
 * (`ClientToken=…; AccessToken=…`), never in the URL, a log line or an event. Reconnects with
 * full-jitter exponential backoff until `stop()`; the backoff resets after a connection that
 * answered a ping. Every timer goes through the injected Clock.
 */
export class ConnectorSocket implements CommandSocket {
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly pingIntervalMs: number;
  private readonly backoff: BackoffRange;
  private readonly random: RandomSource;
  private readonly cookie: string;
  private readonly secrets: string[];
  private readonly listenerFailed = (error: unknown) =>
    this.log.error('websocket listener threw', { error: this.clean(String(error)) });
  private readonly commandListeners = new Listeners<[CommandEvent]>(this.listenerFailed);
  private readonly connectedListeners = new Listeners<[{ reconnect: boolean }]>(this.listenerFailed);
  private readonly disconnectedListeners = new Listeners<[{ reason: string }]>(this.listenerFailed);
  private current: SocketState = 'idle';
  private run: { stop: AbortController; done: Promise<void> } | undefined;

  constructor(private readonly options: ConnectorSocketOptions) {
    if (!options.clientToken || !options.accessToken) {
      throw new AgentError('CONFIG_INVALID', 'The WebSocket needs both platform tokens');
    }
    try {
      new URL(options.url);
    } catch {
      throw new AgentError('CONFIG_INVALID', 'The platform WebSocket address is not a valid URL');
    }
    this.clock = options.clock ?? systemClock;
    this.log = (options.log ?? silentLogger).child({ component: 'connector-socket' });
    this.pingIntervalMs = options.pingIntervalMs ?? 30_000;
    this.backoff = options.reconnect ?? { minMs: 1000, maxMs: 60_000 };
    this.random = options.random ?? Math.random;
    this.cookie = `ClientToken=${options.clientToken}; AccessToken=${options.accessToken}`;
    this.secrets = [options.clientToken, options.accessToken];
  }

  get state(): SocketState {
    return this.current;
  }

  /** Starts connecting in the background. No-op while running; restarts after `stop()` settled. */
  start(): void {
    if (this.run) return;
    const stop = new AbortController();
    const done = this.loop(stop.signal).catch((error: unknown) => {
      this.log.error('websocket loop failed', { error: this.clean(String(error)) });
    });
    this.run = { stop, done };
  }

  async stop(): Promise<void> {
    const run = this.run;
    if (!run) return;
    run.stop.abort();
    await run.done;
    this.current = 'closed';
    if (this.run === run) this.run = undefined;
  }

  onCommand(listener: (event: CommandEvent) => void): () => void {
    return this.commandListeners.add(listener);
  }

  onConnected(listener: (info: { reconnect: boolean }) => void): () => void {
    return this.connectedListeners.add(listener);
  }

  onDisconnected(listener: (info: { reason: string }) => void): () => void {
    return this.disconnectedListeners.add(listener);
  }

  /** Connects, and after each connection ends connects again, a jittered backoff later, until `stop`. */
  private async loop(stop: AbortSignal): Promise<void> {
    let everConnected = false;
    let failures = 0;
    await runPeriodically(
      async () => {
        this.current = 'connecting';
        const session = await this.connectOnce(stop, everConnected);
        if (session.opened) everConnected = true;
        failures = session.stable ? 0 : failures + 1;
      },
      {
        clock: this.clock,
        signal: stop,
        intervalMs: () => {
          const delay = fullJitterDelay(Math.max(0, failures - 1), this.backoff, this.random);
          this.log.debug('websocket reconnecting', { delayMs: delay, failures });
          return delay;
        },
        // connectOnce never rejects; were it to, the next connection follows as after any other.
        onError: (error) =>
          this.log.error('websocket connection failed', { error: this.clean(String(error)) }),
      },
    );
    this.current = 'closed';
  }

  /** One connection, from dial to close. Resolves when it is gone; never rejects. */
  private connectOnce(stop: AbortSignal, reconnect: boolean): Promise<Session> {
    return new Promise<Session>((resolve) => {
      const session: Session = { opened: false, stable: false, answered: true };
      let reason = 'closed';
      const ws = new WebSocket(this.options.url, {
        headers: { Cookie: this.cookie },
        handshakeTimeout: Math.max(1000, this.pingIntervalMs),
        maxPayload: MAX_MESSAGE_BYTES,
      });
      // Ends the ping loop and the close grace period once the connection is gone.
      const gone = new AbortController();
      const onStop = () => {
        ws.close(1000, 'agent stopping');
        // A peer that never answers the close frame is cut off after a short grace period.
        this.clock.sleep(CLOSE_GRACE_MS, gone.signal).then(
          () => ws.terminate(),
          () => {},
        );
      };
      stop.addEventListener('abort', onStop, { once: true });

      ws.on('open', () => {
        session.opened = true;
        this.current = 'open';
        this.log.info('websocket connected', { reconnect });
        this.keepAlive(ws, session, gone.signal);
        this.connectedListeners.emit({ reconnect });
      });
      ws.on('pong', () => {
        session.answered = true;
        session.stable = true;
      });
      ws.on('message', (data) => this.handleMessage(rawText(data)));
      ws.on('error', (error) => {
        reason = this.clean(error.message);
      });
      ws.on('close', (code) => {
        gone.abort();
        stop.removeEventListener('abort', onStop);
        if (!stop.aborted) {
          const why = session.opened
            ? `connection lost (code ${code}${reason !== 'closed' ? `, ${reason}` : ''})`
            : reason;
          this.log.warn('websocket disconnected', { reason: why });
          this.disconnectedListeners.emit({ reason: why });
        }
        resolve(session);
      });
    });
  }

  /** Pings every interval; a ping still unanswered at the next tick means a dead link. */
  private keepAlive(ws: WebSocket, session: Session, signal: AbortSignal): void {
    // Ends with the connection (`signal`), or once it has dropped a silent one or a ping failed.
    const ended = new AbortController();
    const { signal: alive, unlink } = linkSignals(signal, ended.signal);
    void runPeriodically(
      () => {
        if (!session.answered) {
          this.log.warn('websocket silent: no pong within the ping interval; dropping it', {
            pingIntervalMs: this.pingIntervalMs,
          });
          ws.terminate();
          ended.abort();
          return;
        }
        session.answered = false;
        ws.ping();
      },
      {
        clock: this.clock,
        signal: alive,
        intervalMs: this.pingIntervalMs,
        firstRun: 'after-interval',
        // A ping that throws: the connection is gone already.
        onError: () => ended.abort(),
      },
    ).finally(unlink);
  }

  private handleMessage(text: string): void {
    const message = parseSocketMessage(text);
    if (!message.ok) {
      this.log.warn(`websocket message dropped: ${message.reason}`, { length: text.length });
      return;
    }
    if (message.skipped > 0) {
      this.log.warn('websocket events left to the polls (too many, or an unusable id)', {
        skipped: message.skipped,
      });
    }
    for (const event of message.events) this.commandListeners.emit(event);
  }

  private clean(text: string): string {
    return redact(text, this.secrets);
  }
}
