import { afterEach, describe, expect, it } from 'vitest';
import { epsonFpmateFactory } from '../../../drivers/epson-fpmate/index.js';
import { type FpmateSimulator, startFpmateSimulator } from '../../../drivers/epson-fpmate/simulator/index.js';
import {
  latestOccurrence,
  nextOccurrence,
  scheduledInstant,
} from '../../../drivers/fiscal-it/rt/closure-time.js';
import { ManualClock } from '../../../src/clock.js';
import type { Driver, DriverContext } from '../../../src/drivers-api/types.js';
import { createHttpClient, type HttpClient } from '../../../src/transport/http.js';
import { memoryStore, recordingExecuteContext, testDriverContext } from '../../helpers/driver-context.js';
import { eventually } from '../../helpers/eventually.js';
import { inWords, orderItem, payment, QUICK_DRIVER, saleJob } from './helpers.js';

/**
 * The daily closure on schedule (issue 14, "Done when"): a simulated run on the manual clock,
 * printer and driver on the same clock, closes the day every night at the configured local time,
 * never twice, through the two DST nights, and survives a kill in the middle of the Z report.
 */

const TZ = 'Europe/Rome';
const MIN = 60_000;
const HOUR = 60 * MIN;
const items = [orderItem('a', { unitGross: 25, rate: 10, type: 'SpaceOrder' })];
const payments = [payment('p', 'CashPayment', 25)];

