import type { Clock } from '../../clock.js';
import type { NormalizedItem } from '../../connector/model.js';
import { AgentError, toAgentError } from '../../errors.js';
import type { CommandRecord } from '../journal/index.js';
import { splitDocument } from '../journal/index.js';
import {
  type CommandSource,
  fetchCommands,
  MAX_REREAD_IDS,
  type RereadDeps,
  type RereadResult,
  rereadCommand,
  verdictOf,
} from './reread.js';

/**
 * The check right before a command's first side effect: is it still active on the platform?
 * Asking once per command would cost a request per command on top of its three updates, so:
 *
 * - a **sighting** (what discovery or an earlier read saw, at most `freshMs` old) answers it; a
 *   complete poll that no longer lists a command drops what was seen of it before (`absent`);
 * - while the WebSocket has stayed open since a command was last seen active (and for at most
 *   `socketTrustMs`), a cancellation would have arrived as an event and ended the command, so
 *   that sighting still answers it;
 * - otherwise one request reads this command **together with every other waiting command of the
 *   same source** that has no usable sighting (up to 1000), and the answer serves their turns too.
 *   Checks that start in the same tick share that request.
 * - **Read-ahead**, so a device's queue does not wait on the platform between two jobs: when a
 *   turn uses a sighting that is past half its freshness (and no open WebSocket vouches for it),
 *   the waiting commands of its source are read in the background, and the next turns find fresh
 *   sightings. A busy queue thus costs about one read per `freshMs / 2` of work, shared by every
 *   waiting command, and none when discovery keeps the sightings fresh.
 * - **Vouching** (fiscal commands, issue 26): where discovery can vouch for every sighting of a
 *   source with one listing of what changed (`vouchedBy`), a stale sighting waits for that
 *   listing, and the read-ahead asks for it when it is due, instead of reading every waiting
 *   command by id: a poll that runs late costs one more poll, not a re-read of the backlog.
 *
 * Reads go at the budget's `result` priority: they cost one request for up to 1000 commands and
 * unblock devices, so they do not queue behind the updates they make possible.
 *
 * A read refused with 400/403 (one id the platform will not take spoils the batch) falls back to
 * reading each waiting caller alone, where a refusal means "gone". Other failures reject, and the
 * caller retries.
 */

export interface StartCheckOptions {
  reread: RereadDeps;
  clock: Clock;
  /** A sighting younger than this answers a check. */
  freshMs: number;
  /** How long an unbroken WebSocket keeps a sighting good. */
  socketTrustMs: number;
  /** The ids waiting to start, soonest first (the device queues). */
  waiting: () => Iterable<string>;
  /** Aborts reads in flight when the engine stops. */
  signal: AbortSignal;
}

/** A listing that vouches for the sightings of a source (see `StartCheck.vouchedBy`). */
export type Voucher = (onlyIfDue: boolean) => Promise<void>;

interface Sighting {
  at: number;
  /** Undefined: a read by id did not return it. */
  item: NormalizedItem | undefined;
}

interface Batch {
  source: CommandSource;
  ids: Set<string>;
  done: Promise<'read' | 'refused'>;
}

const SWEEP_EVERY = 512;

export class StartCheck {
  private readonly sightings = new Map<string, Sighting>();
  private readonly collecting = new Map<CommandSource, Batch>();
  private readonly inFlight = new Map<string, Batch>();
  private socketOpenSince: number | undefined;
  private writes = 0;
  /** Journaled sources of commands looked up (a command's source never changes). */
  private readonly sources = new Map<string, CommandSource>();
  /** Sources whose discovery can vouch for every sighting at once (`vouchedBy`). */
  private readonly vouchers = new Map<CommandSource, Voucher>();

  constructor(private readonly options: StartCheckOptions) {}

  /**
   * Discovery of `source` can vouch for all of its sightings with one listing (the fiscal poll's
   * `UpdatedUtc` window, issue 26): a stale sighting of it is refreshed by asking `voucher` for that
   * listing instead of reading the waiting commands by id — one request that lists only what
   * changed, where a read lists every waiting command again (up to 1000 items). `voucher(false)`
   * runs a listing now (or joins the one under way); `voucher(true)` only when one is due, for the
   * read-ahead. Either resolves once the listing is over, whether or not it vouched; a sighting it
   * did not refresh is then read by id as before.
   */
  vouchedBy(source: CommandSource, voucher: Voucher): void {
    this.vouchers.set(source, voucher);
  }

