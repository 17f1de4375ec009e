import type { Clock } from '../clock.js';
import type { ConnectorApi, RequestPriority } from '../connector/api.js';
import type { NormalizedItem } from '../connector/model.js';
import type { CommandSocket } from '../connector/socket-api.js';
import { COMMAND_STATES, type CommandState, TERMINAL_STATES } from '../connector/wire.js';
import { type AgentError, toAgentError } from '../errors.js';
import type { Logger } from '../log.js';
import type { PlatformActivity, PollOptions } from './types.js';

/**
 * Discovery: how commands for our devices are noticed.
 * - Fiscal devices: `fiscalMachineCommands/getAll` by DeviceIds (groups of ≤100), States Pending and
 *   Received, UpdatedUtc from `fiscalLookbackHours` ago to now + 1 min, every page, every
 *   `intervalMs`.
 * - Other devices: WebSocket DeviceCommand ids → `commands/getAllByIds` (debounced, ≤1000 per
 *   request); `commands/getAllActive` at start, after every (re)connect, every `intervalMs` while the
 *   socket is down or absent and every `safetyNetMs` while it is up.
 * Discovery requests use priority `discovery`. Failures are logged and retried on the next period
 * (after PLATFORM_AUTH only every `authPauseMs`). Nothing here decides what is ours: every item
 * goes to the sink, which filters and deduplicates.
 */

export interface IntakeSink {
  ingest(items: readonly NormalizedItem[], via: string): void;
  /** A state hint for a command; returns true when the command is known. */
  platformSays(commandId: string, state: CommandState): boolean;
  isKnown(commandId: string): boolean;
}

export interface IntakeOptions {
  connector: ConnectorApi;
  socket?: CommandSocket;
  clock: Clock;
  log: Logger;
  poll: PollOptions;
  enterpriseIds?: readonly string[];
  fiscalDeviceIds: readonly string[];
  /** Non-fiscal devices: when empty, `commands/getAllActive` is not polled. */
  otherDeviceIds: readonly string[];
  debounceMs: number;
  authPauseMs: number;
  sink: IntakeSink;
  /** Called after every discovery request the platform answered. */
  onPlatformAnswered?: () => void;
  /** Called after a discovery request failed with a retryable platform error (an outage). */
  onPlatformFailed?: () => void;
}

