import { Backoff } from '../../backoff.js';
import type { Clock } from '../../clock.js';
import type { ConnectorApi } from '../../connector/api.js';
import { progressToWire } from '../../connector/api.js';
import { type CommandUpdateRequest, TERMINAL_STATES } from '../../connector/wire.js';
import { type AgentError, toAgentError } from '../../errors.js';
import { errorFields, type Logger } from '../../log.js';
import type { PlatformObserver } from '../intake/index.js';
import type { Journal, OutboxItem } from '../journal/index.js';
import type { OutboxDeliveryEvents, RefusedUpdateJudge, RestoreConfirmer, TakenUpdate } from './ports.js';
import type { OutboxQueue } from './queue.js';

/**
 * Delivers the journal's outbox to the platform (`commands/update`): at least once, in order per
 * command, across restarts and outages. It waits on the outbox queue's doorbell (`OutboxQueue`).
 * Updates of different commands are in flight at once, up to `concurrency`: whenever one comes
 * back, the next waiting update (results first, priority `result`) goes, so Received, Processing
 * and results of many commands flow side by side while each command's own updates keep their
 * order (its next update goes only once the previous one is taken and recorded). What the
 * platform took is recorded in groups: the answers that came back in the same turn of the event
 * loop are written in one journal transaction. A crash (or a power cut before the next journal
 * flush) before that write only means those updates are sent once more, each the last one sent of
 * its command. Before an update goes, the journal is flushed (`Journal.flush`, shared by every
 * update leaving at that moment): the platform never hears of a state a power cut could take back.
 * An outage pauses the whole outbox with the exponential backoff of `src/backoff.ts` (one probe
 * per pause, not one per command); when discovery saw the outage too and then gets an answer,
 * delivery resumes at once (`platformAnswered`). PLATFORM_AUTH pauses it for minutes. Nothing is
 * ever dropped for being old.
 *
 * Delivered means understood: only a 2xx whose body is what `commands/update` returns (a JSON
 * object) removes a row; any other answer (an HTML page of a captive portal, a JSON array) keeps
 * it, with backoff, like an outage.
 *
 * A refusal (400/403) means "no longer mine": the `judge` re-reads the command. `gone` (terminal or
 * vanished on the platform; the caller has dropped its updates) ends it; `ours` means only this
 * update cannot be delivered, so it is removed and logged. A 409 is re-read, then retried.
 */

export interface OutboxTuning {
  /** Updates of different commands in flight at once. */
  concurrency: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Pause after PLATFORM_AUTH / PLATFORM_NOT_FOUND (tokens or address refused). */
  authPauseMs: number;
}

export const DEFAULT_OUTBOX_TUNING: OutboxTuning = {
  concurrency: 8,
  backoffBaseMs: 1000,
  backoffMaxMs: 60_000,
  authPauseMs: 5 * 60_000,
};

export interface OutboxDeliveryOptions {
  journal: Journal;
  queue: OutboxQueue;
  connector: ConnectorApi;
  clock: Clock;
  log: Logger;
  tuning?: Partial<OutboxTuning>;
  /** Told what the platform took, in groups (`DeliveredUpdates`: step 6 and step 12). */
  events: OutboxDeliveryEvents;
  /** Asked before a restore of the platform's end goes (`RestoreConfirmation`); without it, it goes. */
  restores?: RestoreConfirmer;
  /** Asked what a refused update means (`RefusedUpdates`). */
  judge: RefusedUpdateJudge;
}

/** Why the outbox waits: see `OutboxDelivery.trouble`. */
export interface OutboxTrouble {
  /** Epoch ms of the first failed delivery since the platform last took one. */
  since: number;
  /** The last failure's error code (`PLATFORM_UNREACHABLE`, `PLATFORM_AUTH` …). */
  code: string;
  /** `refused`: the platform refuses the agent's tokens or address; `outage` otherwise. */
  reason: 'outage' | 'refused';
  /** Epoch ms of the next try, while delivery is paused. */
  until?: number;
}

