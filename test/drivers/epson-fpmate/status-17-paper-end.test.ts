import { afterEach, describe, expect, it } from 'vitest';
import { envelope } from '../../../drivers/epson-fpmate/xml-build.js';
import { ManualClock } from '../../../src/clock.js';
import { english } from '../../../src/messages/render.js';
import { createHttpClient } from '../../../src/transport/http.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { rejection } from '../../helpers/rejection.js';
import { orderItem, payment, printedOf, type Rig, rig, saleJob } from './helpers.js';

/**
 * PRINTER ERROR 17 is "not possible now" for any reason (fiskaltrust scu-it
 * Models/ErrorInfoFactory.cs L43). The driver runs the daily closure for it only when the printer
 * says it waits for the closure (rtNoWorkingPeriod 1: 721377/procassa lib/epsonxml.js
 * EpsonDecodeNoWorkingPeriod) or the agent knows the day has been open 23 hours or more — never
 * because another till opened the day and the agent cannot tell when (issue 24: the bar's POS on
 * the same RT, and a fiscal day closed at noon).
 */

const items = [orderItem('i1', { unitGross: 12, rate: 10, notes: 'Bar' })];
const payments = [payment('p1', 'CashPayment', 12)];

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

/** Another till (the bar's POS) prints a receipt on the same RT: the day opens without the agent. */
async function barTillReceipt(url: string): Promise<void> {
  const client = createHttpClient();
  try {
    await client.request({
      method: 'POST',
      url: `${url}/cgi-bin/fpmate.cgi?devid=local_printer&timeout=1000`,
      headers: { 'Content-Type': 'text/xml; charset=utf-8' },
      body: envelope(
        '<printerFiscalReceipt><beginFiscalReceipt operator="1"/><printRecItem operator="1" description="Caffe" quantity="1" unitPrice="1.20" department="2"/><printRecTotal operator="1" description="Contanti" payment="1.20" paymentType="0" index="0"/><endFiscalReceipt operator="1"/></printerFiscalReceipt>',
      ),
      timeoutMs: 5000,
      maxBytes: 65536,
    });
  } finally {
    client.close();
  }
}

describe('status 17: the daily closure only when it is due', () => {
  it('a day another till opened, 17 for another reason: reported as not possible now, no closure', async () => {
    r = await rig({ items, payments });
    await barTillReceipt(r.sim.url);
    await r.driver.open(new AbortController().signal);
    await r.sim.setFault('refuseDocuments', { status: '17' });
    const error = await rejection(r.driver.execute(saleJob(), recordingExecuteContext()));
    expect(error.code).toBe('DEVICE_ERROR');
    expect(english(error.notes)).toBe(
      'The printer says the operation is not possible now (status 17); the receipt was not printed. Look at the printer’s display (a document or report may be in progress, or another till may be using it), then try again.',
    );
    expect(printedOf(r.sim, 'z-report')).toEqual([]);
    expect(printedOf(r.sim, 'sale')).toHaveLength(1);
  });

  it('a day the agent knows has been open 23 hours: a 17 runs the closure, then the receipt prints', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 7, 0));
    r = await rig({ items, payments, clock, sim: { clock } });
    await r.driver.execute(saleJob('morning'), recordingExecuteContext());
    await clock.advance(23.5 * 3600 * 1000);
    await r.sim.setFault('refuseDocuments', { status: '17' });
    const sim = r.sim;
    const off = sim.onHandled((h) => {
      if (h.root === 'printerFiscalReport') void sim.setFault('refuseDocuments', false);
    });
    const result = await r.driver.execute(saleJob('next-morning'), recordingExecuteContext());
    off();
    expect(english(result.notes)).toMatch(
      /^Receipt 0002-0001 .*The fiscal day had been open too long: the agent ran the daily closure \(Z report\) first \(Z 1\)$/,
    );
    expect(r.sim.printed.map((d) => d.kind)).toEqual(['sale', 'z-report', 'sale']);
  });
});

/**
 * EPTR_REC_EMPTY after the document was sent (fiskaltrust Models/ErrorInfoFactory.cs L19: "no
 * paper roll"): the roll can end after the fiscal commit, so the counters decide, as for
 * FP_NO_ANSWER (issue 24).
 */
describe('paper ending as the receipt was sent', () => {
  it('recorded before the roll ended: done from the counters, with the paper to replace', async () => {
    r = await rig({ items, payments });
    await r.sim.setFault('paperEndsAfterPrint', true);
    const result = await r.driver.execute(saleJob(), recordingExecuteContext());
    expect(english(result.notes)).toMatch(/^Receipt 0001-0001 on RT 99MEY123456, /);
    expect(english(result.notes)).toContain('paper ran out after the receipt was recorded: replace the roll');
    expect(printedOf(r.sim, 'sale')).toHaveLength(1);
  });

  it('refused for paper before anything was recorded: PAPER_OUT, not printed, never resent as printed', async () => {
    r = await rig({ items, payments });
    await r.sim.setFault('paperOut', true);
    const error = await rejection(r.driver.execute(saleJob(), recordingExecuteContext()));
    expect(error.code).toBe('PAPER_OUT');
    expect(english(error.notes)).toContain('the receipt was not printed');
    expect(printedOf(r.sim, 'sale')).toEqual([]);
  });
});
