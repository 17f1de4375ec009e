import type { Clock } from '../clock.js';
import type { ConnectorApi, RequestPriority } from '../connector/api.js';
import type { NormalizedItem, PlatformCommand } from '../connector/model.js';
import type { CommandSocket } from '../connector/socket-api.js';
import { COMMAND_STATES, type CommandState, TERMINAL_STATES } from '../connector/wire.js';
import { type AgentError, toAgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { Coalesced } from './coalesced.js';
import { deepCatchUpOnce, lookbackCoversAll, MAX_WINDOW_MS } from './deep-catch-up.js';
import { FiscalReads } from './fiscal-reads.js';
import type { PlatformActivity, PollOptions } from './types.js';

/**
 * Discovery: how commands for our devices are noticed.
 * - WebSocket DeviceCommand ids → `commands/getAllByIds` (debounced, ≤1000 per request); with
 *   fiscal devices, the ids it did not return are asked of `fiscalMachineCommands/getAll` by
 *   CommandIds (a fiscal-only agent asks only there).
 * - Fiscal devices: `fiscalMachineCommands/getAll` by DeviceIds (groups of ≤100), States Pending and
 *   Received, UpdatedUtc from `fiscalLookbackHours` ago to now + 1 min, every page: at start, after
 *   every (re)connect, every `intervalMs` while the socket is down or absent and every
 *   `safetyNetMs` while it is up — unless such a slow poll finds a fiscal command that was created
 *   while the socket was open and never announced: then the socket does not cover fiscal commands
 *   here, and they are polled every `intervalMs` from then on (logged once).
 * - Fiscal devices, deep: the same over the whole 3-month window, at start and every
 *   `deepCatchUpHours` (`deep-catch-up.ts`), for Pending commands older than the lookback.
 * - Other devices: `commands/getAllActive` at start, after every (re)connect, every `intervalMs`
 *   while the socket is down or absent and every `safetyNetMs` while it is up.
 * Discovery requests use priority `discovery`. Failures are logged and retried on the next period
 * (after PLATFORM_AUTH only every `authPauseMs`). Nothing here decides what is ours: every item
 * goes to the sink, which filters and deduplicates.
 */

export interface IntakeSink {
  /** Takes discovered items; returns the ids it accepted as new commands of ours. */
  ingest(items: readonly NormalizedItem[], via: string): readonly string[];
  /** A state hint for a command; returns true when the command is known. */
  platformSays(commandId: string, state: CommandState): boolean;
  /**
   * A known command changed on the platform in a way the event does not spell out (no state, or
   * Processing before we started it): what was seen of it must be read again before it starts.
   */
  platformMoved?(commandId: string): void;
  /**
   * A complete listing of the active commands of one source, requested at `since`: the ids not in
   * `present` are no longer Pending or Received there.
   */
  listedActive?(source: PlatformCommand['source'], present: ReadonlySet<string>, since: number): void;
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
/**
 * A fiscal command found by a slow poll counts as missed by the socket only when it was created
 * this long after the socket opened and this long before the poll (platform and local clocks may
 * differ a little; a wrong "missed" only makes the agent poll as often as without a socket).
 */
const MISSED_GRACE_MS = 10_000;
/** Period of the deep catch-up when the configuration does not say. */
const DEFAULT_DEEP_HOURS = 6;

function idsOf(items: readonly NormalizedItem[]): Set<string> {
  const ids = new Set<string>();
  for (const item of items) {
    const id = item.ok ? item.command.id : item.id;
    if (id !== undefined) ids.add(id);
  }
  return ids;
}

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
  private readonly catchUps = new Coalesced(
    () => this.catchUpOnce(),
    () => this.abort.signal.aborted,
  );
  private lastCatchUpAt = Number.NEGATIVE_INFINITY;
  private readonly fiscalPasses = new Coalesced(
    () => this.pollFiscal(),
    () => this.abort.signal.aborted,
  );
  private lastFiscalPollAt = Number.NEGATIVE_INFINITY;
  /** Wall time of the current connection's open; undefined while the socket is not open. */
  private socketOpenedAt: number | undefined;
  /** Whether the socket is believed to announce fiscal commands (until a slow poll disproves it). */
  private fiscalOnSocket = true;
  private readonly activityState: PlatformActivity = { authRejected: false };
  private readonly fiscal: FiscalReads;

  constructor(private readonly options: IntakeOptions) {
    this.fiscal = new FiscalReads({
      connector: options.connector,
      enterpriseIds: options.enterpriseIds,
      fiscalDeviceIds: options.fiscalDeviceIds,
      sink: options.sink,
      log: options.log,
      signal: this.abort.signal,
      request: (fn) => this.request(fn),
    });
  }

  get activity(): PlatformActivity {
    return { ...this.activityState };
  }

  /** Starts the loops and the socket listeners. Call once. */
  start(): void {
    const { socket, poll, fiscalDeviceIds, otherDeviceIds } = this.options;
    if (socket) {
      this.unsubscribe.push(
        socket.onCommand((event) => this.onSocketCommand(event)),
        socket.onConnected(() => {
          this.socketOpenedAt = this.options.clock.now();
          void this.catchUp();
          void this.fiscalPass();
        }),
        socket.onDisconnected(() => {
          this.socketOpenedAt = undefined;
        }),
      );
    }
    if (fiscalDeviceIds.length > 0) {
      this.track(
        this.every(async () => {
          if (!this.slowFiscal() || this.options.clock.now() - this.lastFiscalPollAt >= poll.safetyNetMs)
            await this.fiscalPass();
        }),
      );
    }
    if (fiscalDeviceIds.length > 0 && !lookbackCoversAll(poll.fiscalLookbackHours)) {
      this.track(this.deepLoop());
    }
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
    await Promise.allSettled([...this.tasks, this.catchUps.current, this.fiscalPasses.current]);
  }

  /**
   * Fetches commands by id (`commands/getAllByIds`, ≤1000 per request) and hands them to the
   * sink; those of a fiscal machine are read through the fiscal operation. Rejects with the
   * connector's AgentError.
   */
  async fetchByIds(ids: readonly string[], via: string, priority: RequestPriority): Promise<void> {
    const { routed } = await this.fetchCommands(ids, via, priority);
    await this.fiscal.fetchRouted(routed, via);
  }

  /** `commands/getAllByIds`: the ids it returned, and the fiscal ones still to read (`FiscalReads`). */
  private async fetchCommands(ids: readonly string[], via: string, priority: RequestPriority) {
    const returned = new Set<string>();
    const routed: string[] = [];
    for (const batch of chunks(ids, 1000)) {
      const items = await this.request(() =>
        this.options.connector.commandsByIds(batch, { priority, signal: this.abort.signal }),
      );
      for (const item of items) returned.add(item.ok ? item.command.id : (item.id ?? ''));
      routed.push(...this.fiscal.takeListed(items, via));
    }
    return { returned, routed };
  }

  /** Ids announced by the socket: `getAllByIds`, then the fiscal operation for what it missed. */
  private async fetchAnnounced(ids: readonly string[]): Promise<void> {
    const { fiscalDeviceIds, otherDeviceIds, sink } = this.options;
    let missing = ids;
    let routed: string[] = [];
    if (otherDeviceIds.length > 0 || fiscalDeviceIds.length === 0) {
      const fetched = await this.fetchCommands(ids, 'websocket', 'discovery');
      routed = fetched.routed;
      missing = ids.filter((id) => !fetched.returned.has(id) && !sink.isKnown(id));
    }
    if (fiscalDeviceIds.length === 0) return;
    const rest = missing.filter((id) => !sink.isKnown(id));
    await this.fiscal.fetchRouted(routed, 'websocket', rest);
  }

  /** `commands/getAllActive`, coalesced: a request during a running one runs once more after it. */
  catchUp(): Promise<void> {
    if (this.options.otherDeviceIds.length === 0) return Promise.resolve();
    return this.catchUps.run();
  }

  private async catchUpOnce(): Promise<void> {
    const since = this.options.clock.now();
    this.lastCatchUpAt = since;
    try {
      const items = await this.request(() =>
        this.options.connector.activeCommands({ priority: 'discovery', signal: this.abort.signal }),
      );
      const routed = this.fiscal.takeListed(items, 'catch-up');
      this.options.sink.listedActive?.('commands', idsOf(items), since);
      await this.fiscal.fetchRouted(routed, 'catch-up');
    } catch (e) {
      this.failed('catch-up', e);
    }
  }

  /** A fiscal poll, coalesced like `catchUp`. */
  private fiscalPass(): Promise<void> {
    if (this.options.fiscalDeviceIds.length === 0) return Promise.resolve();
    return this.fiscalPasses.run();
  }

  /** True while fiscal devices may be polled at the safety-net period. */
  private slowFiscal(): boolean {
    return this.options.socket?.state === 'open' && this.socketOpenedAt !== undefined && this.fiscalOnSocket;
  }

  /** After a slow poll: a new command created while the socket was open means it missed it. */
  private noticeMissed(items: readonly NormalizedItem[], accepted: readonly string[], pollAt: number): void {
    const openedAt = this.socketOpenedAt;
    if (accepted.length === 0 || openedAt === undefined || !this.fiscalOnSocket) return;
    const fresh = new Set(accepted);
    for (const item of items) {
      if (!item.ok || !fresh.has(item.command.id)) continue;
      const created = Date.parse(item.command.createdUtc);
      if (!(created > openedAt + MISSED_GRACE_MS && created < pollAt - MISSED_GRACE_MS)) continue;
      this.fiscalOnSocket = false;
      this.options.log.warn(
        'the WebSocket did not announce a fiscal command; fiscal devices are polled every interval from now on',
        { commandId: item.command.id, intervalMs: this.options.poll.intervalMs },
      );
      return;
    }
  }

  /** One fiscal poll over every fiscal device. */
  async pollFiscal(): Promise<void> {
    const { clock, poll, enterpriseIds, fiscalDeviceIds, connector, sink } = this.options;
    const pollAt = clock.now();
    const slow = this.slowFiscal();
    this.lastFiscalPollAt = pollAt;
    const end = clock.now() + 60_000;
    const start = end - Math.min(poll.fiscalLookbackHours * HOUR + 60_000, MAX_WINDOW_MS);
    const window = { StartUtc: new Date(start).toISOString(), EndUtc: new Date(end).toISOString() };
    const enterprise = enterpriseIds?.length ? { EnterpriseIds: [...enterpriseIds] } : {};
    const present = new Set<string>();
    let complete = true;
    for (const group of chunks(fiscalDeviceIds, 100)) {
      try {
        await this.request(async () => {
          const pages = connector.fiscalCommands(
            { DeviceIds: group, States: ['Pending', 'Received'], UpdatedUtc: window, ...enterprise },
            { priority: 'discovery', signal: this.abort.signal },
          );
          for await (const page of pages) {
            const accepted = sink.ingest(page, 'fiscal-poll');
            for (const id of idsOf(page)) present.add(id);
            if (slow) this.noticeMissed(page, accepted, pollAt);
          }
        });
      } catch (e) {
        complete = false;
        this.failed('fiscal poll', e);
      }
    }
    try {
      if (complete) sink.listedActive?.('fiscalMachineCommands', present, pollAt);
    } catch (e) {
      this.failed('fiscal poll', e);
    }
  }

  /**
   * The deep catch-up (`deep-catch-up.ts`): at start, then every `poll.deepCatchUpHours`, so a
   * Pending fiscal command older than `fiscalLookbackHours` is never lost.
   */
  private async deepLoop(): Promise<void> {
    const { clock, poll, connector, enterpriseIds, fiscalDeviceIds, sink, log } = this.options;
    const everyMs = (poll.deepCatchUpHours ?? DEFAULT_DEEP_HOURS) * HOUR;
    while (!this.abort.signal.aborted) {
      try {
        const seen = await this.request(() =>
          deepCatchUpOnce({
            connector,
            clock,
            fiscalLookbackHours: poll.fiscalLookbackHours,
            fiscalDeviceIds,
            enterpriseIds,
            ingest: (page) => sink.ingest(page, 'deep-catch-up'),
            signal: this.abort.signal,
          }),
        );
        log.debug('deep catch-up done', { seen });
      } catch (e) {
        this.failed('deep catch-up', e);
      }
      try {
        await clock.sleep(everyMs, this.abort.signal);
      } catch {
        return;
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
    if (sink.isKnown(event.id)) {
      if (state !== 'Pending' && state !== 'Received') sink.platformMoved?.(event.id);
      return;
    }
    if (state === 'Processing') return;
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
        await this.fetchAnnounced(ids);
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
