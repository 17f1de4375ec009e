import type { Clock } from '../../../src/clock.js';
import type { Logger } from '../../../src/log.js';
import type { Message } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { runPeriodically } from '../../../src/periodic.js';
import { latestOccurrence, nextOccurrence } from './closure-time.js';
import type { DailyClosureOptions } from './daily-closure.js';
import type { ClosureRecord, FiscalState, ScheduledClosure } from './fiscal-state.js';

const HOUR = 3_600_000;
/** The loop never sleeps longer than this, so a changed system clock is noticed within a minute. */
const MAX_SLEEP_MS = 60_000;

export interface SchedulerDeps {
  clock: Clock;
  timeZone: string;
  options: DailyClosureOptions;
  state: FiscalState;
  log: Logger;
  /** Runs one scheduled closure for `date` (under the printer's mutex); never throws. */
  close(date: string, signal: AbortSignal): Promise<ClosureRecord>;
  /** Settles a closure left in flight (under the printer's mutex); never throws. */
  settle(signal: AbortSignal): Promise<ClosureRecord | undefined>;
  /** False while the printer's address is not known yet (`url: fromPlatform` before a command). */
  ready(): boolean;
  /**
   * The family's words for a date the schedule did not try: each family keeps its catalogue
   * keys, which the journal stores (a renamed key would no longer render).
   */
  words: { agentNotRunning(): Message; notAttempted(): Message };
}

const FINAL = new Set<ScheduledClosure['status']>(['done', 'skipped', 'missed', 'not-run']);

/**
 * The daily closure on schedule, per printer: at `dailyClosure.at` local time, once per local
 * date (see closure-time.ts for the DST nights), retried every `retryMinutes` after a failure
 * for `retryForHours`, recorded in the device store (`scheduledClosure`) after every attempt, so
 * that no date is closed twice — across restarts too. A closure left in flight is settled before
 * anything else; while it cannot be settled nothing is sent. A date whose window passed while the
 * agent was running and failing is `missed` (a warning on the page); one that passed before the
 * agent started is `not-run` (the fiscal day's own warnings cover it).
 */
export class ClosureScheduler {
  private readonly startedAt: number;

  constructor(private readonly d: SchedulerDeps) {
    this.startedAt = d.clock.now();
  }

  /** Runs until `signal` aborts. */
  run(signal: AbortSignal): Promise<void> {
    const { clock, log, options } = this.d;
    let wake = clock.now();
    return runPeriodically(
      async () => {
        wake = await this.tick(signal);
      },
      {
        clock,
        signal,
        intervalMs: () => wake - clock.now(),
        maxSleepMs: MAX_SLEEP_MS,
        onError: (error) => {
          log.warn('daily closure scheduler step failed', {
            error: error instanceof Error ? error.message : String(error),
          });
          wake = clock.now() + options.retryMinutes * 60_000;
        },
      },
    );
  }

  /** One step: does what is due now and resolves to when the next step is due. */
  async tick(signal: AbortSignal): Promise<number> {
    const { clock, options, state, timeZone } = this.d;
    const retryMs = options.retryMinutes * 60_000;
    if (!this.d.ready()) return clock.now() + retryMs;
    const inFlight = state.closureInFlight();
    if (inFlight !== undefined) {
      // A closure left in flight (a lost answer, a kill) is settled before anything else.
      const settled = await this.d.settle(signal);
      const date = inFlight === 'unreadable' ? undefined : inFlight.date;
      const scheduled = state.scheduled();
      const final = scheduled?.date === date && scheduled !== undefined && FINAL.has(scheduled.status);
      if (settled && settled.status !== 'unknown' && date && !final) {
        state.setScheduled({
          date,
          status: settled.status === 'done' ? 'done' : 'failed',
          attempts: scheduled?.date === date ? scheduled.attempts : 1,
          lastAttemptAt: inFlight === 'unreadable' ? clock.now() : inFlight.startedAt,
          detail: settled.detail,
        });
      }
      if (state.closureInFlight() !== undefined) return clock.now() + retryMs;
    }
    const now = clock.now();
    const occurrence = latestOccurrence(now, options.at, timeZone);
    const next = nextOccurrence(now, options.at, timeZone).at;
    const current = state.scheduled();
    const mine = current?.date === occurrence.date ? current : undefined;
    if (mine && FINAL.has(mine.status)) return next;
    if (current && current.date > occurrence.date) return next;
    if (!current && this.startedAt > occurrence.at) {
      // A first start after the scheduled time: the schedule begins with the next closure.
      state.setScheduled({
        date: occurrence.date,
        status: 'not-run',
        attempts: 0,
        detail: this.d.words.agentNotRunning(),
      });
      return next;
    }
    const windowEnd = occurrence.at + options.retryForHours * HOUR;
    if (now >= windowEnd) {
      const ranThen = this.startedAt <= occurrence.at;
      state.setScheduled({
        date: occurrence.date,
        status: ranThen ? 'missed' : 'not-run',
        attempts: mine?.attempts ?? 0,
        detail: mine?.detail ?? (ranThen ? this.d.words.notAttempted() : this.d.words.agentNotRunning()),
        ...(mine?.lastAttemptAt !== undefined ? { lastAttemptAt: mine.lastAttemptAt } : {}),
      });
      return next;
    }
    const attempts = mine?.attempts ?? 0;
    const due = attempts === 0 ? occurrence.at : (mine?.lastAttemptAt ?? occurrence.at) + retryMs;
    if (now < due) return Math.min(due, next);
    this.d.log.info('daily closure due', { date: occurrence.date, attempt: attempts + 1 });
    const outcome = await this.d.close(occurrence.date, signal);
    const status: ScheduledClosure['status'] =
      outcome.status === 'done' || outcome.status === 'skipped' || outcome.status === 'unknown'
        ? outcome.status
        : 'failed';
    state.setScheduled({
      date: occurrence.date,
      status,
      attempts: attempts + 1,
      lastAttemptAt: clock.now(),
      detail: outcome.detail,
    });
    this.d.log.info('daily closure attempt ended', {
      date: occurrence.date,
      status,
      detail: english(outcome.detail),
    });
    return clock.now();
  }
}
