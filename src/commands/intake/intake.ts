import type { RequestPriority } from '../../connector/api.js';
import type { NormalizedItem } from '../../connector/model.js';
import { ACTIVE_STATES, COMMAND_STATES, TERMINAL_STATES } from '../../connector/wire.js';
import { runPeriodically } from '../../periodic.js';
import { Coalesced } from './coalesced.js';
import { deepCatchUpOnce, lookbackCoversAll } from './deep-catch-up.js';
import {
  chunks,
  type DiscoveryActivity,
  DiscoveryRequests,
  type IntakeOptions,
  idsOf,
} from './discovery-requests.js';
import { FiscalPoll } from './fiscal-poll.js';
import { FiscalReads } from './fiscal-reads.js';

/**
 * Discovery: how commands for our devices are noticed.
 * - WebSocket DeviceCommand ids → `commands/getAllByIds` (≤1000 per request) at once, not after a
 *   wait: ids arriving while a fetch is under way are fetched together right after it, so a
 *   burst costs a request per round trip and a lone command no wait at all (`debounceMs`, 0 by
 *   default, adds a fixed wait first); with fiscal devices, the ids it did not return are asked
 *   of `fiscalMachineCommands/getAll` by CommandIds (a fiscal-only agent asks only there).
 * - Fiscal devices: the fiscal poll (`fiscal-poll.ts`); reads of fiscal commands by id, also for
 *   a fiscal machine a `commands/*` listing shows as a Printer (`fiscal-reads.ts`).
 * - Fiscal devices, deep: the same over the whole 3-month window, at start and every
 *   `deepCatchUpHours` (`deep-catch-up.ts`), for Pending commands older than the lookback.
 * - Other devices: `commands/getAllActive` at start, after every (re)connect, every `intervalMs`
 *   while the socket is down or absent and every `safetyNetMs` while it is up.
 * Discovery requests use priority `discovery`. Failures are logged and retried on the next period
 * (after PLATFORM_AUTH only every `authPauseMs`). Nothing here decides what is ours: every item
 * goes to the sink (`IntakeSink`, `ports.ts`: the engine gives `Ownership`), which filters and
 * deduplicates.
 */

export type { IntakeOptions } from './discovery-requests.js';

const HOUR = 3_600_000;
/** Period of the deep catch-up when the configuration does not say. */
const DEFAULT_DEEP_HOURS = 6;

