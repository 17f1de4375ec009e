import type { NormalizedItem } from '../../connector/model.js';
import { ACTIVE_STATES } from '../../connector/wire.js';
import { Coalesced } from './coalesced.js';
import { MAX_WINDOW_MS } from './deep-catch-up.js';
import {
  chunks,
  type DiscoveryRequests,
  enterpriseFilter,
  type IntakeOptions,
} from './discovery-requests.js';

/**
 * The fiscal poll: `fiscalMachineCommands/getAll` by DeviceIds (groups of ≤100), every page — at
 * start, after every (re)connect, every `intervalMs` while the socket is down or absent and every
 * `safetyNetMs` while it is up, unless such a slow poll finds a fiscal command that was created
 * while the socket was open and never announced: then the socket does not cover fiscal commands
 * here, and they are polled every `intervalMs` from then on (logged once).
 *
 * **A backlog is read once** (issue 26.2). Every poll used to list every Pending and Received
 * command of the lookback, so a backlog of 300 receipts was read, bounds-checked and normalised
 * about nine times while it drained. Now a poll asks only for what it does not know:
 *
 * - **The full poll** (the first of a process, then every `FULL_POLL_EVERY_MS`): States Pending
 *   and Received, `UpdatedUtc` over the whole lookback (`fiscalLookbackHours`, up to the window
 *   the platform allows). It finds what an earlier process left (Received by us, journal or not)
 *   and is a complete listing of the active commands (`listedActive`).
 * - **The window poll** (every other one): `UpdatedUtc` from the start of the last complete poll
 *   to now + 1 min; States Pending and Cancelled. `UpdatedUtc` moves with every state change
 *   (platform-interfaces.md, Part B › fiscalMachineCommands/getAll parameter sets: a filter on the
 *   command's update time), so a command created or cancelled since the last complete poll is in
 *   the window; a Received command is ours in the journal already (we reported Received after
 *   journaling it) and is not asked for again; our own updates (Received, Processing, Processed,
 *   Error) are not asked for either. A complete window poll that does not list a known command
 *   vouches that nobody changed it since the window began: what the start check saw of it still
 *   holds (`unchangedSince`).
 * - **The settling window** (a second listing with a window poll, once `WINDOW_OVERLAP_MS` of
 *   time has gathered behind it): from where the last one reached to `WINDOW_OVERLAP_MS` ago. The
 *   platform stamps `UpdatedUtc` with its clock and the window is computed with ours; a change
 *   stamped a little before a poll's start may also become visible only after that poll's
 *   answer. The settling windows list every stretch of time once, more than `WINDOW_OVERLAP_MS`
 *   after it: a clock ahead of the platform's by up to that much, or a late commit, delays a
 *   command by up to twice that; a clock further ahead delays it to the next full poll, never
 *   loses it (`doctor` fails a skew over 30 s). A burst still Pending (its Received on its way) is
 *   thus listed once more at most, and only when it waits longer than the overlap: with the
 *   overlap on every window, every poll listed it again (5.74 items per command in the
 *   300-receipt bench; 1.85 with a 1 s overlap). The settling window vouches for nothing.
 * - **Trade-off: what the window does not ask for.** A change by someone else to Processing,
 *   Processed or Error (not Cancelled) of a command waiting in our queue is not in the window
 *   poll's States, so the window vouches for it as unchanged. The contract does not say who may
 *   move a command (Part A › States and transitions: permitted moves not shown); the move by
 *   someone else the agent expects is staff cancelling, which the window asks for. Any other is
 *   seen by the WebSocket's event when it is on (`platformSays`, `platformMoved`), by the next full
 *   poll (its listing drops the sighting: `listedActive`, so the start reads the command first),
 *   and by the platform refusing our update; until then such a command may run.
 * - **The deep catch-up** (`deep-catch-up.ts`) for Pending commands older than the lookback.
 *
 * Commands already known at an active state (`Id` and `State`, looked up before any parsing:
 * `FiscalPagedOptions.known`) are not normalised again; paging still follows the cursor to its
 * end (the platform may cap a page).
 */

export type FiscalPollOptions = Pick<
  IntakeOptions,
  'connector' | 'socket' | 'clock' | 'log' | 'poll' | 'enterpriseIds' | 'fiscalDeviceIds' | 'sink'
> & { requests: DiscoveryRequests; signal: AbortSignal };

