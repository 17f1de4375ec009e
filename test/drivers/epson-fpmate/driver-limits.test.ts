import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../../drivers/epson-fpmate/http.js';
import { ManualClock } from '../../../src/clock.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { eventually } from '../../helpers/eventually.js';
import {
  afterReceipt,
  inWords,
  orderItem,
  payment,
  printedOf,
  type Rig,
  requestsPerReceipt,
  rig,
  saleJob,
} from './helpers.js';

const items = [orderItem('i1', { unitGross: 12.5, units: 2, rate: 10, notes: 'Colazione' })];
const payments = [payment('p1', 'CashPayment', 25)];

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

const never = new AbortController().signal;

describe('epson-fpmate: one printer request per receipt in steady state (issue 12: 618 requests for 305 receipts)', () => {
  it('reads the counters only while the baseline is unknown: 1.0 request per receipt from the second on', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('first'), recordingExecuteContext());
    // The first receipt knew no baseline: one 1387 read, then the receipt.
    expect(r.sim.requests).toEqual(['printerCommand', 'printerFiscalReceipt']);
    expect(r.sim.directIo).toEqual(['1387']);
    const before = r.sim.requests.length;
    for (let i = 0; i < 20; i++) await r.driver.execute(saleJob(`steady-${i}`), recordingExecuteContext());
    expect((r.sim.requests.length - before) / 20).toBe(1);
    expect(printedOf(r.sim, 'sale')).toHaveLength(21);
    expect(requestsPerReceipt(r.sim)).toBeCloseTo(22 / 21);
  });

  it('after a restart the stored baseline is used: still one request per receipt', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('before-restart'), recordingExecuteContext());
    const restarted = r.restart();
    const before = r.sim.requests.length;
    await restarted.execute(saleJob('after-restart'), recordingExecuteContext());
    expect(r.sim.requests.slice(before)).toEqual(['printerFiscalReceipt']);
  });

  it('a lost answer costs one read of the counters, and the next receipt is back to one request', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('first'), recordingExecuteContext());
    await r.sim.setFault('dropAfterPrint', true);
    let before = r.sim.requests.length;
    const lost = await r.driver.execute(saleJob('lost'), recordingExecuteContext());
    expect(lost.details).toMatchObject({ recovered: true, receiptNumber: '0001-0002' });
    expect(r.sim.requests.slice(before)).toEqual(['printerFiscalReceipt', 'printerCommand']);
    await r.sim.setFault('dropAfterPrint', false);
    before = r.sim.requests.length;
    await r.driver.execute(saleJob('next'), recordingExecuteContext());
    expect(r.sim.requests.slice(before)).toEqual(['printerFiscalReceipt']);
  });

  it('a stored baseline settles a lost answer when the printer printed exactly the next document', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('first'), recordingExecuteContext());
    await r.sim.setFault('dropAfterPrint', true);
    const ectx = recordingExecuteContext();
    await r.driver.execute(saleJob('lost'), ectx);
    expect(ectx.checkpoints[0]).toMatchObject({ baseline: { z: 1, doc: 1, fresh: false } });
    await r.sim.setFault('dropAfterPrint', false);
    expect(printedOf(r.sim, 'sale')).toHaveLength(2);
  });
});

describe('epson-fpmate: nothing the printer answers can crash the agent (issue 13, "Crashes")', () => {
  it('an answer of 300 MB during the background status poll is cut off: the printer shows unreachable, the agent runs on', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0));
    r = await rig({ items, payments, clock, driver: { statusIntervalMs: 60_000, statusRetryMs: 10_000 } });
    const t = r;
    await t.driver.open(never);
    expect(inWords(t.driver.status()).summary).toBe('ready');
    await eventually('the poll to sleep', () => clock.pending === 1);
    await t.sim.setFault('oversizedAnswer', { bytes: 300 * 1024 * 1024 });
    await clock.advance(60_000);
    await eventually('the poll to finish', () => clock.pending === 1);
    expect(inWords(t.driver.status())).toMatchObject({
      connected: false,
      summary: 'unreachable (answer too large) — check power and network',
    });
    // The driver stopped reading at its cap; the printer could write little more than that.
    expect(t.sim.oversizedBytesWritten).toBeLessThan(64 * 1024 * 1024);
    expect(t.sim.oversizedBytesWritten).toBeGreaterThan(MAX_ANSWER_BYTES);
    await t.sim.setFault('oversizedAnswer', false);
    await clock.advance(10_000);
    await eventually('the next poll to finish', () => clock.pending === 1);
    expect(inWords(t.driver.status()).summary).toBe('ready');
  });

  it('an answer that breaks off at its end during a poll counts as no answer, never an escaped error', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0));
    r = await rig({ items, payments, clock, driver: { statusIntervalMs: 60_000 } });
    const t = r;
    await t.driver.open(never);
    await eventually('the poll to sleep', () => clock.pending === 1);
    await t.sim.setFault('truncatedAnswer', true);
    await clock.advance(60_000);
    await eventually('the poll to finish', () => clock.pending === 1);
    expect(inWords(t.driver.status())).toMatchObject({
      connected: false,
      summary: 'unreachable (connection broken) — check power and network',
    });
  });

  it.each([
    ['an oversized answer', 'oversizedAnswer', { bytes: 5 * 1024 * 1024 }],
    ['an answer that breaks off half-way', 'truncatedAnswer', true],
  ] as const)(
    'a receipt answered with %s is settled by the counters: printed once',
    async (_name, fault, value) => {
      r = await rig({ items, payments });
      const t = r;
      await t.driver.execute(saleJob('first'), recordingExecuteContext());
      await t.sim.setFault(fault, value);
      afterReceipt(t.sim, 1, () => t.sim.setFault(fault, false));
      const result = await t.driver.execute(saleJob('faulted'), recordingExecuteContext());
      expect(result.details).toMatchObject({ recovered: true, receiptNumber: '0001-0002' });
      expect(printedOf(t.sim, 'sale')).toHaveLength(2);
      expect(t.sim.requests.filter((q) => q === 'printerFiscalReceipt')).toHaveLength(2);
    },
  );
});
