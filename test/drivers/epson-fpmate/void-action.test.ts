import { afterEach, describe, expect, it } from 'vitest';
import { epsonFpmateFactory } from '../../../drivers/epson-fpmate/index.js';
import { historyKeys } from '../../../drivers/fiscal-it/rt/history-ring.js';
import type { Driver, DriverContext } from '../../../src/drivers-api/types.js';
import type { Message } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { createHttpClient, type HttpClient } from '../../../src/transport/http.js';
import { recordingExecuteContext, testDriverContext } from '../../helpers/driver-context.js';
import { eventually } from '../../helpers/eventually.js';
import { rejection } from '../../helpers/rejection.js';
import { orderItem, payment, printedOf, type Rig, rig, saleJob } from './helpers.js';

/**
 * Voiding a receipt as a staff action (the page's button, `frontdesk-agent void`): the date from
 * the agent's own record, the printer asked first (directIO 9205), exactly once through a lost
 * answer and through a kill.
 */

const items = [orderItem('a', { unitGross: 55, rate: 22 })];
const payments = [payment('p', 'CreditCardPayment', 55)];
let r: Rig | undefined;
const abandoned: Driver[] = [];

afterEach(async () => {
  await r?.close();
  r = undefined;
  abandoned.length = 0;
});

function voidAction(driver: Driver) {
  const action = driver.actions?.().find((a) => a.name === 'void');
  if (!action) throw new Error('no void action');
  return (params: Record<string, string>) =>
    action.run(action.params.parse(params), new AbortController().signal);
}

describe('void a receipt (staff action)', () => {
  it('voids a receipt the agent printed, its date from the agent’s record, after asking the printer', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    const before = r.sim.directIo.length;
    const result = await voidAction(r.driver)({ receipt: '1-1' });
    expect(english(result.notes)).toMatch(
      /^Void 0001-0002 on RT 99MEY123456, .*total 55\.00 EUR \(void of Z 1 no\. 1 of \d{2}\/\d{2}\/\d{4}\)$/,
    );
    expect(r.sim.directIo.slice(before)).toEqual(['9205']);
    expect(printedOf(r.sim, 'void')).toHaveLength(1);
    expect(printedOf(r.sim, 'sale')[0]?.voided).toBe(true);
    expect(english(r.driver.status().facts.lastAction as Message)).toMatch(
      /^void at .*: Void 0001-0002 on RT 99MEY123456/,
    );

    // Again: the printer says it cannot (9205), nothing is printed.
    const again = await rejection(voidAction(r.driver)({ receipt: '0001-0001' }));
    expect(again.code).toBe('FISCAL_REJECTED');
    expect(english(again.notes)).toMatch(
      /^The fiscal printer says receipt 0001-0001 of \d{2}\/\d{2}\/\d{4} cannot be voided/,
    );
    expect(printedOf(r.sim, 'void')).toHaveLength(1);
  });

  it('asks for the date of a receipt it does not know, and takes one given', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    await r.driver.execute(saleJob('b'), recordingExecuteContext());
    for (const key of historyKeys()) r.store.set(key, undefined);
    const unknown = await rejection(voidAction(r.driver)({ receipt: '0001-0001' }));
    expect(unknown.code).toBe('COMMAND_INVALID');
    expect(english(unknown.notes)).toBe(
      'The agent does not know when receipt 0001-0001 was printed; give its date (YYYY-MM-DD). Nothing was printed.',
    );
    const day = (printedOf(r.sim, 'sale')[0]?.dateTime ?? '').slice(0, 10);
    expect(english((await voidAction(r.driver)({ receipt: '0001-0001', date: day })).notes)).toMatch(
      /^Void 0001-0003 /,
    );
    // The printer's last document (1387) gives the date of the newest receipt.
    await r.driver.execute(saleJob('c'), recordingExecuteContext());
    for (const key of historyKeys()) r.store.set(key, undefined);
    expect(english((await voidAction(r.driver)({ receipt: '0001-0004' })).notes)).toMatch(/^Void 0001-0005 /);
    expect(() => voidAction(r?.driver as Driver)({ receipt: 'twelve' })).toThrow();
  });

  it('a void whose answer is lost is confirmed from the printer’s counters, never sent twice', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    await r.sim.setFault('dropAfterPrint', true);
    const result = await voidAction(r.driver)({ receipt: '0001-0001' });
    await r.sim.setFault('dropAfterPrint', false);
    expect(english(result.notes)).toMatch(
      /^Void 0001-0002 .*Confirmed from the printer’s memory after its answer was lost$/,
    );
    expect(printedOf(r.sim, 'void')).toHaveLength(1);
    expect(r.store.get('pendingAction')).toBeNull();
  });

  it('a kill while the void is on its way is settled at the next start from the printer’s counters', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    let sent = 0;
    const dying: DriverContext['http'] = (): HttpClient => {
      const real = createHttpClient();
      return {
        close: () => real.close(),
        request: async (request) => {
          if (!String(request.body ?? '').includes('VOID 0001')) return real.request(request);
          sent += 1;
          await real.request(request);
          return new Promise(() => undefined); // the agent dies before the answer
        },
      };
    };
    const killed = epsonFpmateFactory.create(
      r.options,
      testDriverContext({ store: r.store, orderItems: items, payments, http: dying }),
    );
    abandoned.push(killed);
    void voidAction(killed)({ receipt: '0001-0001' });
    await eventually('the void sent once', () => sent === 1, { intervalMs: 5 });
    expect(sent).toBe(1);
    expect(r.store.get('pendingAction')).toMatchObject({ action: 'void', checkpoint: { phase: 'sending' } });
    const next = r.restart();
    await next.open(new AbortController().signal);
    expect(r.store.get('pendingAction')).toBeNull();
    expect(english(next.status().facts.lastAction as Message)).toMatch(
      /^void at .*: Void 0001-0002 on RT 99MEY123456, .*Confirmed from the printer’s memory after its answer was lost$/,
    );
    expect(printedOf(r.sim, 'void')).toHaveLength(1);
  });
});
