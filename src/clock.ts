import { drainMicrotasks } from './microtasks.js';

/**
 * Time as a dependency: everything that waits, times out or stamps goes through a Clock, so tests
 * drive time by hand instead of patching globals.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds. Rejects with the signal's reason (an AbortError by default)
   * as soon as `signal` aborts; never resolves after an abort.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? Object.assign(new Error('aborted'), { name: 'AbortError' });
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal as AbortSignal));
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};

interface Sleeper {
  at: number;
  resolve: () => void;
  reject: (reason: unknown) => void;
}

/**
 * A clock that only moves when told. `advance(ms)` wakes every sleeper whose time has come, in
 * order, letting promise callbacks run between wake-ups.
 */
export class ManualClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  /** Number of pending sleeps; lets a test wait until code under test is parked. */
  get pending(): number {
    return this.sleepers.length;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(abortReason(signal as AbortSignal));
      };
      const sleeper: Sleeper = {
        at: this.current + Math.max(0, ms),
        resolve: () => {
          // A finished sleep must not leave its listener on a signal that loops reuse.
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      this.sleepers.push(sleeper);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await drainMicrotasks();
      this.sleepers.sort((a, b) => a.at - b.at);
      const next = this.sleepers[0];
      if (!next || next.at > target) break;
      this.sleepers.shift();
      this.current = Math.max(this.current, next.at);
      next.resolve();
    }
    this.current = target;
    await drainMicrotasks();
  }
}
