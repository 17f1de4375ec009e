import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderItemSchema } from '../../src/connector/wire.js';
import { billCents, item, type LawBench, lawBench, pay, publish, run, SERIAL, said } from './helpers.js';

/**
 * Issue 24, deposits, the payment map, refunds without a reference, VAT-rate ties and the
 * decimal separator, each case a bill through the real Epson driver (so through the fiscal core,
 * `drivers/fiscal-it/`) to the Epson printer simulator. Sources:
 *
 * - [DPR6] art. 6 c. 4 DPR 633/72 and AdE Circ. 3/E of 21-2-2020: an acconto is taxed when paid,
 *   the commercial document issued at the (partial) payment — so its own receipt carried the VAT,
 *   and the saldo deducts it at that rate; [PC] 721377/procassa `lib/epsonxml.js` `itemAcconto`
 *   (adjustmentType 10 on the deposit's named department).
 * - [BK] Booking.com partner help "Devo fornire la fattura agli ospiti?": the host issues the
 *   document for the full amount at check-out, the OTA having collected the money; [ODOO] Odoo
 *   `l10n_it_pos` `models/pos_payment_method.py` help and [EPG] Epson ePOS Fiscal Print
 *   Development Guide revision history ("Credit or credit card indexes … 0 10"): 2/0 is credit
 *   (not paid), cards 2/1–10.
 * - [MS] microsoft/Dynamics365Commerce.Solutions EpsonFP90IIISample
 *   `Constants/DocumentAttributeConstants.cs`: a loyalty card pays as 6/00 (sconto a pagare);
 *   [AdE341] Risposta AdE 341/2023: hotel-funded points are a discount, not a collection (so by
 *   default they lower the price, `loyalty-points.test.ts`; 6/0 is `loyaltyPoints: payment`);
 *   [FS] fiskaltrust/middleware scu-it `Utilities/EpsonCommandFactory.cs`: a voucher pays 6/1.
 * - [L207] L. 207/2024 art. 1 c. 74–77 and [P424470] AdE Provv. 31-10-2025 prot. 424470 (read in
 *   summaries: `drivers/fiscal-it/README.md`, "The OTA prepayment and the 2026 POS–RT pairing"):
 *   each electronic payment's form and amount on the documento commerciale; nothing about an OTA's
 *   prepayment, so its mapping is unchanged.
 * - [PD21] AdE principio di diritto 21/2019: a refund needs the data of the original document;
 *   [FSND] fiskaltrust `EpsonRTPrinterSCU.cs`: `REFUND 0000 0000 <date> ND` when there is none.
 * - [EPS] Epson's own input sample, EpsonFpSuite 2.2.0 `Italy/TxtExamples/ScoDocCommPayCash.txt`
 *   (software.rsaweb.com/Misuratori_Fiscali/EpsonFpSuite_Release_2.2.0.zip): quantities `1,234`,
 *   `2,5`, prices `21,61` — a decimal comma; fiskaltrust `Utilities/EpsonFormatters.cs` the same.
 */

let bench: LawBench;
beforeAll(async () => {
  bench = await lawBench();
});
afterAll(async () => {
  await bench?.close();
});

/** A €100 room at 10 % and a €50 minibar at 22 %: the deposit example. */
const stay = () => [item('room', 100, 10, { name: 'Camera 101' }), item('bar', 50, 22, { name: 'Minibar' })];

