import { describe, expect, it } from 'vitest';
import { type Clock, ManualClock } from '../../src/clock.js';
import { pollUntil, runPeriodically } from '../../src/periodic.js';

describe('the one periodic loop', () => {
  it('runs at once, then every interval after a run settles, and ends when the signal aborts mid-wait', async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const runs: number[] = [];
    const loop = runPeriodically(() => runs.push(clock.now()), {
      clock,
      signal: controller.signal,
      intervalMs: 1000,
      onError: () => undefined,
    });
    expect(runs).toEqual([0]);
    await clock.advance(2500);
    expect(runs).toEqual([0, 1000, 2000]);
    expect(clock.pending).toBe(1);
    controller.abort();
    await loop;
    expect(clock.pending).toBe(0);
    await clock.advance(5000);
    expect(runs).toEqual([0, 1000, 2000]);
  });

  it('waits first when told, and never runs once the signal has aborted', async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const runs: number[] = [];
    const options = { clock, signal: controller.signal, intervalMs: 300, onError: () => undefined };
    void runPeriodically(() => runs.push(clock.now()), { ...options, firstRun: 'after-interval' });
    expect(runs).toEqual([]);
    await clock.advance(700);
    expect(runs).toEqual([300, 600]);
    controller.abort();
    await runPeriodically(() => runs.push(-1), options);
    expect(runs).toEqual([300, 600]);
  });

  it('reads the interval before each wait, after a failed run has reached onError, and carries on', async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const runs: number[] = [];
    const errors: string[] = [];
    let failing = true;
    void runPeriodically(
      () => {
        runs.push(clock.now());
        if (failing) throw new Error(`failed at ${clock.now()}`);
      },
      {
        clock,
        signal: controller.signal,
        // A failure is retried sooner, as the drivers' status polls do.
        intervalMs: () => (errors.length > runs.length - 1 ? 100 : 1000),
        onError: (e) => errors.push((e as Error).message),
      },
    );
    await clock.advance(250);
    expect(runs).toEqual([0, 100, 200]);
    expect(errors).toEqual(['failed at 0', 'failed at 100', 'failed at 200']);
    failing = false;
    await clock.advance(1150);
    expect(runs).toEqual([0, 100, 200, 300, 1300]);
    controller.abort();
  });

  it('never overlaps runs: the next wait starts when a slow run settles, and that run gets the signal', async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const started: number[] = [];
    let seen: AbortSignal | undefined;
    const loop = runPeriodically(
      async (signal) => {
        seen = signal;
        started.push(clock.now());
        await clock.sleep(400);
      },
      { clock, signal: controller.signal, intervalMs: 100, onError: () => undefined },
    );
    await clock.advance(700);
    expect(started).toEqual([0, 500]);
    expect(seen).toBe(controller.signal);
    // Aborted during the second run: that run finishes (at 900), no other starts.
    controller.abort();
    await clock.advance(1000);
    await loop;
    expect(started).toEqual([0, 500]);
  });

  it('with maxSleepMs, sleeps in steps and notices a wall clock set forward within one step', async () => {
    const manual = new ManualClock(0);
    let jump = 0;
    const clock: Clock = { now: () => manual.now() + jump, sleep: (ms, signal) => manual.sleep(ms, signal) };
    const controller = new AbortController();
    const runs: number[] = [];
    void runPeriodically(() => runs.push(clock.now()), {
      clock,
      signal: controller.signal,
      intervalMs: 10 * 60_000,
      maxSleepMs: 60_000,
      onError: () => undefined,
    });
    await manual.advance(60_000);
    expect(runs).toEqual([0]);
    // The system clock is set nine minutes forward: the run that was due in nine minutes is due now.
    jump = 9 * 60_000;
    await manual.advance(60_000);
    expect(runs).toEqual([0, 11 * 60_000]);
    controller.abort();
  });
});

describe('pollUntil: the periodic loop that ends with an answer', () => {
  it('runs the step now and every interval until it answers, and resolves with the answer', async () => {
    const clock = new ManualClock(0);
    const runs: number[] = [];
    const answer = pollUntil(
      () => {
        runs.push(clock.now());
        return runs.length === 3 ? 'done' : undefined;
      },
      { clock, signal: new AbortController().signal, intervalMs: 500 },
    );
    await clock.advance(2000);
    await expect(answer).resolves.toBe('done');
    expect(runs).toEqual([0, 500, 1000]);
    expect(clock.pending).toBe(0);
  });

  it('rejects with what a run threw, and runs no more', async () => {
    const clock = new ManualClock(0);
    let runs = 0;
    const answer = pollUntil(
      () => {
        runs++;
        if (runs === 2) throw new Error('refused');
        return undefined;
      },
      { clock, signal: new AbortController().signal, intervalMs: 100 },
    );
    const settled = answer.catch((e: unknown) => e);
    await clock.advance(1000);
    expect(((await settled) as Error).message).toBe('refused');
    expect(runs).toBe(2);
  });

  it('rejects with the signal’s reason when it aborts mid-wait, reading no interval after', async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const intervals: number[] = [];
    const answer = pollUntil(() => undefined, {
      clock,
      signal: controller.signal,
      intervalMs: () => {
        intervals.push(clock.now());
        return 1000;
      },
    });
    const settled = answer.catch((e: unknown) => e);
    await clock.advance(1500);
    controller.abort(new Error('stopping'));
    expect(((await settled) as Error).message).toBe('stopping');
    expect(intervals).toEqual([0, 1000]);
    expect(clock.pending).toBe(0);
  });

  it('never runs once the signal has aborted', async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    controller.abort(new Error('stopped before'));
    let runs = 0;
    await expect(
      pollUntil(() => ++runs, { clock, signal: controller.signal, intervalMs: 10 }),
    ).rejects.toThrow('stopped before');
    expect(runs).toBe(0);
  });
});
