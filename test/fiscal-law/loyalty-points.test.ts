import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintedDocument } from '../../drivers/epson-fpmate/simulator/index.js';
import { billCents, item, type LawBench, lawBench, pay, publish, refundOf, run, said } from './helpers.js';

/**
 * Issue 39 item 2: loyalty points the hotel funds are a discount that lowers the taxable amount;
 * points a third party funds stay a payment (`loyaltyPoints: payment`). Each case a bill through
 * the real Epson driver (the fiscal core, `drivers/fiscal-it/loyalty.ts`) to the simulated RT.
 * Sources:
 *
 * - [ART13] art. 13 c. 1 DPR 633/72: the taxable amount is the consideration due under the
 *   contract, "aumentato delle integrazioni direttamente connesse con i corrispettivi dovuti da
 *   altri soggetti" (what a third party pays for the points stays in it).
 * - [R152] Ris. AdE 152/E (11 June; FiscoOggi, "Sconto incondizionato per abbonati. Va indicato
 *   nello scontrino fiscale"): a discount agreed for each purchase is unconditional and shows on
 *   the receipt of that sale, lowering its base.
 * - [AdE341] the law suite's own reading (`deposits-payments-refunds.test.ts`): hotel-funded points
 *   are a discount, not a collection; [MS] Microsoft EpsonFP90IIISample maps a loyalty card to
 *   6/00, sconto a pagare — the `payment` form.
 *
 * The VAT is what an RT computes on a rate's total, by scorporo: gross × rate / (100 + rate).
 */

let bench: LawBench;
beforeAll(async () => {
  bench = await lawBench();
});
afterAll(async () => {
  await bench?.close();
});

/** The VAT (cents) a printed receipt carries at `rate`: its lines and discounts at that rate, scorporo. */
function vatAt(doc: PrintedDocument | undefined, rate: number): number {
  const gross = (doc?.lines ?? [])
    .filter((l) => l.vatClass === `${rate}%` && (l.type !== 'adjustment' || (l.adjustmentType ?? 0) < 10))
    .reduce((s, l) => s + l.amountCents, 0);
  return gross - Math.round((gross * 100) / (100 + rate));
}

/** The example: a €200 room at 10 %, €50 of it paid with points and the rest by card. */
function roomWithPoints(on: LawBench): void {
  publish(
    on,
    [item('room', 200, 10, { name: 'Camera 101' })],
    [pay('pts', 'ExternalPayment:LoyaltyPoints', 50), pay('p', 'CreditCardPayment', 150)],
  );
}

const discounts = (doc: PrintedDocument | undefined) =>
  (doc?.lines ?? [])
    .filter((l) => l.adjustmentType === 3)
    .map((l) => [l.department, l.vatClass, l.amountCents]);

describe('loyalty points the hotel funds: a discount that lowers the taxable amount [ART13][R152][AdE341]', () => {
  it('€50 of points on a €200 room at 10 %: a €50 discount on the 10 % department, VAT €13.64, not €18.18', async () => {
    roomWithPoints(bench);
    const out = await run(bench);
    expect(out.error).toBeUndefined();
    expect(discounts(out.doc)).toEqual([[2, '10%', -5000]]);
    expect(out.doc?.totalCents).toBe(15000);
    expect(out.doc?.payments).toEqual([
      expect.objectContaining({ paymentType: 2, index: 1, amountCents: 15000 }),
    ]);
    expect(vatAt(out.doc, 10)).toBe(1364);
    // The receipt totals the bill less the points, to the cent.
    expect(out.doc?.totalCents).toBe(billCents(bench.items) - 5000);
  });

  it('spreads the points over the VAT-rate departments in proportion, never over the city tax', async () => {
    publish(
      bench,
      [
        item('room', 300, 10, { name: 'Camera 101' }),
        item('bar', 100, 22, { name: 'Minibar' }),
        item('tax', 8, 0, { name: 'Tassa di soggiorno', type: 'CityTax' }),
      ],
      [pay('pts', 'ExternalPayment:LoyaltyCard', 40.01), pay('p', 'CashPayment', 367.99)],
    );
    const out = await run(bench);
    expect(out.error).toBeUndefined();
    expect(discounts(out.doc)).toEqual([
      [2, '10%', -3001],
      [1, '22%', -1000],
    ]);
    expect(out.doc?.lines.find((l) => l.vatClass === 'N1')?.amountCents).toBe(800);
    expect(out.doc?.totalCents).toBe(billCents(bench.items) - 4001);
    expect(out.doc?.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(36799);
  });

  it('after a deposit deducted at its own rate: the points take what the receipt still carries', async () => {
    publish(
      bench,
      [item('room', 100, 10, { name: 'Camera 101' }), item('bar', 100, 22, { name: 'Minibar' })],
      [
        pay('d', 'ExternalPayment:DepositCreditCard', 100, [{ rate: 10, gross: 100 }]),
        pay('pts', 'ExternalPayment:LoyaltyPoints', 50),
        pay('p', 'CreditCardPayment', 50),
      ],
    );
    const out = await run(bench);
    expect(out.error).toBeUndefined();
    expect(discounts(out.doc)).toEqual([[1, '22%', -5000]]);
    expect(out.doc?.totalCents).toBe(5000);
  });

  it('refuses points above what the receipt carries at a VAT rate, naming the bill, before anything prints', async () => {
    publish(
      bench,
      [
        item('room', 20, 10, { name: 'Camera 101' }),
        item('tax', 8, 0, { name: 'Tassa di soggiorno', type: 'CityTax' }),
      ],
      [pay('pts', 'ExternalPayment:LoyaltyPoints', 25), pay('p', 'CashPayment', 3)],
    );
    const out = await run(bench);
    expect(out.error?.code).toBe('FISCAL_REJECTED');
    expect(said(out.error?.notes)).toContain('Bill 2001 takes 25.00 EUR of loyalty points off its price');
    expect(out.xml).toBeUndefined();
  });

  it('a refund refunds what was paid: the points come off the refunded lines', async () => {
    roomWithPoints(bench);
    const sale = await run(bench);
    if (!sale.doc) throw new Error('the sale did not print');
    publish(
      bench,
      [item('room', -200, 10, { name: 'Camera 101' })],
      [pay('pts', 'ExternalPayment:LoyaltyPoints', -50), pay('p', 'CreditCardPayment', -150)],
    );
    const out = await run(bench, { refund: refundOf(sale.doc) });
    expect(out.error).toBeUndefined();
    expect(out.doc?.kind).toBe('refund');
    expect(out.doc?.lines.map((l) => [l.vatClass, l.amountCents])).toEqual([['10%', 15000]]);
    expect(out.doc?.totalCents).toBe(15000);
  });
});

describe('loyalty points a third party funds: loyaltyPoints: payment [ART13][MS]', () => {
  it('prints them as sconto a pagare 6/0; the taxable amount stays the full price (VAT €18.18)', async () => {
    const funded = await lawBench({ loyaltyPoints: 'payment' });
    try {
      roomWithPoints(funded);
      const out = await run(funded);
      expect(out.error).toBeUndefined();
      expect(discounts(out.doc)).toEqual([]);
      expect(out.doc?.payments[0]).toMatchObject({ paymentType: 6, index: 0, amountCents: 5000 });
      expect(out.doc?.totalCents).toBe(billCents(funded.items));
      expect(vatAt(out.doc, 10)).toBe(1818);
    } finally {
      await funded.close();
    }
  });
});