const HOUR = 3_600_000;
/** How far the settling window reaches before the start of the last settling poll, and how often it runs (see above). */
export const WINDOW_OVERLAP_MS = 5_000;
/** A full poll (Pending and Received over the whole lookback) at least this often. */
export const FULL_POLL_EVERY_MS = 10 * 60_000;
/** What the window poll asks for: new commands, and cancellations of ours. */
const WINDOW_STATES = ['Pending', 'Cancelled'] as const;
/**
 * A fiscal command found by a slow poll counts as missed by the socket only when it was created
 * this long after the socket opened and this long before the poll (platform and local clocks may
 * differ a little; a wrong "missed" only makes the agent poll as often as without a socket).
 */
const MISSED_GRACE_MS = 10_000;

export class FiscalPoll {
  private readonly passes = new Coalesced(
    () => this.poll(),
    () => this.options.signal.aborted,
  );
  private lastPollAt = Number.NEGATIVE_INFINITY;
  /** When the last poll ended (answered or failed): the interval loop sleeps `intervalMs` from there. */
  private lastEndAt = Number.NEGATIVE_INFINITY;
  /** The next poll was asked for by the start check (`vouch`): it goes at the `result` priority. */
  private urgent = false;
  /** Start of the last poll that read every page of every group: the next window begins there. */
  private lastCompleteAt: number | undefined;
  /** Start of the last complete full poll. */
  private lastFullAt = Number.NEGATIVE_INFINITY;
  /** Where the last settling window (or full poll, less the overlap) reached: the next one begins there. */
  private settledTo = Number.NEGATIVE_INFINITY;
  /** Wall time of the current connection's open; undefined while the socket is not open. */
  private socketOpenedAt: number | undefined;
  /** Whether the socket is believed to announce fiscal commands (until a slow poll disproves it). */
  private fiscalOnSocket = true;

  constructor(private readonly options: FiscalPollOptions) {}

  /** The pass in progress, if any (for shutdown to wait on). */
  get current(): Promise<void> | undefined {
    return this.passes.current;
  }

  socketOpened(): void {
    this.socketOpenedAt = this.options.clock.now();
  }

  socketClosed(): void {
    this.socketOpenedAt = undefined;
  }

  /** Whether the interval loop should poll now (every interval, or the safety net when slow). */
  due(): boolean {
    return !this.slow() || this.options.clock.now() - this.lastPollAt >= this.options.poll.safetyNetMs;
  }

  /** A poll, coalesced: a request during a running one runs once more after it. */
  pass(): Promise<void> {
    if (this.options.fiscalDeviceIds.length === 0) return Promise.resolve();
    return this.passes.run();
  }

  /**
   * A poll for the start check (`StartCheck.vouchedBy`): its listing vouches for every sighting of
   * a fiscal command at once. With `onlyIfDue` (the read-ahead), only when the interval loop's
   * poll is late: none is under way and `intervalMs` has passed since the last one ended;
   * otherwise the loop's next poll does it. Without, now, or the one under way. It goes at the
   * budget's `result` priority, as the read by id it replaces would: a device waits on it.
   */
  vouch(onlyIfDue: boolean): Promise<void> {
    if (this.options.fiscalDeviceIds.length === 0) return Promise.resolve();
    const running = this.passes.current;
    if (running) return running;
    if (onlyIfDue && this.options.clock.now() - this.lastEndAt < this.options.poll.intervalMs)
      return Promise.resolve();
    this.urgent = true;
    return this.passes.run();
  }

  /** One poll over every fiscal device: a full one or a window one (see above). */
  async poll(): Promise<void> {
    try {
      await this.pollOnce();
    } finally {
      this.lastEndAt = this.options.clock.now();
    }
  }

