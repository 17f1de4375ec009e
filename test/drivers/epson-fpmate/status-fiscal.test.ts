import { afterEach, describe, expect, it } from 'vitest';
import { DailyClosureSchema } from '../../../drivers/epson-fpmate/config.js';
import { fiscalStatus } from '../../../drivers/epson-fpmate/fiscal-status.js';
import { epsonClosure } from '../../../drivers/epson-fpmate/messages-results.js';
import { FiscalState } from '../../../drivers/fiscal-it/rt/fiscal-state.js';
import { ManualClock } from '../../../src/clock.js';
import { isMessage, textMessage } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { createMetrics } from '../../../src/status/metrics/metrics.js';
import { memoryStore, recordingExecuteContext } from '../../helpers/driver-context.js';
import { sampleSnapshot } from '../../status/helpers/fake-source.js';
import { orderItem, payment, type Rig, rig, saleJob } from './helpers.js';

/**
 * The printer's fiscal state as staff see it: facts on the page (and, through the generic device
 * facts, gauges in /metrics) and a sentence for each thing to act on — the RT not in service, the
 * fiscal memory, files waiting for the tax agency and for how long, a fiscal day open 20 hours,
 * a failed or missed closure, a staff action whose outcome is unknown.
 */

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 12, 0);
const closure = DailyClosureSchema.parse({});

function status(
  rt: Parameters<typeof fiscalStatus>[0]['rt'],
  prepare: (state: FiscalState) => void = () => {},
) {
  const state = new FiscalState(memoryStore());
  prepare(state);
  const s = fiscalStatus({ rt, state, closure, timeZone: 'Europe/Rome', now: NOW });
  // Facts in words compared as their English.
  const facts = Object.fromEntries(
    Object.entries(s.facts).map(([key, value]) => [key, isMessage(value) ? english(value) : value]),
  );
  return { ...s, facts };
}

describe('fiscal facts and warnings', () => {
  it('an RT in service with a healthy fiscal memory and nothing waiting says nothing', () => {
    const s = status({
      mainStatus: '02',
      subStatus: '08',
      fiscalMemory: '02',
      dailyOpen: false,
      filesToSend: 0,
    });
    expect(s.warnings.map(english)).toEqual([]);
    expect(s.facts).toMatchObject({
      rtState: 'in service',
      rtMainStatus: 2,
      fiscalMemory: 'in service',
      dailyClosureAt: '03:30 Europe/Rome',
      nextClosure: '2026-11-22T02:30:00.000Z',
      fiscalDayOpenTooLong: false,
    });
  });

  it('an RT not in service, and a fiscal memory not in service, each with a sentence', () => {
    const s = status({ mainStatus: '01', subStatus: '07', fiscalMemory: '01' });
    expect(s.facts).toMatchObject({
      rtState: 'activated',
      rtMainStatus: 1,
      rtSubStatus: 7,
      fiscalMemory: 'not in service',
    });
    expect(s.warnings.map(english)).toEqual([
      'The fiscal printer is not in service as an RT (activated): its receipts are not sent to the tax agency. Call the printer’s technician.',
      'The fiscal printer reports its fiscal memory as not in service. Call the printer’s technician.',
    ]);
  });

  it('files waiting a day for the tax agency, with their age', () => {
    const s = status({ mainStatus: '02', filesToSend: 2, oldFilesToSend: 0 }, (state) =>
      state.filesWaiting(2, NOW - 26 * HOUR),
    );
    expect(s.facts).toMatchObject({ filesToSendAgeHours: 26, filesToSendSince: '2026-11-20T10:00:00.000Z' });
    expect(s.warnings.map(english)).toEqual([
      '2 daily files have been waiting 26 hours to be sent to the tax agency: check the printer’s internet connection.',
    ]);
  });

  it('a fiscal day open 20 hours and more, or open since before the agent started', () => {
    const open = status({ dailyOpen: true }, (state) => state.dayOpen(NOW - 21 * HOUR, true));
    expect(open.facts).toMatchObject({
      fiscalDayOpenHours: 21,
      fiscalDayOpenTooLong: true,
      fiscalDayOpenSince: '2026-11-20T15:00:00.000Z',
    });
    expect(open.warnings.map(english)).toEqual([
      'The fiscal day has been open for 21 hours: the daily closure (Z report) is due — it runs at 03:30, or use Print Z report.',
    ]);
    expect(
      status({ dailyOpen: true }, (state) => state.dayOpen(NOW - 5 * HOUR, true)).warnings.map(english),
    ).toEqual([]);
    expect(status({ dailyOpen: true }).warnings.map(english)).toEqual([
      'The fiscal day is open, since before the agent started: if the daily closure (Z report) was not run today, run it.',
    ]);
  });

  it('a failed or missed scheduled closure while the day is still open, and an unknown staff action', () => {
    const failed = status({ dailyOpen: true }, (state) => {
      state.dayOpen(NOW - 10 * HOUR, true);
      state.setScheduled({
        date: '2026-11-21',
        status: 'failed',
        attempts: 2,
        detail: epsonClosure.printerSilent(),
      });
      state.setLastAction({
        action: 'void',
        at: NOW - HOUR,
        ok: false,
        notes: textMessage('The void’s outcome is unknown.'),
      });
    });
    expect(failed.warnings.map(english)).toEqual([
      'The daily closure (Z report) of 21 Nov 2026 failed: the printer does not answer. The agent tries again; if it keeps failing, run the Z report on the printer.',
      'The void’s outcome is unknown.',
    ]);
    const missed = status({ dailyOpen: false }, (state) =>
      state.setScheduled({
        date: '2026-11-21',
        status: 'missed',
        attempts: 0,
        detail: epsonClosure.notAttempted(),
      }),
    );
    expect(missed.warnings.map(english)).toEqual([]);
  });
});

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

describe('through the driver to /metrics', () => {
  it('20 hours after the day’s first receipt: a warning on the page and gauges of the generic device facts', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 20, 8, 0));
    r = await rig({
      items: [orderItem('a', { unitGross: 10, rate: 22 })],
      payments: [payment('p', 'CashPayment', 10)],
      clock,
      sim: { clock },
    });
    await r.driver.open(new AbortController().signal);
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    await clock.advance(20 * HOUR + 30 * 60_000);
    const deviceStatus = r.driver.status();
    expect(deviceStatus.warnings.map(english)).toContain(
      'The fiscal day has been open for 20 hours: the daily closure (Z report) is due — run it on the printer or with Print Z report.',
    );
    const metrics = createMetrics({ defaultMetrics: false });
    const snapshot = sampleSnapshot();
    snapshot.devices = [
      { ...(snapshot.devices[0] as (typeof snapshot.devices)[number]), status: deviceStatus },
    ];
    metrics.collect(snapshot);
    const text = await metrics.text();
    const gauge = (fact: string) =>
      new RegExp(`^frontdesk_device_fact\\{[^}]*fact="${fact}"\\} (\\S+)$`, 'm').exec(text)?.[1];
    expect(gauge('fiscalDayOpenTooLong')).toBe('1');
    expect(gauge('fiscalDayOpenHours')).toBe('20.5');
    expect(gauge('fiscalDayOpenSince')).toBe(String(Date.UTC(2026, 10, 20, 8, 0) / 1000));
    expect(gauge('certificateExpiryDevice')).toBe(String(Date.UTC(2030, 11, 31) / 1000));
    expect(gauge('rtMainStatus')).toBe('2');
  });
});
