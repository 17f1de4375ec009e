import { describe, expect, it } from 'vitest';
import { createLoopLag, type LagTimer, loopLag } from '../../src/supervision/loop-lag.js';

/** A probe on a hand-driven clock: `run(ms)` is a timer tick that fires `ms` after the last one. */
function manual(resolutionMs: number) {
  let now = 1000;
  let tick: () => void = () => {};
  const periods: number[] = [];
  const timer: LagTimer = {
    now: () => now,
    every: (ms, fn) => {
      periods.push(ms);
      tick = fn;
      return () => periods.push(-ms);
    },
  };
  const lag = createLoopLag(resolutionMs, timer);
  return {
    lag,
    periods,
    /** Time passes without the timer running (the loop is blocked). */
    block: (ms: number) => {
      now += ms;
    },
    run: (ms: number) => {
      now += ms;
      tick();
    },
  };
}

describe('the one event-loop lag probe', () => {
  it('reads the lag now: the last delay, or how overdue the timer is while the loop is stuck', () => {
    const m = manual(100);
    m.run(100);
    expect(m.lag.currentMs()).toBe(0);
    m.run(350);
    expect(m.lag.currentMs()).toBe(250);
    m.block(1000);
    expect(m.lag.currentMs()).toBe(900);
  });

  it('gives each reader its own window, so the watchdog and the metrics never steal from each other', () => {
    const m = manual(100);
    const watchdog = m.lag.reader();
    const metrics = m.lag.reader();
    m.run(100);
    m.run(400);
    m.run(100);
    expect(watchdog.sampleMs()).toBe(300);
    expect(watchdog.sampleMs()).toBe(0);
    expect(metrics.sampleMs()).toBe(300);
  });

  it('does not report again a block that a sample already reported', () => {
    const m = manual(100);
    const reader = m.lag.reader();
    m.run(100);
    m.block(600);
    expect(reader.sampleMs()).toBe(500);
    m.run(0);
    expect(reader.sampleMs()).toBe(0);
    reader.stop();
    m.run(900);
    expect(reader.sampleMs()).toBe(0);
  });

  it('ticks as often as the finest reader asks, and only while it lives', () => {
    const m = manual(500);
    const coarse = m.lag.reader();
    const fine = m.lag.reader(20);
    expect(m.periods).toEqual([500, -500, 20]);
    m.run(20);
    m.run(80);
    expect(fine.sampleMs()).toBe(60);
    fine.stop();
    expect(m.periods).toEqual([500, -500, 20, -20, 500]);
    expect(coarse.sampleMs()).toBe(60);
  });

  it('is one probe per process', () => {
    expect(loopLag()).toBe(loopLag());
  });
});
