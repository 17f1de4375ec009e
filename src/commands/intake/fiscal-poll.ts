import type { NormalizedItem } from '../../connector/model.js';
import { ACTIVE_STATES } from '../../connector/wire.js';
import { Coalesced } from './coalesced.js';
import { MAX_WINDOW_MS } from './deep-catch-up.js';
import {
  chunks,
  type DiscoveryRequests,
  enterpriseFilter,
  type IntakeOptions,
  idsOf,
} from './discovery-requests.js';

/**
 * The fiscal poll: `fiscalMachineCommands/getAll` by DeviceIds (groups of ≤100), States Pending and
 * Received, UpdatedUtc from `fiscalLookbackHours` ago to now + 1 min, every page — at start, after
 * every (re)connect, every `intervalMs` while the socket is down or absent and every `safetyNetMs`
 * while it is up, unless such a slow poll finds a fiscal command that was created while the socket
 * was open and never announced: then the socket does not cover fiscal commands here, and they are
 * polled every `intervalMs` from then on (logged once).
 */

export type FiscalPollOptions = Pick<
  IntakeOptions,
  'connector' | 'socket' | 'clock' | 'log' | 'poll' | 'enterpriseIds' | 'fiscalDeviceIds' | 'sink'
> & { requests: DiscoveryRequests; signal: AbortSignal };

const HOUR = 3_600_000;
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

  /** One poll over every fiscal device. */
  async poll(): Promise<void> {
    const { clock, poll, enterpriseIds, fiscalDeviceIds, connector, sink, requests, signal } = this.options;
    const pollAt = clock.now();
    const slow = this.slow();
    this.lastPollAt = pollAt;
    const end = clock.now() + 60_000;
    const start = end - Math.min(poll.fiscalLookbackHours * HOUR + 60_000, MAX_WINDOW_MS);
    const window = { StartUtc: new Date(start).toISOString(), EndUtc: new Date(end).toISOString() };
    const enterprise = enterpriseFilter(enterpriseIds);
    const present = new Set<string>();
    let complete = true;
    for (const group of chunks(fiscalDeviceIds, 100)) {
      try {
        await requests.request(async () => {
          const pages = connector.fiscalCommands(
            { DeviceIds: group, States: [...ACTIVE_STATES], UpdatedUtc: window, ...enterprise },
            { priority: 'discovery', signal },
          );
          for await (const page of pages) {
            const accepted = sink.ingest(oldestFirst(page), 'fiscal-poll');
            for (const id of idsOf(page)) present.add(id);
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
      sink.listedActive?.('fiscalMachineCommands', present, pollAt);
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
