import type { Clock } from './clock.js';

/**
 * The agent's one periodic loop, for everything that runs again and again until the agent
 * stops: the discovery polls and the deep catch-up, the journal's pruning, the watchdog, the
 * drivers' status polls and the Epson daily-closure schedule. Its waits are `clock.sleep`s the
 * signal cuts short, so a stop never waits out a period and a `ManualClock` drives it in tests.
 */

export interface PeriodicOptions {
  clock: Clock;
  /** Ends the loop; a wait under way ends at once. */
  signal: AbortSignal;
  /**
   * The wait after each run, in ms: a number, or a function read before each wait (after
   * `onError`), so the wait can follow state — a lost printer polled sooner, a refused token
   * waited out longer, a deadline the run computed.
   */
  intervalMs: number | (() => number);
  /** `'now'` (the default) runs first, then waits; `'after-interval'` waits before the first run. */
  firstRun?: 'now' | 'after-interval';
  /**
   * Cuts each wait into sleeps of at most this long, ending when the clock's `now()` reaches the
   * deadline, so a wall clock set forward or back is noticed within `maxSleepMs`. Without it a
   * wait is one sleep of `intervalMs`, whatever the wall clock does meanwhile.
   */
  maxSleepMs?: number;
  /** Receives what a run threw; the loop carries on and waits as after any run. */
  onError: (error: unknown) => void;
}

/**
 * Runs `task` now (or after a first wait), then again `intervalMs` after each run settles — runs
 * never overlap — until `signal` aborts. A run is never started once the signal has aborted;
 * a run under way gets the signal and is awaited. Resolves when the loop ends; never rejects
 * unless `onError` throws.
 */
export async function runPeriodically(
  task: (signal: AbortSignal) => unknown,
  options: PeriodicOptions,
): Promise<void> {
  const { clock, signal, intervalMs, maxSleepMs, onError } = options;
  let wait = options.firstRun === 'after-interval';
  while (!signal.aborted) {
    if (wait) {
      const ms = typeof intervalMs === 'number' ? intervalMs : intervalMs();
      try {
        if (maxSleepMs === undefined) {
          await clock.sleep(ms, signal);
        } else {
          const start = clock.now();
          const wake = start + ms;
          for (let now = start; now < wake && !signal.aborted; now = clock.now()) {
            await clock.sleep(Math.min(wake - now, maxSleepMs), signal);
          }
        }
      } catch {
        return;
      }
      if (signal.aborted) return;
    }
    wait = true;
    try {
      await task(signal);
    } catch (error) {
      onError(error);
    }
  }
}