describe('deposits (acconto), deducted at the rate of their own receipt [DPR6][PC]', () => {
  it('deducts a deposit receipted at 10 % from the 10 % department only, and the receipt totals the bill less it', async () => {
    publish(bench, stay(), [
      pay('d', 'ExternalPayment:DepositCreditCard', 80, [{ rate: 10, gross: 80 }]),
      pay('p', 'CreditCardPayment', 70),
    ]);
    const out = await run(bench);
    expect(out.error).toBeUndefined();
    const deductions = out.doc?.lines.filter((l) => l.adjustmentType === 10);
    expect(deductions).toEqual([
      expect.objectContaining({ department: 2, vatClass: '10%', amountCents: -8000 }),
    ]);
    expect(out.doc?.totalCents).toBe(billCents(bench.items) - 8000);
    expect(out.doc?.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(7000);
  });

  it('splits a deposit receipted at two rates as its receipt did', async () => {
    publish(bench, stay(), [
      pay('d', 'ExternalPayment:DepositWireTransfer', 80, [
        { rate: 10, gross: 60 },
        { rate: 22, gross: 20 },
      ]),
      pay('p', 'CashPayment', 70),
    ]);
    const out = await run(bench);
    const deductions = out.doc?.lines
      .filter((l) => l.adjustmentType === 10)
      .map((l) => [l.vatClass, l.amountCents]);
    expect(deductions).toEqual([
      ['10%', -6000],
      ['22%', -2000],
    ]);
    expect(out.doc?.totalCents).toBe(7000);
  });

  it('refuses — before anything prints — a €120 deposit at 10 % against a €100 room at 10 % (the issue’s case: never taken from the 22 % department)', async () => {
    publish(bench, stay(), [
      pay('d', 'ExternalPayment:DepositCash', 120, [{ rate: 10, gross: 120 }]),
      pay('p', 'CashPayment', 30),
    ]);
    const out = await run(bench);
    expect(out.error?.code).toBe('FISCAL_REJECTED');
    expect(said(out.error?.notes)).toContain(
      'Bill 2001 deducts a deposit (acconto) of 120.00 EUR at VAT 10 %',
    );
    expect(out.xml).toBeUndefined();
    expect(out.doc).toBeUndefined();
  });

  it('refuses a deposit whose rate the platform does not give, naming the bill, before anything prints', async () => {
    publish(bench, stay(), [pay('d', 'ExternalPayment:DepositCash', 50), pay('p', 'CashPayment', 100)]);
    const out = await run(bench);
    expect(out.error?.code).toBe('FISCAL_REJECTED');
    expect(said(out.error?.notes)).toContain(
      'Bill 2001 deducts a deposit (acconto) whose VAT rate the platform does not give',
    );
    expect(out.xml).toBeUndefined();
  });
});

describe('the payment map: never "not collected" for money someone collected', () => {
  it.each([
    ['an OTA’s prepayment → electronic 2/1 [BK][ODOO][EPG]', 'ExternalPayment:Prepayment', 2, 1],
    ['a card → 2/1, never 2/0 (credit) [EPG]', 'CreditCardPayment', 2, 1],
    ['a voucher → buono multiuso 6/1 [FS]', 'ExternalPayment:Voucher', 6, 1],
    [
      'an invoice to follow → not collected, invoice 5/3 [FS: accounts receivable]',
      'InvoicePayment:Receivable',
      5,
      3,
    ],
  ])('%s', async (_case, type, paymentType, index) => {
    publish(bench, stay(), [pay('x', type, 50), pay('p', 'CashPayment', 100)]);
    const out = await run(bench);
    expect(out.error).toBeUndefined();
    expect(out.doc?.payments[0]).toMatchObject({ paymentType, index, amountCents: 5000 });
    expect(out.doc?.totalCents).toBe(billCents(bench.items));
  });
});

describe('the 2026 POS–RT pairing (issue 39 item 5) [L207][P424470]', () => {
  it('a stay partly prepaid to an OTA: each payment on the receipt with its form and amount, the prepayment electronic as before', async () => {
    publish(bench, stay(), [
      pay('ota', 'ExternalPayment:Prepayment', 100),
      pay('p', 'CreditCardPayment', 50),
    ]);
    const out = await run(bench);
    expect(out.error).toBeUndefined();
    expect(out.doc?.payments.map((p) => [p.paymentType, p.index, p.amountCents])).toEqual([
      [2, 1, 10000],
      [2, 1, 5000],
    ]);
    expect(out.doc?.totalCents).toBe(billCents(bench.items));
  });
});

describe('refunds without a reference [PD21]', () => {
  const refundBill = () =>
    publish(bench, [item('bar', -50, 22, { name: 'Minibar' })], [pay('p', 'CashPayment', -50)]);

  it('are refused by default with Notes saying how to issue them, and nothing is sent', async () => {
    refundBill();
    const out = await run(bench, { refund: {} });
    expect(out.error?.code).toBe('COMMAND_INVALID');
    expect(said(out.error?.notes)).toContain(
      'Issue it again with the original receipt’s number, Z (closure) number and date on the platform',
    );
    expect(said(out.error?.notes)).toContain('unreferencedRefunds');
    expect(out.xml).toBeUndefined();
  });

  it('print as ND (not documented) only when unreferencedRefunds is on [FSND]', async () => {
    const lenient = await lawBench({ unreferencedRefunds: true });
    try {
      publish(lenient, [item('bar', -50, 22, { name: 'Minibar' })], [pay('p', 'CashPayment', -50)]);
      const out = await run(lenient, { refund: {} });
      expect(out.doc).toMatchObject({ kind: 'refund', totalCents: 5000 });
      expect(out.doc?.reference).toMatchObject({ kind: 'REFUND', z: 0, doc: 0, serial: 'ND' });
    } finally {
      await lenient.close();
    }
  });

  it('a refund naming its original prints with it (the serial of this RT)', async () => {
    publish(bench, stay(), [pay('p', 'CashPayment', 150)]);
    const sale = await run(bench);
    if (!sale.doc) throw new Error('the sale did not print');
    refundBill();
    const out = await run(bench, {
      refund: {
        sequence: String(sale.doc.z),
        receiptNumber: String(sale.doc.doc),
        dateTimeUtc: new Date(sale.doc.at).toISOString(),
      },
    });
    expect(out.doc?.reference).toMatchObject({
      kind: 'REFUND',
      z: sale.doc.z,
      doc: sale.doc.doc,
      serial: SERIAL,
    });
    expect(out.doc?.totalCents).toBe(5000);
  });
});

describe('a VAT rate the amounts cannot tell', () => {
  it('refuses a line whose amounts fit 4 % and 5 % alike, naming it, instead of printing at the first rate', async () => {
    // 0.20 net, 0.01 tax: 4 % and 5 % both round to one cent.
    const water = OrderItemSchema.parse({
      Id: 'w',
      UnitCount: 1,
      UnitAmount: {
        Currency: 'EUR',
        GrossValue: 0.21,
        NetValue: 0.2,
        TaxValues: [{ Code: 'IT-X', Value: 0.01 }],
      },
      Amount: {
        Currency: 'EUR',
        GrossValue: 0.21,
        NetValue: 0.2,
        TaxValues: [{ Code: 'IT-X', Value: 0.01 }],
      },
      Type: 'ProductOrder',
      Notes: 'Acqua',
    });
    publish(bench, [water], [pay('p', 'CashPayment', 0.21)]);
    const out = await run(bench);
    expect(out.error?.code).toBe('FISCAL_REJECTED');
    expect(said(out.error?.notes)).toContain(
      'The VAT rate of the bill line "Acqua" cannot be told from its amounts',
    );
    expect(said(out.error?.notes)).toContain('taxCodeRates');
    expect(out.xml).toBeUndefined();
  });
});

describe('amounts in the fpmate XML [EPS]', () => {
  it('carry a decimal comma — prices, payments and quantities — and the printer totals them to the cent', async () => {
    publish(
      bench,
      [item('coffee', 18.75, 10, { name: 'Caffè', units: 2.5 })],
      [pay('p', 'CashPayment', 18.75)],
    );
    const out = await run(bench);
    expect(out.xml).toContain('quantity="2,5" unitPrice="7,50"');
    expect(out.xml).toContain('payment="18,75"');
    expect(out.xml).not.toMatch(/(unitPrice|payment|amount)="\d+\.\d+"/);
    expect(out.doc?.totalCents).toBe(1875);
  });
});