  /** Discovery saw the command (active, or as `item` says). */
  saw(item: NormalizedItem): void {
    const id = item.ok ? item.command.id : item.id;
    if (id !== undefined) this.record(id, item);
  }

  /**
   * A complete listing of the active commands of `source` (taken at `since`) did not show the ids
   * outside `present`: what was seen of them before then no longer answers a check.
   */
  absent(source: CommandSource, present: ReadonlySet<string>, since: number): void {
    for (const [id, sighting] of this.sightings) {
      if (present.has(id) || sighting.at >= since) continue;
      if ((this.sourceOf(id) ?? 'commands') === source) this.sightings.delete(id);
    }
  }

  /**
   * Discovery listed these commands still active, recognised from `Id` and `State` before any
   * parsing (the fiscal poll, issue 26.2): what was seen of them still holds as of `at`.
   */
  stillActive(ids: Iterable<string>, at: number): void {
    for (const id of ids) {
      const sighting = this.sightings.get(id);
      if (sighting && sighting.at < at) sighting.at = at;
    }
  }

  /**
   * A complete poll of `source` taken at `at` listed every change of its commands since `since`
   * (the fiscal poll's `UpdatedUtc` window) and none of those outside `changed`: what was seen of
   * them since `since` still holds as of `at` (an older sighting was not vouched for by the poll
   * before, and stays as it is).
   */
  unchangedSince(source: CommandSource, since: number, at: number, changed: ReadonlySet<string>): void {
    for (const [id, sighting] of this.sightings) {
      if (sighting.at < since || sighting.at >= at || changed.has(id)) continue;
      if ((this.sourceOf(id) ?? 'commands') === source) sighting.at = at;
    }
  }

  /** Something changed on the platform that an event did not spell out: read before start. */
  forget(commandId: string): void {
    this.sightings.delete(commandId);
  }

  socketOpened(): void {
    this.socketOpenSince = this.options.clock.now();
  }

  socketClosed(): void {
    this.socketOpenSince = undefined;
  }

  /** Number of sightings held (bounded: stale ones are swept). */
  get size(): number {
    return this.sightings.size;
  }

  /**
   * The verdict for `record` right now, from what was seen of it (the sighting is used up), or
   * undefined when only a read can tell (then call `check`).
   */
  answerNow(record: CommandRecord): RereadResult | undefined {
    const known = this.usable(record.id);
    return known ? this.consume(record, known) : undefined;
  }

  /**
   * The verdict for `record` before it starts. Rejects with the connector's AgentError when the
   * platform could not be read, or with the signal's reason.
   */
  async check(record: CommandRecord, signal: AbortSignal): Promise<RereadResult> {
    const known = this.answerNow(record);
    if (known) return known;
    const source = record.source ?? 'commands';
    const voucher = this.vouchers.get(source);
    if (voucher && this.sightings.has(record.id) && !this.inFlight.has(record.id)) {
      // Seen before and gone stale: a listing that vouches for every sighting costs less than
      // reading every waiting command again.
      await abortable(voucher(false), signal);
      const vouched = this.answerNow(record);
      if (vouched) return vouched;
    }
    const batch = this.inFlight.get(record.id) ?? this.join(source, record.id);
    const outcome = await abortable(batch.done, signal);
    if (outcome === 'refused') return rereadCommand(this.options.reread, record, signal);
    const sighting = this.sightings.get(record.id);
    if (!sighting) throw new AgentError('INTERNAL', `The read of ${record.id} left no answer`);
    return this.consume(record, sighting);
  }

  private consume(record: CommandRecord, sighting: Sighting): RereadResult {
    this.sightings.delete(record.id);
    this.sources.delete(record.id);
    if (this.aging(sighting)) this.readAhead(record.source ?? 'commands');
    return verdictOf(this.options.reread, record, sighting.item);
  }

  /** Past half its freshness, and no open WebSocket vouches for it. */
  private aging(sighting: Sighting): boolean {
    const age = this.options.clock.now() - sighting.at;
    return age * 2 >= this.options.freshMs && !this.socketVouches(sighting, age);
  }

