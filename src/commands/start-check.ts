import type { Clock } from '../clock.js';
import type { NormalizedItem } from '../connector/model.js';
import { AgentError, toAgentError } from '../errors.js';
import { splitDocument } from './command-data.js';
import type { CommandRecord } from './journal.js';
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

  constructor(private readonly options: StartCheckOptions) {}

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
    const { journal } = this.options.reread;
    for (const [id, sighting] of this.sightings) {
      if (present.has(id) || sighting.at >= since) continue;
      if ((journal.head(id)?.source ?? 'commands') === source) this.sightings.delete(id);
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
   * The verdict for `record` before it starts. Rejects with the connector's AgentError when the
   * platform could not be read, or with the signal's reason.
   */
  async check(record: CommandRecord, signal: AbortSignal): Promise<RereadResult> {
    const known = this.usable(record.id);
    if (known) return this.consume(record, known);
    const source = record.source ?? 'commands';
    const batch = this.inFlight.get(record.id) ?? this.join(record.id, source);
    const outcome = await abortable(batch.done, signal);
    if (outcome === 'refused') return rereadCommand(this.options.reread, record, signal);
    const sighting = this.sightings.get(record.id);
    if (!sighting) throw new AgentError('INTERNAL', `The read of ${record.id} left no answer`);
    return this.consume(record, sighting);
  }

  private consume(record: CommandRecord, sighting: Sighting): RereadResult {
    this.sightings.delete(record.id);
    return verdictOf(this.options.reread, record, sighting.item);
  }

  private usable(commandId: string): Sighting | undefined {
    const sighting = this.sightings.get(commandId);
    if (!sighting) return undefined;
    const age = this.options.clock.now() - sighting.at;
    if (age <= this.options.freshMs) return sighting;
    const open = this.socketOpenSince;
    if (sighting.item && open !== undefined && open <= sighting.at && age <= this.options.socketTrustMs)
      return sighting;
    return undefined;
  }

  private join(commandId: string, source: CommandSource): Batch {
    const open = this.collecting.get(source);
    if (open) {
      open.ids.add(commandId);
      return open;
    }
    let release: () => void = () => {};
    const collected = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batch: Batch = {
      source,
      ids: new Set([commandId]),
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
    for (const id of batch.ids) this.inFlight.set(id, batch);
    try {
      const found = await fetchCommands(
        this.options.reread,
        batch.source,
        [...batch.ids],
        this.options.signal,
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

  /** Fills the batch with waiting commands of its source that have no usable sighting. */
  private addWaiting(batch: Batch): void {
    const { journal } = this.options.reread;
    for (const id of this.options.waiting()) {
      if (batch.ids.size >= MAX_REREAD_IDS) return;
      if (batch.ids.has(id) || this.inFlight.has(id) || this.usable(id)) continue;
      const head = journal.head(id);
      if (head && (head.source ?? 'commands') === batch.source) batch.ids.add(id);
    }
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
