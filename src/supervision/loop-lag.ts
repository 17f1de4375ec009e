/**
 * The agent's one event-loop lag probe, shared by the status page and health (`currentMs`), the
 * systemd watchdog and the metrics (each with a `reader` of its own). One timer per process: lag
 * is how much later than due it (or a reading) runs. It ticks every `LAG_RESOLUTION_MS`, or as
 * often as the finest reader asks while that reader exists (the watchdog asks for a tenth of the
 * lag that withholds its ping), because every tick costs an idle agent CPU. The timer is unref'd,
 * so it never keeps the process alive; it starts with the first use.
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
  /**
   * A reader with its own window, for a consumer that samples (the watchdog, metrics); the timer
   * ticks at least every `resolutionMs` while it exists.
   */
  reader(resolutionMs?: number): LagProbe;
}

/** Fine enough for what the page (2 s), health (5 s) and an alert act on, and cheap while idle. */
export const LAG_RESOLUTION_MS = 500;

interface Window {
  worst: number;
  /** The time of the window's start: lag before it was reported already. */
  since: number;
  resolutionMs: number;
}

let shared: LoopLag | undefined;

/** The process's probe. */
export function loopLag(): LoopLag {
  shared ??= createLoopLag(LAG_RESOLUTION_MS);
  return shared;
}

/** A reader of the process's probe, ticking at least every `resolutionMs` while it lives. */
export function eventLoopLagProbe(resolutionMs = 20): LagProbe {
  return loopLag().reader(resolutionMs);
}

/** What the probe runs on: a monotonic time and a repeating, unref'd timer (tests pass fakes). */
export interface LagTimer {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

const realTimer: LagTimer = {
  now: () => performance.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** A probe of its own; the agent uses the process's one (`loopLag()`). */
export function createLoopLag(resolutionMs: number, timer: LagTimer = realTimer): LoopLag {
  const windows = new Set<Window>();
  let period = resolutionMs;
  let last = timer.now();
  let lastDelay = 0;
  const overdue = (now: number, from: number) => now - from - period;
  const tick = () => {
    const now = timer.now();
    lastDelay = Math.max(0, overdue(now, last));
    for (const w of windows) w.worst = Math.max(w.worst, overdue(now, Math.max(last, w.since)));
    last = now;
  };
  let cancel = timer.every(period, tick);
  /** Ticks as often as the finest reader needs, and no more often. */
  const retime = () => {
    let wanted = resolutionMs;
    for (const w of windows) wanted = Math.min(wanted, w.resolutionMs);
    if (wanted === period) return;
    cancel();
    tick();
    period = wanted;
    cancel = timer.every(period, tick);
  };
  return {
    currentMs: () => Math.max(lastDelay, overdue(timer.now(), last)),
    reader(readerResolutionMs = resolutionMs) {
      const window: Window = { worst: 0, since: timer.now(), resolutionMs: readerResolutionMs };
      windows.add(window);
      retime();
      return {
        sampleMs() {
          const now = timer.now();
          const lag = Math.max(0, window.worst, overdue(now, Math.max(last, window.since)));
          window.worst = 0;
          window.since = now;
          return lag;
        },
        stop: () => {
          if (windows.delete(window)) retime();
        },
      };
    },
  };
}
