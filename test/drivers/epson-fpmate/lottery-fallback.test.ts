import { afterEach, describe, expect, it } from 'vitest';
import { item, type LawBench, lawBench, pay, publish, run, said } from '../../fiscal-law/helpers.js';

/**
 * The kit's fallback after a refused document (`drivers/fiscal-it/rt/send.ts` `sendInstead`) on
 * the Epson family: status 30 on a lottery code ("CHECKSUM ERRATO", fiskaltrust
 * `Models/ErrorInfoFactory.cs` L57) sends the receipt again without the code only when the
 * witnesses (`directIO 1387`, the last document) prove the refused one unprinted; when they
 * cannot tell, nothing is sent again and staff are asked to check the printer.
 */

let bench: LawBench | undefined;
afterEach(async () => {
  await bench?.close();
  bench = undefined;
});

const consumer = { legalIdentifiers: { ItLotteryCode: 'AB12CD34' } };
const receipts = (b: LawBench) => b.sent.filter((body) => body.includes('<printerFiscalReceipt>'));

describe('a lottery code the printer refuses (status 30)', () => {
  it('goes again without the code once the last document proves the first attempt unprinted', async () => {
    bench = await lawBench({}, { refusedLotteryCodes: ['AB12CD34'] });
    publish(bench, [item('room', 110, 10)], [pay('p', 'CreditCardPayment', 110)]);
    const out = await run(bench, consumer);
    expect(out.error).toBeUndefined();
    expect(out.doc?.lottery).toBeUndefined();
    const sent = receipts(bench);
    expect(sent.map((b) => b.includes('printRecLotteryID'))).toEqual([true, false]);
    expect(said(out.result?.notes)).toContain('The lottery code was not accepted by the printer');
    expect(bench.sim.printed.filter((d) => d.kind === 'sale')).toHaveLength(1);
  });

  it('sends nothing again when the last document cannot be read after the refusal: check the printer', async () => {
    bench = await lawBench({}, { refusedLotteryCodes: ['AB12CD34'] });
    publish(bench, [item('room', 110, 10)], [pay('p', 'CreditCardPayment', 110)]);
    expect((await run(bench)).doc?.kind).toBe('sale');
    const before = receipts(bench).length;
    await bench.sim.setFault('lastDocUnreadable', true);
    const out = await run(bench, consumer);
    expect(out.error?.code).toBe('STATE_UNKNOWN');
    expect(receipts(bench).length - before).toBe(1);
    expect(bench.sim.printed.filter((d) => d.kind === 'sale')).toHaveLength(1);
  });
});