export class Intake {
  private readonly abort = new AbortController();
  private readonly tasks = new Set<Promise<void>>();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly pendingIds = new Set<string>();
  /** A fetch of announced ids is under way; ids arriving meanwhile go in the next one. */
  private announcing = false;
  private readonly requests: DiscoveryRequests;
  private readonly fiscal: FiscalPoll;
  private readonly fiscalReads: FiscalReads;
  private readonly catchUps = new Coalesced(
    () => this.catchUpOnce(),
    () => this.abort.signal.aborted,
  );
  private lastCatchUpAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: IntakeOptions) {
    const { clock, log, observer } = options;
    const signal = this.abort.signal;
    this.requests = new DiscoveryRequests({ clock, log, signal, ...(observer ? { observer } : {}) });
    this.fiscal = new FiscalPoll({ ...options, requests: this.requests, signal });
    this.fiscalReads = new FiscalReads({
      connector: options.connector,
      enterpriseIds: options.enterpriseIds,
      fiscalDeviceIds: options.fiscalDeviceIds,
      sink: options.sink,
      log: options.log,
      signal,
      request: (fn) => this.requests.request(fn),
    });
  }

  get activity(): DiscoveryActivity {
    return this.requests.activity;
  }

  /** Starts the loops and the socket listeners. Call once. */
  start(): void {
    const { socket, poll, fiscalDeviceIds, otherDeviceIds } = this.options;
    if (socket) {
      this.unsubscribe.push(
        socket.onCommand((event) => this.onSocketCommand(event)),
        socket.onConnected(() => {
          this.fiscal.socketOpened();
          void this.catchUp();
          void this.fiscal.pass();
        }),
        socket.onDisconnected(() => this.fiscal.socketClosed()),
      );
    }
    if (fiscalDeviceIds.length > 0) {
      this.track(
        this.every(async () => {
          if (this.fiscal.due()) await this.fiscal.pass();
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
    await Promise.allSettled([...this.tasks, this.catchUps.current, this.fiscal.current]);
  }

  /** One fiscal poll over every fiscal device (see `FiscalPoll`). */
  pollFiscal(): Promise<void> {
    return this.fiscal.poll();
  }

  /** A fiscal poll that vouches for the start check's sightings (see `FiscalPoll.vouch`). */
  vouchFiscal(onlyIfDue: boolean): Promise<void> {
    return this.fiscal.vouch(onlyIfDue);
  }

  /**
   * Fetches commands by id (`commands/getAllByIds`, ≤1000 per request) and hands them to the
   * sink; those of a fiscal machine are read through the fiscal operation. Rejects with the
   * connector's AgentError.
   */
  async fetchByIds(ids: readonly string[], via: string, priority: RequestPriority): Promise<void> {
    const { routed } = await this.fetchCommands(ids, via, priority);
    await this.fiscalReads.fetchRouted(routed, via);
  }

  /** `commands/getAllByIds`: the ids it returned, and the fiscal ones still to read (`FiscalReads`). */
  private async fetchCommands(ids: readonly string[], via: string, priority: RequestPriority) {
    const returned = new Set<string>();
    const routed: string[] = [];
    for (const batch of chunks(ids, 1000)) {
      const items = await this.requests.request(() =>
        this.options.connector.commandsByIds(batch, { priority, signal: this.abort.signal }),
      );
      for (const item of items) returned.add(item.ok ? item.command.id : (item.id ?? ''));
      routed.push(...this.takeListing(items, via));
    }
    return { returned, routed };
  }

  /**
   * Step 1's hand-off for a `commands/*` listing (`getAllByIds`, `getAllActive`): its items go to
   * the sink — step 2, `Ownership.ingest` — as they are, except the new commands of configured
   * fiscal devices, which are read through the fiscal operation by id (`FiscalReads`); returns
   * their ids, to be read by `FiscalReads.fetchRouted`.
   */
  private takeListing(items: readonly NormalizedItem[], via: string): string[] {
    const { others, fiscalIds } = this.fiscalReads.route(items);
    this.options.sink.ingest(others, via);
    return fiscalIds;
  }

  /**
   * Ids announced by the socket. An event does not say which device a command is for, and
   * `getAllByIds` does not return fiscal commands: with fiscal devices and others configured, both
   * operations are asked at once, so a fiscal command costs one round trip before its Received,
   * not two (the price: one read of each kind per announced batch).
   */
  private async fetchAnnounced(ids: readonly string[]): Promise<void> {
    const { fiscalDeviceIds, otherDeviceIds } = this.options;
    if (fiscalDeviceIds.length === 0) {
      await this.fetchCommands(ids, 'websocket', 'discovery');
      return;
    }
    if (otherDeviceIds.length === 0) {
      await this.fiscalReads.fetchRouted([], 'websocket', ids);
      return;
    }
    const [listed, fiscal] = await Promise.allSettled([
      this.fetchCommands(ids, 'websocket', 'discovery'),
      this.fiscalReads.fetch(ids, 'websocket'),
    ]);
    if (listed.status === 'rejected') throw listed.reason;
    if (fiscal.status === 'rejected') throw fiscal.reason;
    // A Printer-typed fiscal command listed by getAllByIds was in the fiscal read already.
    this.fiscalReads.noteUnlisted(listed.value.routed, fiscal.value, 'websocket');
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
      const items = await this.requests.request(() =>
        this.options.connector.activeCommands({ priority: 'discovery', signal: this.abort.signal }),
      );
      const routed = this.takeListing(items, 'catch-up');
      this.options.sink.listedActive?.('commands', idsOf(items), since);
      await this.fiscalReads.fetchRouted(routed, 'catch-up');
      this.requests.roundDone('catch-up');
    } catch (e) {
      this.requests.failed('catch-up', e);
    }
  }

  /**
   * The deep catch-up (`deep-catch-up.ts`): at start, then every `poll.deepCatchUpHours`, so a
   * Pending fiscal command older than `fiscalLookbackHours` is never lost.
   */
  private deepLoop(): Promise<void> {
    const { clock, poll, connector, enterpriseIds, fiscalDeviceIds, sink, log } = this.options;
    return runPeriodically(
      async () => {
        const seen = await this.requests.request(() =>
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
      },
      {
        clock,
        signal: this.abort.signal,
        intervalMs: (poll.deepCatchUpHours ?? DEFAULT_DEEP_HOURS) * HOUR,
        onError: (e) => this.requests.failed('deep catch-up', e),
      },
    );
  }

  private onSocketCommand(event: { id: string; state?: string }): void {
    try {
      this.takeSocketCommand(event);
    } catch (e) {
      // Never throw into the socket's message handling (a journal failure, say).
      this.requests.failed('websocket event', e);
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
      if (!state || !ACTIVE_STATES.includes(state)) sink.platformMoved?.(event.id);
      return;
    }
    if (state === 'Processing') return;
    this.pendingIds.add(event.id);
    if (this.announcing) return;
    this.announcing = true;
    this.track(this.fetchPending());
  }

  /** Fetches the announced ids, and those announced meanwhile, until none is left. */
  private async fetchPending(): Promise<void> {
    const { sink, clock, debounceMs } = this.options;
    try {
      // The rest of the socket's messages already read (one burst) join the first fetch.
      if (debounceMs > 0) await clock.sleep(debounceMs, this.abort.signal);
      else await new Promise((resolve) => setImmediate(resolve));
      while (this.pendingIds.size > 0 && !this.abort.signal.aborted) {
        const ids = [...this.pendingIds].filter((id) => !sink.isKnown(id));
        this.pendingIds.clear();
        if (ids.length === 0) continue;
        try {
          await this.fetchAnnounced(ids);
        } catch (e) {
          this.requests.failed('websocket fetch', e);
        }
      }
    } catch {
      // Stopped during the wait.
    } finally {
      this.announcing = false;
    }
  }

  /** Keeps a background task until it settles, so `stop()` can wait for it. */
  private track(task: Promise<void>): void {
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  private every(task: () => Promise<void>): Promise<void> {
    const { clock, poll, authPauseMs } = this.options;
    return runPeriodically(task, {
      clock,
      signal: this.abort.signal,
      intervalMs: () =>
        this.requests.authRejected ? Math.max(authPauseMs, poll.intervalMs) : poll.intervalMs,
      onError: (e) => this.requests.failed('discovery', e),
    });
  }
}
