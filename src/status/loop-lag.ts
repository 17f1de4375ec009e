/**
 * The agent's one event-loop lag probe, shared by the status page and health (`currentMs`), the
 * systemd watchdog and the metrics (each with a `reader` of its own). One timer per process, due
 * every `LAG_RESOLUTION_MS`: lag is how much later than due it (or a reading) runs. The timer is
 * unref'd, so it never keeps the process alive; it starts with the first use.
 *
 * Not `perf_hooks.monitorEventLoopDelay`: its `reset()` also forgets the previous timestamp, so a
 * block right after a reading went all but unseen (bench/RESULTS.md, CPU).
 */

/** Reports the worst event-loop delay seen since the previous sample. */
export interface LagProbe {
  /** Milliseconds; starts a new window. */
  sampleMs(): number;
  /** Stops this reader (the shared timer keeps serving the others). */
  stop(): void;
}

export interface LoopLag {
  /** The lag right now: the larger of the last measured delay and how overdue the timer is. */
  currentMs(): number;
  /** A reader with its own window, for a consumer that samples (the watchdog, metrics). */
  reader(): LagProbe;
}

/** A tenth of the smallest lag anything acts on: fine enough, and cheap while idle. */
export const LAG_RESOLUTION_MS = 100;

interface Window {
  worst: number;
  /** `performance.now()` of the window's start: lag before it was reported already. */
  since: number;
}

let shared: LoopLag | undefined;

/** The process's probe. */
export function loopLag(): LoopLag {
  shared ??= createLoopLag(LAG_RESOLUTION_MS);
  return shared;
}

/** A reader of the process's probe (what the watchdog uses unless it is given one). */
export function eventLoopLagProbe(): LagProbe {
  return loopLag().reader();
}

/** What the probe runs on: a monotonic time and a repeating, unref'd timer (tests pass fakes). */
export interface LagTimer {
  now(): number;
  every(ms: number, tick: () => void): void;
}

const realTimer: LagTimer = {
  now: () => performance.now(),
  every(ms, tick) {
    setInterval(tick, ms).unref();
  },
};

/** A probe of its own; the agent uses the process's one (`loopLag()`). */
export function createLoopLag(resolutionMs: number, timer: LagTimer = realTimer): LoopLag {
  const windows = new Set<Window>();
  let last = timer.now();
  let lastDelay = 0;
  const overdue = (now: number, from: number) => now - from - resolutionMs;
  timer.every(resolutionMs, () => {
    const now = timer.now();
    lastDelay = Math.max(0, overdue(now, last));
    for (const w of windows) w.worst = Math.max(w.worst, overdue(now, Math.max(last, w.since)));
    last = now;
  });
  return {
    currentMs: () => Math.max(lastDelay, overdue(timer.now(), last)),
    reader() {
      const window: Window = { worst: 0, since: timer.now() };
      windows.add(window);
      return {
        sampleMs() {
          const now = timer.now();
          const lag = Math.max(0, window.worst, overdue(now, Math.max(last, window.since)));
          window.worst = 0;
          window.since = now;
          return lag;
        },
        stop: () => {
          windows.delete(window);
        },
      };
    },
  };
}
