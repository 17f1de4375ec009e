import { afterEach, describe, expect, it } from 'vitest';
import { historyKeys } from '../../../drivers/fiscal-it/rt/history-ring.js';
import type { Driver } from '../../../src/drivers-api/types.js';
import { english, messageRenderer } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { rejection } from '../../helpers/rejection.js';
import { orderItem, payment, printedOf, type Rig, rig, saleJob } from './helpers.js';

/**
 * A copy of a receipt as a staff action (the page's button, `frontdesk-agent reprint`): the
 * printer's own copy from its journal, directIO 3098 with operator, DDMMYY and the receipt number
 * twice (gutenbergPrinter-epson report/Report.java; Odoo l10n_it_pos printContentByNumbers is
 * the same copy) — not a fiscal document: no counter moves.
 */

const items = [orderItem('a', { unitGross: 55, rate: 22 })];
const payments = [payment('p', 'CreditCardPayment', 55)];
let r: Rig | undefined;

afterEach(async () => {
  await r?.close();
  r = undefined;
});

function reprint(driver: Driver) {
  const action = driver.actions?.().find((a) => a.name === 'reprint');
  if (!action) throw new Error('no reprint action');
  return (params: Record<string, string>) =>
    action.run(action.params.parse(params), new AbortController().signal);
}

describe('a copy of a receipt (staff action)', () => {
  it('prints the journal copy of a receipt the agent printed, its date from the agent’s record', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    await r.driver.execute(saleJob('b'), recordingExecuteContext());
    const day = (printedOf(r.sim, 'sale')[0]?.dateTime ?? '').slice(0, 10);
    const shown = `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
    const result = await reprint(r.driver)({ receipt: '1-1' });
    expect(english(result.notes)).toBe(
      `Copy of receipt 0001-0001 of ${shown} printed from the electronic journal of RT 99MEY123456 (not a fiscal document)`,
    );
    expect(messageRenderer('it').render(result.notes)).toBe(
      `Copia dello scontrino 0001-0001 del ${shown} stampata dal giornale elettronico di RT 99MEY123456 (non è un documento fiscale)`,
    );
    const copies = printedOf(r.sim, 'non-fiscal');
    expect(copies.map((c) => c.copyOf)).toEqual([{ z: 1, doc: 1 }]);
    // Not a fiscal document: the next receipt is number 3.
    const next = await r.driver.execute(saleJob('c'), recordingExecuteContext());
    expect(english(next.notes)).toMatch(/^Receipt 0001-0003 /);
  });

  it('asks for the date of a receipt it does not know; a receipt the journal lacks is said so, nothing printed', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    await r.driver.execute(saleJob('b'), recordingExecuteContext());
    for (const key of historyKeys()) r.store.set(key, undefined);
    const unknown = await rejection(reprint(r.driver)({ receipt: '0001-0001' }));
    expect(unknown.code).toBe('COMMAND_INVALID');
    expect(english(unknown.notes)).toBe(
      'The agent does not know when receipt 0001-0001 was printed; give its date (YYYY-MM-DD). Nothing was printed.',
    );
    const day = (printedOf(r.sim, 'sale')[0]?.dateTime ?? '').slice(0, 10);
    expect(english((await reprint(r.driver)({ receipt: '0001-0001', date: day })).notes)).toMatch(
      /^Copy of receipt 0001-0001 /,
    );
    const missing = await rejection(reprint(r.driver)({ receipt: '0001-0009', date: day }));
    expect(english(missing.notes)).toMatch(
      /^The printer’s journal has no receipt number 0001-0009 on \d\d\/\d\d\/\d{4} \(it answered status 13\); nothing was printed\./,
    );
    expect(printedOf(r.sim, 'non-fiscal')).toHaveLength(1);
  });

  it('paper out: refused with the printer’s code, nothing printed', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    await r.sim.setFault('paperOut', true);
    const error = await rejection(reprint(r.driver)({ receipt: '0001-0001' }));
    expect(error.code).toBe('DEVICE_ERROR');
    expect(english(error.notes)).toBe(
      'The printer did not print the copy (EPTR_REC_EMPTY). Check the printer, then try again.',
    );
    expect(printedOf(r.sim, 'non-fiscal')).toHaveLength(0);
  });
});