const HOUR = 3_600_000;
/** Keeps the UpdatedUtc window safely inside the platform's 3-month limit. */
const MAX_WINDOW_MS = 89 * 24 * HOUR;

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export class Intake {
  private readonly abort = new AbortController();
  private readonly tasks = new Set<Promise<void>>();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly pendingIds = new Set<string>();
  private flushScheduled = false;
  private catchUpRunning: Promise<void> | undefined;
  private catchUpAgain = false;
  private lastCatchUpAt = Number.NEGATIVE_INFINITY;
  private readonly activityState: PlatformActivity = { authRejected: false };

  constructor(private readonly options: IntakeOptions) {}

  get activity(): PlatformActivity {
    return { ...this.activityState };
  }

  /** Starts the loops and the socket listeners. Call once. */
  start(): void {
    const { socket, poll, fiscalDeviceIds, otherDeviceIds } = this.options;
    if (socket) {
      this.unsubscribe.push(
        socket.onCommand((event) => this.onSocketCommand(event)),
        socket.onConnected(() => void this.catchUp()),
      );
    }
    if (fiscalDeviceIds.length > 0) this.track(this.every(() => this.pollFiscal()));
    if (otherDeviceIds.length > 0) {
      this.track(
        this.every(async () => {
          const open = socket?.state === 'open';
          if (!open || this.options.clock.now() - this.lastCatchUpAt >= poll.safetyNetMs)
            await this.catchUp();
        }),
      );
    }
  }

  /** Stops discovery; in-flight requests are aborted. Idempotent. */
  async stop(): Promise<void> {
    this.abort.abort();
    for (const off of this.unsubscribe.splice(0)) off();
    await Promise.allSettled([...this.tasks, this.catchUpRunning]);
  }

  /**
   * Fetches commands by id (`commands/getAllByIds`, ≤1000 per request) and hands them to the
   * sink. Rejects with the connector's AgentError.
   */
  async fetchByIds(ids: readonly string[], via: string, priority: RequestPriority): Promise<void> {
    for (const batch of chunks(ids, 1000)) {
      const items = await this.request(() =>
        this.options.connector.commandsByIds(batch, { priority, signal: this.abort.signal }),
      );
      this.options.sink.ingest(items, via);
    }
  }

  /** `commands/getAllActive`, coalesced: a request during a running one runs once more after it. */
  catchUp(): Promise<void> {
    if (this.options.otherDeviceIds.length === 0 || this.abort.signal.aborted) return Promise.resolve();
    if (this.catchUpRunning) {
      this.catchUpAgain = true;
      return this.catchUpRunning;
    }
    const run = async () => {
      do {
        this.catchUpAgain = false;
        this.lastCatchUpAt = this.options.clock.now();
        try {
          const items = await this.request(() =>
            this.options.connector.activeCommands({ priority: 'discovery', signal: this.abort.signal }),
          );
          this.options.sink.ingest(items, 'catch-up');
        } catch (e) {
          this.failed('catch-up', e);
        }
      } while (this.catchUpAgain && !this.abort.signal.aborted);
    };
    this.catchUpRunning = run().finally(() => {
      this.catchUpRunning = undefined;
    });
    return this.catchUpRunning;
  }

  /** One fiscal poll over every fiscal device. */
  async pollFiscal(): Promise<void> {
    const { clock, poll, enterpriseIds, fiscalDeviceIds, connector, sink } = this.options;
    const end = clock.now() + 60_000;
    const start = end - Math.min(poll.fiscalLookbackHours * HOUR + 60_000, MAX_WINDOW_MS);
    const window = { StartUtc: new Date(start).toISOString(), EndUtc: new Date(end).toISOString() };
    const enterprise = enterpriseIds?.length ? { EnterpriseIds: [...enterpriseIds] } : {};
    for (const group of chunks(fiscalDeviceIds, 100)) {
      try {
        await this.request(async () => {
          const pages = connector.fiscalCommands(
            { DeviceIds: group, States: ['Pending', 'Received'], UpdatedUtc: window, ...enterprise },
            { priority: 'discovery', signal: this.abort.signal },
          );
          for await (const page of pages) sink.ingest(page, 'fiscal-poll');
        });
      } catch (e) {
        this.failed('fiscal poll', e);
      }
    }
  }

  private onSocketCommand(event: { id: string; state?: string }): void {
    try {
      this.takeSocketCommand(event);
    } catch (e) {
      // Never throw into the socket's message handling (a journal failure, say).
      this.failed('websocket event', e);
    }
  }

  private takeSocketCommand(event: { id: string; state?: string }): void {
    const { sink } = this.options;
    const state = COMMAND_STATES.find((s) => s === event.state);
    if (state && TERMINAL_STATES.includes(state)) {
      sink.platformSays(event.id, state);
      return;
    }
    if (state === 'Processing' || sink.isKnown(event.id)) return;
    this.pendingIds.add(event.id);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const flush = async () => {
      try {
        await this.options.clock.sleep(this.options.debounceMs, this.abort.signal);
      } catch {
        return;
      } finally {
        this.flushScheduled = false;
      }
      const ids = [...this.pendingIds].filter((id) => !sink.isKnown(id));
      this.pendingIds.clear();
      try {
        await this.fetchByIds(ids, 'websocket', 'discovery');
      } catch (e) {
        this.failed('websocket fetch', e);
      }
    };
    this.track(flush());
  }

  /** Keeps a background task until it settles, so `stop()` can wait for it. */
  private track(task: Promise<void>): void {
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  private async request<T>(fn: () => Promise<T>): Promise<T> {
    const result = await fn();
    this.activityState.lastSuccessAt = this.options.clock.now();
    this.activityState.authRejected = false;
    this.options.onPlatformAnswered?.();
    return result;
  }

  private failed(what: string, e: unknown): void {
    if (this.abort.signal.aborted) return;
    const error: AgentError = toAgentError(e);
    this.activityState.lastError = { code: error.code, message: error.message, at: this.options.clock.now() };
    if (error.code === 'PLATFORM_AUTH') this.activityState.authRejected = true;
    if (error.retryable) this.options.onPlatformFailed?.();
    this.options.log.warn(`${what} failed`, { code: error.code, error: error.message });
  }

  private async every(task: () => Promise<void>): Promise<void> {
    const { clock, poll, authPauseMs } = this.options;
    while (!this.abort.signal.aborted) {
      try {
        await task();
      } catch (e) {
        this.failed('discovery', e);
      }
      const wait = this.activityState.authRejected ? Math.max(authPauseMs, poll.intervalMs) : poll.intervalMs;
      try {
        await clock.sleep(wait, this.abort.signal);
      } catch {
        return;
      }
    }
  }
}
