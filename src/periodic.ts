import type { Clock } from './clock.js';

/**
 * The agent's one periodic loop, for everything that runs again and again until the agent
 * stops: the discovery polls and the deep catch-up, the journal's pruning and heartbeat, the
 * watchdog, the WebSocket's reconnects, the drivers' status polls, the status page's refresh and
 * the Epson daily-closure schedule; and, as `pollUntil`, for every loop that waits for an answer
 * (a job's end, a device back, a read after an outage). Its waits are `clock.sleep`s the signal
 * cuts short, so a stop never waits out a period and a `ManualClock` drives it in tests.
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

/**
 * `runPeriodically` for a loop that ends with an answer: runs `step` now (or after a first
 * wait), then `intervalMs` after each run settles, until a run returns something other than
 * `undefined` — the promise's value — or throws — its rejection. The waits are the loop's, cut
 * short by `signal`: when it aborts first, the promise rejects with its reason, and no run starts
 * after it. A poll for a job's end, a wait for a device to come back, a read retried after an
 * outage: each is one step and an interval.
 */
export async function pollUntil<T>(
  step: (signal: AbortSignal) => T | undefined | Promise<T | undefined>,
  options: Omit<PeriodicOptions, 'onError'>,
): Promise<T> {
  const done = new AbortController();
  const stop = () => done.abort();
  options.signal.addEventListener('abort', stop, { once: true });
  if (options.signal.aborted) stop();
  let outcome: { value: T } | { error: unknown } | undefined;
  try {
    await runPeriodically(
      async (signal) => {
        const value = await step(signal);
        if (value === undefined) return;
        outcome = { value };
        done.abort();
      },
      {
        ...options,
        signal: done.signal,
        onError: (error) => {
          outcome = { error };
          done.abort();
        },
      },
    );
  } finally {
    options.signal.removeEventListener('abort', stop);
  }
  if (outcome === undefined) throw options.signal.reason;
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}
