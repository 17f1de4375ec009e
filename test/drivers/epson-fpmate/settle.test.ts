import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { isAgentError } from '../../../src/errors.js';
import { english } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { eventually } from '../../helpers/eventually.js';
import { afterReceipt, inWords, orderItem, payment, printedOf, type Rig, rig, saleJob } from './helpers.js';

/**
 * Issue 26 item 5: a receipt sent to a printer that then vanished (switched off right after it
 * took the document) waits, with a warning on the page, and is settled from the printer's
 * counters (directIO 1387) when it answers again — for `settleUnansweredForMinutes`; only then
 * is the outcome unknown. Time is the ManualClock's: the driver reads again on its backoff.
 */

const items = [orderItem('i1', { unitGross: 45.5, units: 2, rate: 22, notes: 'Cena' })];
const payments = [payment('p1', 'CashPayment', 91)];

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

const receiptsSent = (rig: Rig) => rig.sim.requests.filter((q) => q === 'printerFiscalReceipt').length;
const waiting = (rig: Rig) =>
  inWords(rig.driver.status()).warnings.some((w) => w.includes('the agent waits for it until'));

/** The printer prints the first receipt, drops the answer and goes away (connection refused). */
async function vanishing(clock: ManualClock) {
  const rigged = await rig({ items, payments, clock, sim: { clock } });
  const sim = rigged.sim;
  await sim.setFault('dropAfterPrint', true);
  afterReceipt(sim, 1, () => sim.setFault('refused', true));
  return rigged;
}

describe('epson-fpmate: a printer that vanished right after a receipt was sent', () => {
  it('waits with a warning, then settles the receipt from the counters when the printer answers again', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0));
    r = await vanishing(clock);
    const run = r.driver.execute(saleJob(), recordingExecuteContext());
    const rigged = r;
    await eventually('the driver to wait for the printer', () => waiting(rigged) && clock.pending > 0);
    expect(inWords(r.driver.status()).warnings[0]).toBe(
      'The printer stopped answering right after the receipt was sent at 09:00:00: the agent waits for it until 09:15:00, to learn from its memory whether it was printed. Switch it on and connect it; do not issue the receipt again.',
    );
    // Two more reads find it still away; then it is back.
    await clock.advance(1_000);
    await eventually('the second wait', () => clock.pending > 0);
    await r.sim.setFault('refused', false);
    await r.sim.setFault('dropAfterPrint', false);
    await clock.advance(2_000);
    const result = await run;
    expect(english(result.notes)).toMatch(/^Receipt 0001-0001 on RT 99MEY123456, /);
    expect(result.details).toMatchObject({ recovered: true });
    expect(receiptsSent(r)).toBe(1);
    expect(printedOf(r.sim, 'sale')).toHaveLength(1);
    expect(waiting(r)).toBe(false);
  });

  it('gives up after settleUnansweredForMinutes: STATE_UNKNOWN with what to check, never resent', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0));
    r = await vanishing(clock);
    const run = r.driver.execute(saleJob(), recordingExecuteContext()).catch((e: unknown) => e);
    let settled = false;
    void run.then(() => {
      settled = true;
    });
    while (!settled) {
      await eventually('the driver to wait or end', () => settled || clock.pending > 0);
      if (!settled) await clock.advance(30_000);
    }
    const error = await run;
    if (!isAgentError(error)) throw new Error('expected an AgentError');
    expect(error.code).toBe('STATE_UNKNOWN');
    expect(english(error.notes)).toBe(
      'The printer stopped answering right after the receipt was sent and did not answer for 15 minutes: the agent cannot tell whether it was printed. Check the printer’s last receipt: if it is there, do nothing; if not, issue the receipt again.',
    );
    expect(clock.now() - Date.UTC(2026, 10, 21, 9, 0)).toBeGreaterThanOrEqual(15 * 60_000);
    expect(receiptsSent(r)).toBe(1);
  });

  it('keeps resendWhenNotPrinted: a printer back with the counters unmoved gets the receipt once more', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0));
    r = await rig({ items, payments, clock, sim: { clock } });
    // A first receipt gives the driver a baseline; the second is dropped before printing, the
    // printer then away for a while.
    await r.driver.execute(saleJob('first'), recordingExecuteContext());
    await r.sim.setFault('dropBeforePrint', true);
    const sim = r.sim;
    const off = sim.onHandled((request) => {
      if (request.root !== 'printerFiscalReceipt') return;
      off();
      void sim.setFault('refused', true);
    });
    const run = r.driver.execute(saleJob('second'), recordingExecuteContext());
    const rigged = r;
    await eventually('the driver to wait for the printer', () => waiting(rigged) && clock.pending > 0);
    await r.sim.setFault('dropBeforePrint', false);
    await r.sim.setFault('refused', false);
    await clock.advance(1_000);
    const result = await run;
    expect(english(result.notes)).toMatch(/^Receipt 0001-0002 /);
    expect(printedOf(r.sim, 'sale')).toHaveLength(2);
  });
});