  private async pollOnce(): Promise<void> {
    const { clock, poll, enterpriseIds, fiscalDeviceIds, connector, sink, requests, signal } = this.options;
    const priority = this.urgent ? 'result' : 'discovery';
    this.urgent = false;
    const pollAt = clock.now();
    const slow = this.slow();
    this.lastPollAt = pollAt;
    const end = pollAt + 60_000;
    const lookbackStart = end - Math.min(poll.fiscalLookbackHours * HOUR + 60_000, MAX_WINDOW_MS);
    const full = this.lastCompleteAt === undefined || pollAt - this.lastFullAt >= FULL_POLL_EVERY_MS;
    // The window: from the last complete poll's start (or the whole lookback, for a full poll).
    const start = full ? lookbackStart : Math.max(lookbackStart, this.lastCompleteAt as number);
    const windows: Array<{ StartUtc: string; EndUtc: string }> = [];
    // The settling window: what was stamped since the last one reached, up to WINDOW_OVERLAP_MS
    // ago (and not into the window), once that much has gathered.
    const settleTo = Math.min(start, pollAt - WINDOW_OVERLAP_MS);
    const settleFrom = Math.max(lookbackStart, this.settledTo);
    const settling = !full && settleTo - settleFrom >= WINDOW_OVERLAP_MS;
    if (settling) windows.push(interval(settleFrom, settleTo));
    windows.push(interval(start, end));
    const States = full ? [...ACTIVE_STATES] : [...WINDOW_STATES];
    const enterprise = enterpriseFilter(enterpriseIds);
    /** Every id listed in an active state (the full poll's complete listing). */
    const present = new Set<string>();
    /** Ids listed in another state (cancelled): not vouched for as unchanged. */
    const changed = new Set<string>();
    let stillActive: string[] = [];
    const known = (id: string, state: string): boolean => {
      if (!isActive(state) || !sink.isKnown(id)) return false;
      present.add(id);
      stillActive.push(id);
      return true;
    };
    let complete = true;
    for (const [group, window] of chunks(fiscalDeviceIds, 100).flatMap((g) =>
      windows.map((w) => [g, w] as const),
    )) {
      try {
        await requests.request(async () => {
          const pages = connector.fiscalCommands(
            { DeviceIds: group, States, UpdatedUtc: window, ...enterprise },
            { priority, signal, known },
          );
          for await (const page of pages) {
            // As of this page's answer, as a parsed item's sighting is (`StartCheck.saw`).
            if (stillActive.length > 0) {
              sink.stillActive?.(stillActive, clock.now());
              stillActive = [];
            }
            const accepted = sink.ingest(oldestFirst(page), 'fiscal-poll');
            for (const item of page) {
              const id = item.ok ? item.command.id : item.id;
              if (id === undefined) continue;
              if (isActive(item.ok ? item.command.state : item.state)) present.add(id);
              else changed.add(id);
            }
            if (slow) this.noticeMissed(page, accepted, pollAt);
          }
        });
      } catch (e) {
        complete = false;
        requests.failed('fiscal poll', e);
      }
    }
    if (!complete) return;
    try {
      if (full) sink.listedActive?.('fiscalMachineCommands', present, pollAt);
      // As of the last page's answer, as a parsed item's sighting is; the next window still
      // begins before this poll's start.
      else sink.unchangedSince?.('fiscalMachineCommands', start, clock.now(), changed);
      this.lastCompleteAt = pollAt;
      if (full) this.lastFullAt = pollAt;
      if (full) this.settledTo = pollAt - WINDOW_OVERLAP_MS;
      else if (settling) this.settledTo = settleTo;
      requests.roundDone('fiscal poll');
    } catch (e) {
      requests.failed('fiscal poll', e);
    }
  }

  /** True while fiscal devices may be polled at the safety-net period. */
  private slow(): boolean {
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
}

/**
 * A page of the poll by `CreatedUtc`, oldest first: the operation lists the latest commands
 * first, and the device queues keep the order they are taken in, so a burst of receipts would
 * print the last one asked for first. Equal or unreadable dates keep the listing's order (a
 * stable sort); malformed items go first, to be ended at once.
 */
export function oldestFirst(items: readonly NormalizedItem[]): NormalizedItem[] {
  const created = (item: NormalizedItem) => {
    const at = item.ok ? Date.parse(item.command.createdUtc) : Number.NaN;
    return Number.isFinite(at) ? at : Number.NEGATIVE_INFINITY;
  };
  return [...items].sort((a, b) => {
    const x = created(a);
    const y = created(b);
    return x === y ? 0 : x < y ? -1 : 1;
  });
}

const interval = (from: number, to: number) => ({
  StartUtc: new Date(from).toISOString(),
  EndUtc: new Date(to).toISOString(),
});

const isActive = (state: string | undefined): boolean =>
  state !== undefined && (ACTIVE_STATES as readonly string[]).includes(state);