  /** Reads the waiting commands of `source` in the background, unless a read of it is under way. */
  private readAhead(source: CommandSource): void {
    const voucher = this.vouchers.get(source);
    if (voucher) {
      // The next listing refreshes the sightings; ask for it only when it is due (a late poll),
      // never read the waiting commands by id ahead of it.
      void voucher(true).catch(() => {});
      return;
    }
    if (this.collecting.has(source)) return;
    for (const batch of this.inFlight.values()) if (batch.source === source) return;
    this.join(source);
  }

  private usable(commandId: string): Sighting | undefined {
    const sighting = this.sightings.get(commandId);
    if (!sighting) return undefined;
    const age = this.options.clock.now() - sighting.at;
    if (age <= this.options.freshMs || this.socketVouches(sighting, age)) return sighting;
    return undefined;
  }

  private socketVouches(sighting: Sighting, age: number): boolean {
    const open = this.socketOpenSince;
    return (
      sighting.item !== undefined &&
      open !== undefined &&
      open <= sighting.at &&
      age <= this.options.socketTrustMs
    );
  }

  /** Whether a read should include the command: nothing usable, or it will soon be stale. */
  private wanted(commandId: string): boolean {
    const sighting = this.usable(commandId);
    return !sighting || this.aging(sighting);
  }

  /** The batch of `source` collecting this tick (a new one if none), with `commandId` in it. */
  private join(source: CommandSource, commandId?: string): Batch {
    const open = this.collecting.get(source);
    if (open) {
      if (commandId !== undefined) open.ids.add(commandId);
      return open;
    }
    let release: () => void = () => {};
    const collected = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batch: Batch = {
      source,
      ids: new Set(commandId === undefined ? [] : [commandId]),
      done: collected.then(() => this.read(batch)),
    };
    // Swallowed here; every caller awaits `done` itself.
    batch.done.catch(() => {});
    this.collecting.set(source, batch);
    setImmediate(release);
    return batch;
  }

  private async read(batch: Batch): Promise<'read' | 'refused'> {
    this.collecting.delete(batch.source);
    this.addWaiting(batch);
    if (batch.ids.size === 0) return 'read';
    for (const id of batch.ids) this.inFlight.set(id, batch);
    try {
      const found = await fetchCommands(
        this.options.reread,
        batch.source,
        [...batch.ids],
        this.options.signal,
        'result',
      );
      for (const id of batch.ids) this.record(id, found.get(id));
      return 'read';
    } catch (e) {
      const error = toAgentError(e);
      if (error.code === 'PLATFORM_REJECTED' || error.code === 'PLATFORM_FORBIDDEN') return 'refused';
      throw error;
    } finally {
      for (const id of batch.ids) if (this.inFlight.get(id) === batch) this.inFlight.delete(id);
    }
  }

  /** Fills the batch with waiting commands of its source that have no sighting fresh enough. */
  private addWaiting(batch: Batch): void {
    for (const id of this.options.waiting()) {
      if (batch.ids.size >= MAX_REREAD_IDS) return;
      if (batch.ids.has(id) || this.inFlight.has(id) || !this.wanted(id)) continue;
      if (this.sourceOf(id) === batch.source) batch.ids.add(id);
    }
  }

  /** The journaled source of a command (`commands` when it is not journaled). */
  private sourceOf(commandId: string): CommandSource | undefined {
    let source = this.sources.get(commandId);
    if (source === undefined) {
      const head = this.options.reread.journal.head(commandId);
      if (!head) return undefined;
      source = head.source ?? 'commands';
      if (this.sources.size >= 4 * SWEEP_EVERY * 8) this.sources.clear();
      this.sources.set(commandId, source);
    }
    return source;
  }

  private record(commandId: string, item: NormalizedItem | undefined): void {
    const now = this.options.clock.now();
    this.sightings.set(commandId, { at: now, item: withoutDocument(item) });
    if (++this.writes % SWEEP_EVERY !== 0) return;
    const oldest = now - Math.max(this.options.freshMs, this.options.socketTrustMs);
    for (const [id, s] of this.sightings) if (s.at < oldest) this.sightings.delete(id);
  }
}

/**
 * What a sighting keeps: the item without its document (a print job's file can be tens of MB, and
 * a command may wait long for its turn). The journal has the document; a fresh copy of the command
 * only refreshes the rest.
 */
function withoutDocument(item: NormalizedItem | undefined): NormalizedItem | undefined {
  return item?.ok ? { ok: true, command: splitDocument(item.command).stored } : item;
}

/** `promise`, or a rejection with the signal's reason when it fires first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