describe('when the closure runs: local time, DST-safe', () => {
  it('the spring-forward night runs a skipped time when the clock jumps past it, other times as usual', () => {
    // 2026-03-29: 02:00 CET becomes 03:00 CEST; 02:30 does not exist.
    expect(new Date(scheduledInstant('2026-03-29', '02:30', TZ)).toISOString()).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    expect(new Date(scheduledInstant('2026-03-29', '03:30', TZ)).toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    );
    expect(new Date(scheduledInstant('2026-03-28', '03:30', TZ)).toISOString()).toBe(
      '2026-03-28T02:30:00.000Z',
    );
  });

  it('the fall-back night runs a repeated time at its first occurrence only', () => {
    // 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 happens twice (00:30Z and 01:30Z).
    expect(new Date(scheduledInstant('2026-10-25', '02:30', TZ)).toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    expect(latestOccurrence(Date.parse('2026-10-25T01:30:00Z'), '02:30', TZ)).toEqual({
      date: '2026-10-25',
      at: Date.parse('2026-10-25T00:30:00Z'),
    });
    expect(nextOccurrence(Date.parse('2026-10-25T00:30:00Z'), '02:30', TZ).date).toBe('2026-10-26');
    expect(new Date(scheduledInstant('2026-10-25', '03:30', TZ)).toISOString()).toBe(
      '2026-10-25T02:30:00.000Z',
    );
  });
});

interface Run {
  clock: ManualClock;
  sim: FpmateSimulator;
  store: ReturnType<typeof memoryStore>;
  drivers: Driver[];
  /** A driver on the same store and printer (an agent restart); `http` replaces the HTTP stack. */
  start(http?: DriverContext['http']): Promise<Driver>;
  /** Stops a driver (`kill`: abandons it, as a killed process leaves its work). */
  stop(driver: Driver, how: 'close' | 'kill'): Promise<void>;
  /** Advances the clock in steps, letting every closure finish between them. */
  advance(ms: number, step?: number): Promise<void>;
  sell(id: string): Promise<void>;
}

let run: Run | undefined;
afterEach(async () => {
  for (const d of run?.drivers ?? []) await d.close();
  await run?.sim.close();
  run = undefined;
});

async function startRun(startUtc: string, at = '03:30'): Promise<Run> {
  const clock = new ManualClock(Date.parse(startUtc));
  const sim = await startFpmateSimulator({ clock, timeZone: TZ });
  const store = memoryStore();
  const options = epsonFpmateFactory.configSchema.parse({
    url: sim.url,
    ...QUICK_DRIVER,
    dailyClosure: { at, retryMinutes: 15 },
  });
  const drivers: Driver[] = [];
  let live = 0;
  const parked = () =>
    eventually(
      () => `${live} sleeps parked on the clock (${clock.pending})`,
      () => clock.pending === live,
      { intervalMs: 5 },
    );
  const self: Run = {
    clock,
    sim,
    store,
    drivers,
    async start(http) {
      const ctx = testDriverContext({
        store,
        clock,
        orderItems: items,
        payments,
        timezone: TZ,
        ...(http ? { http } : {}),
      });
      const driver = epsonFpmateFactory.create(options, ctx);
      await driver.open(new AbortController().signal);
      drivers.push(driver);
      live += 1;
      await parked();
      return driver;
    },
    async stop(driver, how) {
      drivers.splice(drivers.indexOf(driver), 1);
      live -= 1;
      if (how === 'close') await driver.close();
    },
    async advance(ms, step = 5 * MIN) {
      for (let done = 0; done < ms; done += step) {
        await clock.advance(Math.min(step, ms - done));
        await parked();
      }
    },
    async sell(id) {
      await (drivers.at(-1) as Driver).execute(saleJob(id), recordingExecuteContext());
    },
  };
  return self;
}

const zReports = (sim: FpmateSimulator) => sim.printed.filter((d) => d.kind === 'z-report');

describe('30 hours on the manual clock', () => {
  it('closes the day on schedule every night, skips a night without receipts, never twice', async () => {
    // Thursday 23:00 in Rome. Receipts that evening, all Friday, none after Saturday's closure.
    run = await startRun('2026-11-19T22:00:00Z');
    const driver = await run.start();
    await run.sell('thu-1');
    await run.advance(4 * HOUR + 45 * MIN); // to 02:45Z Friday: the 03:30 closure ran at 02:30Z
    expect(zReports(run.sim).map((z) => z.dateTime)).toEqual(['2026-11-20 03:30']);
    for (let h = 0; h < 12; h++) {
      await run.advance(HOUR);
      if (h >= 5) await run.sell(`fri-${h}`);
    }
    await run.advance(30 * HOUR - 4 * HOUR - 45 * MIN - 12 * HOUR); // to Saturday 04:00Z
    expect(zReports(run.sim).map((z) => [z.z, z.dateTime])).toEqual([
      [1, '2026-11-20 03:30'],
      [2, '2026-11-21 03:30'],
    ]);
    expect(run.store.get('scheduledClosure')).toMatchObject({
      date: '2026-11-21',
      status: 'done',
      attempts: 1,
    });
    // Sunday night: no receipt since Saturday's closure, so nothing to close.
    await run.advance(24 * HOUR);
    expect(zReports(run.sim)).toHaveLength(2);
    expect(run.store.get('scheduledClosure')).toMatchObject({ date: '2026-11-22', status: 'skipped' });
    expect(inWords(driver.status()).facts).toMatchObject({
      lastClosureStatus: 'skipped',
      dailyClosureAt: '03:30 Europe/Rome',
    });
    // A restart after the closure does not close again.
    await run.stop(driver, 'close');
    await run.start();
    await run.advance(2 * HOUR);
    expect(zReports(run.sim)).toHaveLength(2);
  }, 120_000);

  it('spring forward: a 02:30 closure runs once, at 03:00 CEST', async () => {
    run = await startRun('2026-03-28T20:00:00Z', '02:30');
    await run.start();
    await run.sell('sat');
    await run.advance(8 * HOUR);
    expect(zReports(run.sim).map((z) => z.dateTime)).toEqual(['2026-03-29 03:00']);
  }, 60_000);

  it('fall back: a 02:30 closure runs at the first 02:30 only, though receipts open the day again before the second', async () => {
    run = await startRun('2026-10-24T20:00:00Z', '02:30');
    await run.start();
    await run.sell('sat');
    await run.advance(4 * HOUR + 35 * MIN); // 00:35Z: past the first 02:30 (CEST)
    expect(zReports(run.sim).map((z) => z.dateTime)).toEqual(['2026-10-25 02:30']);
    await run.sell('night'); // 02:35 CEST: a new fiscal day opens
    await run.advance(3 * HOUR); // through the second 02:30 (CET) at 01:30Z
    expect(zReports(run.sim)).toHaveLength(1);
    expect(run.store.get('scheduledClosure')).toMatchObject({
      date: '2026-10-25',
      status: 'done',
      attempts: 1,
    });
  }, 60_000);
});

/** An HTTP stack whose Z report requests reach the printer (or not), and whose answer never comes. */
function killedDuringTheZ(printerGetsIt: boolean): { http: DriverContext['http']; sent: () => number } {
  let sent = 0;
  const http = (): HttpClient => {
    const real = createHttpClient();
    return {
      close: () => real.close(),
      request: async (request) => {
        if (!String(request.body ?? '').includes('printerFiscalReport')) return real.request(request);
        sent += 1;
        if (printerGetsIt) await real.request(request);
        // The agent is killed here: this process never learns the answer.
        return new Promise(() => undefined);
      },
    };
  };
  return { http, sent: () => sent };
}

describe('a kill in the middle of the scheduled Z report', () => {
  it.each([
    ['after the printer printed it: the restart finds the day closed and does not close it again', true],
    ['before the printer got it: the restart finds the day open and closes it once', false],
  ])(
    '%s',
    async (_name, printerGetsIt) => {
      run = await startRun('2026-11-20T01:00:00Z');
      const killed = killedDuringTheZ(printerGetsIt);
      const first = await run.start(killed.http);
      await run.sell('night');
      // 02:30Z: the closure starts and never hears back; its scheduler is stuck, not asleep.
      await run.clock.advance(90 * MIN);
      await eventually('the closure sent once', () => killed.sent() === 1, { intervalMs: 5 });
      expect(killed.sent()).toBe(1);
      expect(run.store.get('closureInFlight')).toMatchObject({
        reason: 'schedule',
        date: '2026-11-20',
        zBefore: 1,
      });
      // The killed agent is gone (its driver is never closed); a new one starts on the same journal.
      await run.stop(first, 'kill');
      await run.start();
      await run.advance(2 * HOUR);
      expect(zReports(run.sim)).toHaveLength(1);
      expect(run.store.get('closureInFlight')).toBeNull();
      expect(run.store.get('scheduledClosure')).toMatchObject({
        date: '2026-11-20',
        status: 'done',
        attempts: printerGetsIt ? 1 : 2,
      });
      expect(run.store.get('lastClosure')).toMatchObject({ status: 'done', reason: 'schedule', z: 1 });
    },
    60_000,
  );
});
