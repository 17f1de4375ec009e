import { afterEach, describe, expect, it } from 'vitest';
import type { Driver } from '../../../src/drivers-api/types.js';
import { english } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { rejection } from '../../helpers/rejection.js';
import { inWords, orderItem, payment, printedOf, type Rig, rig, saleJob } from './helpers.js';

/**
 * The daily closure on demand and after a refusal: verified by the printer's state before and
 * after, settled from it when the answer is lost, never sent twice for one fiscal day; and a
 * receipt refused because the day is open too long (status 17) closes the day and prints.
 */

const items = [orderItem('a', { unitGross: 40, rate: 10, type: 'SpaceOrder' })];
const payments = [payment('p', 'CashPayment', 40)];
let r: Rig | undefined;

afterEach(async () => {
  await r?.close();
  r = undefined;
});

function action(driver: Driver, name: string) {
  const found = driver.actions?.().find((a) => a.name === name);
  if (!found) throw new Error(`no action ${name}`);
  return (params: Record<string, string> = {}) =>
    found.run(found.params.parse(params), new AbortController().signal);
}

describe('the Z report on demand', () => {
  it('closes an open day, verified before and after, and says so on the page', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    const result = await action(r.driver, 'z-report')();
    expect(english(result.notes)).toBe('Daily closure (Z report 1) done on RT 99MEY123456');
    expect(result.details).toMatchObject({ status: 'done', zNumber: 1, reason: 'staff' });
    // Status (day open), last document (Z before), the report, status again (day closed); the
    // department programming is read after it (programming-check.ts).
    const at = r.sim.requests.lastIndexOf('printerFiscalReport');
    expect(r.sim.requests.slice(at - 2, at + 2)).toEqual([
      'printerCommand',
      'printerCommand',
      'printerFiscalReport',
      'printerCommand',
    ]);
    expect(printedOf(r.sim, 'z-report')).toHaveLength(1);
    const facts = inWords(r.driver.status()).facts;
    expect(facts).toMatchObject({ lastClosureStatus: 'done', lastClosureZ: 1, fiscalDayOpen: false });
    expect(facts.lastClosure).toMatch(
      /^done at \d{1,2} \w{3}, \d{2}:\d{2}:\d{2}, Z 1 \(by staff: verified\)$/,
    );
    expect(r.store.get('closureInFlight')).toBeNull();
  });

  it('sends the report as printXZReport by default (OCA’s warning), printZReport when configured', async () => {
    r = await rig({ items, payments, driver: { dailyClosure: { enabled: false, command: 'printZReport' } } });
    const bodies: string[] = [];
    r.sim.onHandled((h) => bodies.push(h.root));
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    await action(r.driver, 'z-report')();
    expect(printedOf(r.sim, 'z-report')).toHaveLength(1);
    await r.close();
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    await action(r.driver, 'z-report')();
    expect(printedOf(r.sim, 'z-report')).toHaveLength(1);
    expect(bodies).toContain('printerFiscalReport');
  });

  it('skips a day with no document since the last closure: nothing is printed', async () => {
    r = await rig({ items, payments });
    const result = await action(r.driver, 'z-report')();
    expect(english(result.notes)).toContain('No daily closure needed');
    expect(printedOf(r.sim, 'z-report')).toEqual([]);
    expect(inWords(r.driver.status()).facts.lastClosureStatus).toBe('skipped');
  });

  it('a Z report whose answer is lost is settled from the printer’s state, never sent again', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    // The report prints and the connection drops before its answer (reads are not affected).
    await r.sim.setFault('dropAfterPrint', true);
    const result = await action(r.driver, 'z-report')();
    await r.sim.setFault('dropAfterPrint', false);
    expect(english(result.notes)).toBe(
      'Daily closure (Z report 1) done on RT 99MEY123456, as the printer’s state shows after its answer was lost',
    );
    expect(printedOf(r.sim, 'z-report')).toHaveLength(1);
    // Asking again finds the day closed: skipped, still one Z.
    expect(english((await action(r.driver, 'z-report')()).notes)).toContain('No daily closure needed');
    expect(printedOf(r.sim, 'z-report')).toHaveLength(1);
  });

  it('a Z report that never reached the printer is reported failed, and the next one goes through', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    await r.sim.setFault('dropBeforePrint', true);
    const error = await rejection(action(r.driver, 'z-report')());
    expect(error.code).toBe('DEVICE_ERROR');
    expect(english(error.notes)).toContain(
      'The Z report was not printed: the printer did not take the Z report',
    );
    expect(inWords(r.driver.status()).facts.lastClosureStatus).toBe('failed');
    await r.sim.setFault('dropBeforePrint', false);
    expect(english((await action(r.driver, 'z-report')()).notes)).toBe(
      'Daily closure (Z report 1) done on RT 99MEY123456',
    );
    expect(printedOf(r.sim, 'z-report')).toHaveLength(1);
  });

  it('a refused Z report (paper out) fails with the printer’s reason and leaves nothing in flight', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    await r.sim.setFault('paperOut', true);
    const error = await rejection(action(r.driver, 'z-report')());
    expect(english(error.notes)).toContain('out of paper');
    expect(r.store.get('closureInFlight')).toBeNull();
    expect(printedOf(r.sim, 'z-report')).toEqual([]);
  });

  it('prints the X report, which changes nothing', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    expect(english((await action(r.driver, 'x-report')()).notes)).toBe(
      'X report (daily financial report) printed on RT 99MEY123456',
    );
    expect(r.sim.counters).toEqual({ z: 1, doc: 1 });
    expect(printedOf(r.sim, 'x-report')).toHaveLength(1);
  });
});

