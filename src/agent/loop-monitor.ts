/**
 * Measures how late the event loop runs: a timer due every `intervalMs` notes how much later than
 * due it fired. `lagMs()` is the larger of the last measured delay and the time since the timer
 * is overdue, so a loop that is stuck right now reads as stuck. The timer does not keep the
 * process alive.
 */
export interface LoopMonitor {
  lagMs(): number;
  stop(): void;
}

export function startLoopMonitor(intervalMs = 500, now: () => number = () => performance.now()): LoopMonitor {
  let expected = now() + intervalMs;
  let last = 0;
  const timer = setInterval(() => {
    const t = now();
    last = Math.max(0, t - expected);
    expected = t + intervalMs;
  }, intervalMs);
  timer.unref();
  return {
    lagMs: () => Math.max(last, now() - expected),
    stop: () => clearInterval(timer),
  };
}
