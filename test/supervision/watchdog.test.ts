import { afterEach, describe, expect, it } from 'vitest';
import { type Clock, ManualClock } from '../../src/clock.js';
import { createMemoryLogger } from '../../src/log.js';
import { createNotifier } from '../../src/supervision/sd-notify.js';
import {
  eventLoopLagProbe,
  type LagProbe,
  startWatchdog,
  type Watchdog,
  watchdogInterval,
} from '../../src/supervision/watchdog.js';
import { eventually } from '../helpers/eventually.js';
import { type FakeNotifySocket, fakeNotifySocket } from './notify-socket.js';

describe('watchdogInterval', () => {
  it('is half of WATCHDOG_USEC in ms, for this process only', () => {
    expect(watchdogInterval({ WATCHDOG_USEC: '30000000' }, 42)).toBe(15_000);
    expect(watchdogInterval({ WATCHDOG_USEC: '30000000', WATCHDOG_PID: '42' }, 42)).toBe(15_000);
    expect(watchdogInterval({ WATCHDOG_USEC: '30000000', WATCHDOG_PID: '41' }, 42)).toBeUndefined();
    expect(watchdogInterval({}, 42)).toBeUndefined();
    expect(watchdogInterval({ WATCHDOG_USEC: '0' }, 42)).toBeUndefined();
    expect(watchdogInterval({ WATCHDOG_USEC: '-5' }, 42)).toBeUndefined();
    expect(watchdogInterval({ WATCHDOG_USEC: '3e7' }, 42)).toBeUndefined();
    expect(watchdogInterval({ WATCHDOG_USEC: '1000' }, 42)).toBe(1);
  });
});

/** A probe the test sets by hand. */
function manualProbe(): LagProbe & { lag: number; stopped: boolean } {
  return {
    lag: 0,
    stopped: false,
    sampleMs() {
      return this.lag;
    },
    stop() {
      this.stopped = true;
    },
  };
}

let watchdog: Watchdog | undefined;
let socket: FakeNotifySocket | undefined;
afterEach(() => {
  watchdog?.stop();
  watchdog = undefined;
  socket?.close();
  socket = undefined;
});

describe('startWatchdog (manual clock)', () => {
  it('pings at once and every interval while healthy and responsive, withholding pings otherwise', async () => {
    const clock = new ManualClock();
    const probe = manualProbe();
    const log = createMemoryLogger();
    let pings = 0;
    let healthy = true;
    watchdog = startWatchdog({
      notifier: { watchdog: () => pings++ },
      intervalMs: 15_000,
      isHealthy: () => healthy,
      clock,
      lagProbe: probe,
      log,
    });
    expect(pings).toBe(1);
    await clock.advance(15_000);
    await clock.advance(15_000);
    expect(pings).toBe(3);

    healthy = false;
    await clock.advance(15_000);
    await clock.advance(15_000);
    expect(pings).toBe(3);
    expect(log.lines.filter((l) => l.includes('watchdog ping withheld'))).toHaveLength(1);

    healthy = true;
    probe.lag = 6000; // above the default 5 s
    await clock.advance(15_000);
    expect(pings).toBe(3);

    probe.lag = 10;
    await clock.advance(15_000);
    expect(pings).toBe(4);
    expect(log.lines.some((l) => l.includes('watchdog pings resumed'))).toBe(true);

    watchdog.stop();
    expect(probe.stopped).toBe(true);
    await clock.advance(60_000);
    expect(pings).toBe(4);
  });

  it('counts a late wake-up as lag, and treats a throwing health check as unhealthy', async () => {
    const manual = new ManualClock();
    let stall = 0; // how late the process wakes up, as if the loop had been blocked
    const clock: Clock = { now: () => manual.now() + stall, sleep: (ms, signal) => manual.sleep(ms, signal) };
    let pings = 0;
    let throwing = false;
    watchdog = startWatchdog({
      notifier: { watchdog: () => pings++ },
      intervalMs: 1000,
      maxLagMs: 200,
      isHealthy: () => {
        if (throwing) throw new Error('boom');
        return true;
      },
      clock,
      lagProbe: manualProbe(),
    });
    expect(pings).toBe(1);
    stall = 1500;
    await manual.advance(1000);
    expect(pings).toBe(1);
    await manual.advance(1000);
    expect(pings).toBe(2);
    throwing = true;
    await manual.advance(1000);
    expect(pings).toBe(2);
  });
});

/** Blocks this thread for `ms` without spinning (the loop stalls as a synchronous fsync would). */
function blockThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('eventLoopLagProbe', () => {
  it('notices a blocked event loop: at least the block it was made to sit through', async () => {
    const resolutionMs = 20;
    const probe = eventLoopLagProbe(resolutionMs);
    await new Promise((r) => setTimeout(r, 2 * resolutionMs));
    probe.sampleMs();
    const start = performance.now();
    blockThread(300);
    // The block as it really was (longer on a busy machine, never shorter): what the probe must see.
    const blocked = performance.now() - start;
    expect(probe.sampleMs()).toBeGreaterThanOrEqual(blocked - resolutionMs);
    probe.stop();
  });
});

describe('startWatchdog (real socket, manual clock)', () => {
  it('sends WATCHDOG=1 to NOTIFY_SOCKET and stops while isHealthy() is false', async () => {
    socket = fakeNotifySocket();
    const notifier = createNotifier(socket.path);
    const clock = new ManualClock();
    let healthy = true;
    let checks = 0;
    watchdog = startWatchdog({
      notifier,
      intervalMs: 10,
      maxLagMs: 60_000,
      isHealthy: () => {
        checks++;
        return healthy;
      },
      clock,
      lagProbe: manualProbe(),
    });
    const pings = () => (socket as FakeNotifySocket).messages.filter((m) => m === 'WATCHDOG=1').length;
    /** One interval: the watchdog checks once (and pings if healthy). */
    const tick = async () => {
      const before = checks;
      await clock.advance(10);
      expect(checks).toBe(before + 1);
    };
    await tick();
    await tick();
    await eventually('3 pings on the socket', () => pings() >= 3);

    healthy = false;
    for (let i = 0; i < 5; i++) await tick();
    // A marker sent after those checks: once it arrived, any ping they had sent would have too.
    await notifier.send([['STATUS', 'marker']]);
    await eventually('the marker on the socket', () =>
      (socket as FakeNotifySocket).messages.includes('STATUS=marker'),
    );
    expect(pings()).toBe(3);

    healthy = true;
    await tick();
    await tick();
    await eventually('2 more pings', () => pings() >= 5);
    watchdog.stop();
    notifier.close();
  });
});