describe('a receipt refused because the fiscal day is open too long (status 17)', () => {
  it('closes the day and prints the receipt, and the Notes say so', async () => {
    r = await rig({ items, payments });
    await r.sim.setFault('dayOpenOver24h', true);
    // The printer waits for the closure (rtNoWorkingPeriod 1); the Z report lifts the switch.
    const off = r.sim.onHandled((h) => {
      if (h.root === 'printerFiscalReport') void r?.sim.setFault('dayOpenOver24h', false);
    });
    const result = await r.driver.execute(saleJob('a'), recordingExecuteContext());
    off();
    expect(english(result.notes)).toMatch(
      /^Receipt 0002-0001 on RT 99MEY123456, .*\. The fiscal day had been open too long: the agent ran the daily closure \(Z report\) first \(Z 1\)$/,
    );
    expect(result.details).toMatchObject({ receiptNumber: '0002-0001', closedDayFirst: 1 });
    expect(r.sim.printed.map((d) => d.kind)).toEqual(['z-report', 'sale']);
    expect(inWords(r.driver.status()).facts.lastClosure).toMatch(
      /^done at .*\(fiscal day open too long: verified\)$/,
    );
  });

  it('when the closure fails too, nothing is printed and the Notes tell staff to run it', async () => {
    r = await rig({ items, payments });
    await r.sim.setFault('dayOpenOver24h', true);
    const off = r.sim.onHandled((h) => {
      if (h.root === 'printerCommand') return;
      void r?.sim.setFault('paperOut', true);
    });
    const error = await rejection(r.driver.execute(saleJob('a'), recordingExecuteContext()));
    off();
    expect(error.code).toBe('DEVICE_ERROR');
    expect(english(error.notes)).toContain('the daily closure (Z report) failed too');
    expect(printedOf(r.sim, 'sale')).toEqual([]);
  });

  it('a 17 on a day the agent knows opened an hour ago is not the day: refused as before, no closure', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    // Status 17 for another reason: the day opened with this agent's receipt just now.
    await r.sim.setFault('refuseDocuments', { status: '17' });
    const error = await rejection(r.driver.execute(saleJob('b'), recordingExecuteContext()));
    expect(error.details).toMatchObject({ printerStatusCode: '17' });
    expect(printedOf(r.sim, 'z-report')).toEqual([]);
  });
});