export class OutboxDelivery implements PlatformObserver {
  private readonly busyCommands = new Set<string>();
  /** Deliveries in flight (their requests, and the handling of a failure). */
  private readonly inFlight = new Set<Promise<void>>();
  /** Updates the platform took whose rows are not yet removed (the next group commit's). */
  private taken: TakenUpdate[] = [];
  private recordScheduled = false;
  private readonly tuning: OutboxTuning;
  private readonly backoff: Backoff;
  private readonly abort = new AbortController();
  private stopped = false;
  private pausedUntil = 0;
  private pauseReason: 'outage' | 'refused' | undefined;
  private pauseTimer: AbortController | undefined;
  /** Failures of other platform requests: all of them, and as of the last success or lift. */
  private otherFailures = 0;
  private otherFailuresSeen = 0;
  private idleWaiters: Array<() => void> = [];
  private loopDone: Promise<void> | undefined;
  private lastErrorValue: { code: string; message: string; at: number } | undefined;
  private lastSuccessValue: number | undefined;
  /** Epoch ms of the first failed delivery since the last one the platform took. */
  private troubleSince: number | undefined;

  constructor(private readonly options: OutboxDeliveryOptions) {
    this.tuning = { ...DEFAULT_OUTBOX_TUNING, ...options.tuning };
    this.backoff = new Backoff({ minMs: this.tuning.backoffBaseMs, maxMs: this.tuning.backoffMaxMs });
  }

  /** Starts delivering. Idempotent. */
  start(): void {
    this.loopDone ??= this.loop();
  }

  /** Epoch ms until which delivery is paused after a failure, if it is. */
  get pausedUntilMs(): number | undefined {
    return this.pausedUntil > this.options.clock.now() ? this.pausedUntil : undefined;
  }

  get lastError(): { code: string; message: string; at: number } | undefined {
    return this.lastErrorValue;
  }

  /**
   * Why delivery waits, for the page and `doctor`: every delivery has failed since `since` (the
   * last error's code), and the next try is at `until` (absent while one is on its way).
   * Undefined while updates are taken.
   */
  get trouble(): OutboxTrouble | undefined {
    if (this.troubleSince === undefined || !this.lastErrorValue) return undefined;
    const trouble: OutboxTrouble = {
      since: this.troubleSince,
      code: this.lastErrorValue.code,
      reason: this.pauseReason ?? 'outage',
    };
    const until = this.pausedUntilMs;
    if (until !== undefined) trouble.until = until;
    return trouble;
  }

  /**
   * Staff asked to try delivery now: a pause after failures (an outage's backoff, the long pause
   * after a refused token) ends at once and the waiting updates go. The rate budget still
   * decides when each request leaves: a running `Retry-After` is never cut short. The backoff
   * keeps its level, so another failure pauses as long as the last one did. Resolves to whether
   * a pause was lifted.
   */
  deliverNow(): boolean {
    if (this.stopped) return false;
    const lifted = this.pausedUntil > this.options.clock.now();
    this.pausedUntil = 0;
    this.pauseTimer?.abort();
    this.options.queue.wake();
    return lifted;
  }

  /** Epoch ms of the last update the platform took. */
  get lastSuccessAt(): number | undefined {
    return this.lastSuccessValue;
  }

  /**
   * Resolves when the outbox has nothing it can deliver right now: empty, or paused after a
   * failure. Used by shutdown to flush what it can.
   */
  settled(): Promise<void> {
    if (!this.loopDone || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.options.queue.wake();
    });
  }

  /** Stops delivering, aborting requests in flight (their rows stay). Idempotent. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.options.queue.wake();
    this.releaseIdle();
    await this.loopDone;
  }

  private releaseIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async loop(): Promise<void> {
    const { clock, journal, log, queue } = this.options;
    while (!this.stopped) {
      const wait = this.pausedUntil - clock.now();
      if (wait > 0) {
        this.releaseIdle();
        const pause = new AbortController();
        this.pauseTimer = pause;
        const onStop = () => pause.abort();
        this.abort.signal.addEventListener('abort', onStop, { once: true });
        try {
          await clock.sleep(wait, pause.signal);
        } catch {
          // Stopped, or the pause was lifted early (see `platformAnswered`).
        } finally {
          this.abort.signal.removeEventListener('abort', onStop);
          this.pauseTimer = undefined;
        }
        continue;
      }
      queue.listen();
      const room = this.tuning.concurrency - this.inFlight.size;
      let items: OutboxItem[] = [];
      if (room > 0) {
        try {
          items = journal.closed ? [] : journal.outbox.heads(room, this.busyCommands);
        } catch (e) {
          log.repeated('outbox cannot read the journal', 'journal', errorFields(e));
        }
      }
      for (const item of items) this.track(this.deliver(item));
      if (items.length === 0 && this.inFlight.size === 0 && this.taken.length === 0) this.releaseIdle();
      // A delivery that ends, a group commit and every new row ring the doorbell.
      await queue.rung();
    }
    await Promise.allSettled([...this.inFlight]);
    this.record();
    this.releaseIdle();
  }

  private track(delivery: Promise<boolean>): void {
    const done = delivery.then(
      (taken) => {
        this.inFlight.delete(done);
        // A taken update rings once it is recorded (`record`); anything else frees a slot now.
        if (!taken) this.options.queue.wake();
      },
      () => {
        this.inFlight.delete(done);
        this.options.queue.wake();
      },
    );
    this.inFlight.add(done);
  }

  /** Sends one update; resolves true when the platform took it (its record is pending). */
  private async deliver(item: OutboxItem): Promise<boolean> {
    const { connector, queue } = this.options;
    const result = TERMINAL_STATES.includes(item.state);
    queue.sending.add(item.seq);
    this.busyCommands.add(item.commandId);
    const request: CommandUpdateRequest = { CommandId: item.commandId, State: item.state };
    if (item.state === 'Processing' && item.progress !== undefined)
      request.Progress = progressToWire(item.progress);
    if (item.notes !== undefined && result) request.Notes = item.notes;
    let taken = false;
    try {
      if (item.state === 'Cancelled' && (await this.restoreSettled(item))) return false;
      // The platform never hears of a state a power cut could take back (one sync serves all;
      // grouped: no device waits on a report, so a checkpoint's sync is never held up by it).
      await this.options.journal.flush({ grouped: true });
      queue.sent(item);
      let overtaken = false;
      try {
        await connector.updateCommand(request, {
          priority: result ? 'result' : 'normal',
          signal: this.abort.signal,
        });
      } finally {
        overtaken = queue.settled(item.commandId);
      }
      this.backoff.reset();
      this.pauseReason = undefined;
      this.troubleSince = undefined;
      this.otherFailuresSeen = this.otherFailures;
      this.lastSuccessValue = this.options.clock.now();
      taken = true;
      this.taken.push({ ...item, overtaken });
      this.scheduleRecord();
    } catch (e) {
      if (!this.stopped) await this.failed(item, toAgentError(e));
    } finally {
      if (!taken) this.release(item);
    }
    return taken;
  }

  /**
   * A restore of the platform's end is sent only while the platform may show our state: when the
   * read finds the end there, the row is removed unsent. True when it was.
   */
  private async restoreSettled(item: OutboxItem): Promise<boolean> {
    const { restores } = this.options;
    if (!restores || (await restores.confirm(item, this.abort.signal)) === 'send') return false;
    this.options.journal.outbox.remove(item.seq);
    this.options.log.info('the platform shows its own end again; nothing to restore', {
      commandId: item.commandId,
    });
    return true;
  }

  /** The command may send its next update (its last one is done with). */
  private release(item: OutboxItem): void {
    this.options.queue.sending.delete(item.seq);
    this.busyCommands.delete(item.commandId);
  }

  /** The answers that come back in this turn of the event loop are recorded together, right after it. */
  private scheduleRecord(): void {
    if (this.recordScheduled) return;
    this.recordScheduled = true;
    setImmediate(() => {
      this.recordScheduled = false;
      this.record();
      this.options.queue.wake();
    });
  }

  /**
   * The group commit: removes the rows of every update taken since the last one and applies what
   * their delivery means, in one transaction (`events.delivered`: `DeliveredUpdates.delivered`).
   */
  private record(): void {
    const items = this.taken;
    if (items.length === 0) return;
    this.taken = [];
    const { journal, log } = this.options;
    try {
      this.options.events.delivered(items, (item) => journal.outbox.remove(item.seq));
      for (const item of items) {
        log.debug('update delivered', {
          commandId: item.commandId,
          state: item.state,
          progress: item.progress,
        });
      }
    } catch (e) {
      // The journal closed under a shutdown: the rows stay and are delivered again next start.
      log.warn('delivered updates could not be recorded', { updates: items.length, ...errorFields(e) });
    } finally {
      for (const item of items) this.release(item);
    }
  }

  private async failed(item: OutboxItem, error: AgentError): Promise<void> {
    try {
      await this.handleFailure(item, error);
    } catch (e) {
      this.options.log.error('outbox failure handling failed', {
        commandId: item.commandId,
        ...errorFields(e),
      });
      this.pause(this.backoff.next());
    }
  }

  private async handleFailure(item: OutboxItem, error: AgentError): Promise<void> {
    const { journal, log, clock } = this.options;
    this.lastErrorValue = { code: error.code, message: error.message, at: clock.now() };
    this.troubleSince ??= this.lastErrorValue.at;
    const fields = { commandId: item.commandId, state: item.state, ...errorFields(error) };
    switch (error.code) {
      case 'PLATFORM_REJECTED':
      case 'PLATFORM_FORBIDDEN':
      case 'PLATFORM_CONFLICT': {
        let verdict: 'gone' | 'ours';
        try {
          verdict = await this.options.judge.judge(item, error, this.abort.signal);
        } catch (e) {
          const reread = errorFields(e);
          log.warn('update refused and the re-read failed; retrying later', { ...fields, reread });
          this.pause(this.backoff.next());
          return;
        }
        if (verdict === 'gone') {
          log.warn('update refused: the platform no longer has the command active; dropped', fields);
        } else if (error.code === 'PLATFORM_CONFLICT') {
          this.pause(this.tuning.backoffBaseMs);
        } else {
          log.error('update refused although the command is still ours; this update is dropped', fields);
          journal.outbox.remove(item.seq);
        }
        return;
      }
      case 'REQUEST_INVALID':
        log.error('update can never be sent (outside the documented limits); dropped', fields);
        journal.outbox.remove(item.seq);
        return;
      case 'RESPONSE_INVALID':
        // A 2xx that is not what `commands/update` returns (a JSON object): a captive portal's or
        // a proxy's page, not the platform's answer. Not delivered.
        log.warn('update answered with something not understood; kept, retrying later', fields);
        journal.outbox.markAttempt(item.seq);
        this.pause(this.backoff.next());
        return;
      case 'PLATFORM_AUTH':
      case 'PLATFORM_NOT_FOUND':
        log.error('platform refuses the agent; outbox paused, nothing is lost', fields);
        journal.outbox.markAttempt(item.seq);
        this.pause(this.tuning.authPauseMs, 'refused');
        return;
      default:
        log.warn('update not delivered; retrying later', fields);
        journal.outbox.markAttempt(item.seq);
        this.pause(this.backoff.next());
    }
  }

  private pause(ms: number, reason: 'outage' | 'refused' = 'outage'): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.options.clock.now() + ms);
    if (reason === 'refused' || this.pauseReason !== 'refused') this.pauseReason = reason;
  }

  /** Another request to the platform failed as in an outage (unreachable, 5xx, timeout). */
  platformFailed(): void {
    this.otherFailures++;
  }

  /**
   * Another request to the platform just succeeded. If those requests had failed too since the
   * outbox's last success, the whole platform was away and is back: an outage pause ends now
   * instead of at the end of its backoff. An outage of updates alone keeps its backoff, and a
   * pause after PLATFORM_AUTH / NOT_FOUND stays.
   */
  platformAnswered(): void {
    if (this.pauseReason !== 'outage' || this.pausedUntil <= this.options.clock.now()) return;
    if (this.otherFailures <= this.otherFailuresSeen) return;
    this.otherFailuresSeen = this.otherFailures;
    this.pausedUntil = 0;
    this.backoff.reset();
    this.pauseTimer?.abort();
  }
}
