import { describe, expect, it } from 'vitest';
import { rulesOf, EpsonFpmateOptionsSchema as Schema } from '../../../drivers/epson-fpmate/config.js';
import { buildFiscalDocument } from '../../../drivers/fiscal-it/build.js';
import type { FiscalDocumentModel } from '../../../drivers/fiscal-it/model.js';
import type { FiscalJobData, LegacyLine } from '../../../src/connector/model.js';
import type { WireOrderItem, WirePayment } from '../../../src/connector/wire.js';
import type { PlatformReader } from '../../../src/drivers-api/types.js';
import { english } from '../../../src/messages/render.js';
import { rejection } from '../../helpers/rejection.js';
import { orderItem, payment } from '../epson-fpmate/helpers.js';

const options = (extra: Record<string, unknown> = {}) => Schema.parse({ url: 'http://192.0.2.10', ...extra });

function reader(items: WireOrderItem[], payments: WirePayment[]): PlatformReader & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    orderItems: async (billId) => {
      calls.push(`orderItems ${billId}`);
      return items;
    },
    payments: async (billId) => {
      calls.push(`payments ${billId}`);
      return payments;
    },
  };
}

function fiscal(
  document: FiscalJobData['document'],
  bill: Partial<FiscalJobData['bill']> = {},
): FiscalJobData {
  return { machineSettings: { value: {} }, bill: { id: 'bill-9', ...bill }, document };
}

const sale = fiscal({ type: 'data', isRefund: false });

async function build(
  items: WireOrderItem[],
  payments: WirePayment[],
  opts: Record<string, unknown> = {},
  data: FiscalJobData = sale,
): Promise<FiscalDocumentModel> {
  return buildFiscalDocument(data, rulesOf(options(opts)), {
    platform: reader(items, payments),
    signal: new AbortController().signal,
    timeZone: 'Europe/Rome',
    now: Date.UTC(2026, 10, 21, 12),
    ownSerial: '99MEY123456',
  });
}

describe('bill → fiscal document (the core, drivers/fiscal-it/build.ts)', () => {
  it('derives each line’s VAT rate from its amounts and maps it to the default departments; the city tax is N1', async () => {
    const items = [
      orderItem('a', { unitGross: 122, rate: 22 }),
      orderItem('b', { unitGross: 11, rate: 10 }),
      orderItem('c', { unitGross: 10.4, rate: 4 }),
      orderItem('d', { unitGross: 3.5, rate: 0, type: 'CityTax' }),
    ];
    const model = await build(items, [payment('p', 'CashPayment', 146.9)]);
    expect(model.lines.map((l) => [l.description, l.department, l.unitCents])).toEqual([
      ['Product Order', 1, 12200],
      ['Product Order', 2, 1100],
      ['Product Order', 3, 1040],
      ['TASSA DI SOGGIORNO', 10, 350],
    ]);
    expect(model.lines.map((l) => l.rate ?? l.nature)).toEqual([22, 10, 4, 'N1']);
    expect(model.totalCents).toBe(14690);
    expect(model.payments).toEqual([
      { kind: 'cash', description: 'CONTANTI', key: 'CashPayment', cents: 14690 },
    ]);
  });

  it('prefers configured tax codes, departments and item names', async () => {
    const items = [orderItem('a', { unitGross: 50, rate: 22, type: 'SpaceOrder' })];
    const model = await build(items, [payment('p', 'CreditCardPayment', 50)], {
      taxCodeRates: { 'IT-22': 10 },
      departments: { '10': 7, '22': 1 },
      itemNames: { SpaceOrder: 'Pernottamento' },
    });
    expect(model.lines[0]).toMatchObject({ description: 'Pernottamento', department: 7 });
  });

  it('refuses a rate no department covers, unless a default department is configured', async () => {
    const items = [orderItem('a', { unitGross: 10.7, rate: 7 })];
    const pays = [payment('p', 'CashPayment', 10.7)];
    // No table rate fits the amounts: the line cannot be classified.
    const unknown = await rejection(build(items, pays));
    expect(unknown.code).toBe('FISCAL_REJECTED');
    expect(english(unknown.notes)).toContain('"Product Order" has no VAT rate and no VAT nature');
    // A code that names its rate (as the platform's "AT-2020-21%" do): no department carries it.
    const named = structuredClone(items);
    for (const i of named) i.Amount.TaxValues = [{ Code: 'IT-2018-7%', Value: 0.7 }];
    const error = await rejection(build(named, pays));
    expect(english(error.notes)).toContain('has no department for VAT 7 %');
    expect((await build(items, pays, { defaultDepartment: 9 })).lines[0]?.department).toBe(9);
  });

  it('refuses a line whose tax codes map to two rates', async () => {
    const item = orderItem('a', { unitGross: 10, rate: 22 });
    item.Amount.TaxValues = [
      { Code: 'A', Value: 1 },
      { Code: 'B', Value: 0.5 },
    ];
    const error = await rejection(
      build([item], [payment('p', 'CashPayment', 10)], { taxCodeRates: { A: 22, B: 10 } }),
    );
    expect(english(error.notes)).toContain('mixes VAT rates');
  });

  it('skips cancelled and zero lines, puts discounts after items, and checks the net total', async () => {
    const items = [
      orderItem('disc', { unitGross: -20, rate: 22, notes: 'Sconto fedeltà' }),
      orderItem('a', { unitGross: 100, rate: 22, notes: 'Camera' }),
      orderItem('x', { unitGross: 55, rate: 22, canceled: true }),
      orderItem('z', { unitGross: 0, rate: 22 }),
    ];
    const model = await build(items, [payment('p', 'CreditCardPayment', 80)]);
    expect(model.lines.map((l) => [l.description, l.totalCents])).toEqual([['Camera', 10000]]);
    expect(model.discounts).toEqual([
      { description: 'Sconto fedeltà', cents: 2000, department: 1, rate: 22 },
    ]);
    expect(model.totalCents).toBe(8000);
  });

  it('prints one line of the total when quantity × unit price does not give the amount', async () => {
    const item = orderItem('a', { unitGross: 33.33, units: 3, rate: 22, notes: 'Notte' });
    item.Amount.GrossValue = 100;
    item.Amount.NetValue = 81.97;
    const model = await build([item], [payment('p', 'CashPayment', 100)]);
    expect(model.lines[0]).toMatchObject({ description: '3 x Notte', quantity: 1, unitCents: 10000 });
  });

  it('counts only Charged and Closed payments and maps their types, configured over the default map', async () => {
    const model = await build(
      [orderItem('a', { unitGross: 300, rate: 10 })],
      [
        payment('1', 'CashPayment', 100),
        payment('2', 'InvoicePayment', 50, 'Closed'),
        payment('3', 'AlternativePayment', 150),
        payment('4', 'CreditCardPayment', 999, 'Pending'),
        payment('5', 'CreditCardPayment', 999, 'Canceled'),
      ],
      { payments: { InvoicePayment: { kind: 'not-collected', description: 'Non riscosso' } } },
    );
    expect(model.payments.map((p) => [p.description, p.kind, p.cents])).toEqual([
      ['CONTANTI', 'cash', 10000],
      ['Non riscosso', 'not-collected', 5000],
      ['PAGAMENTO ELETTRONICO', 'electronic', 15000],
    ]);
  });

  it.each([
    ['payments that do not cover the items', [payment('p', 'CashPayment', 99.99)], 'do not match'],
    [
      'a charge and a refund together',
      [payment('p', 'CashPayment', 150), payment('q', 'CashPayment', -50)],
      'mix charges and refunds',
    ],
    ['no payment at all', [], 'do not match'],
  ])('refuses %s before printing', async (_name, pays, hint) => {
    const error = await rejection(build([orderItem('a', { unitGross: 100, rate: 22 })], pays));
    expect(error.code).toBe('FISCAL_REJECTED');
    expect(english(error.notes)).toContain(hint);
  });

  it('refuses amounts in another currency and bills with nothing to print', async () => {
    const foreign = orderItem('a', { unitGross: 10, rate: 22 });
    foreign.Amount.Currency = 'CHF';
    expect(english((await rejection(build([foreign], [payment('p', 'CashPayment', 10)]))).notes)).toContain(
      'in CHF',
    );
    expect(english((await rejection(build([], []))).notes)).toContain('no items');
  });

  it('uses the legacy bill’s own lines and payments, and cross-checks them with the platform’s', async () => {
    const line = (name: string, gross: number, type?: string): LegacyLine => ({
      name,
      type,
      unitCount: 1,
      gross,
      currency: 'EUR',
      taxCodes: ['IT-VAT-10'],
      canceled: false,
    });
    const legacy = fiscal(
      { type: 'data', isRefund: false },
      { legacyItems: [line('Suite', 200)], legacyPayments: [line('Cash', -200, 'CashPayment')] },
    );
    const platform = reader([orderItem('ignored', { unitGross: 1 })], []);
    const model = await buildFiscalDocument(legacy, rulesOf(options({ taxCodeRates: { 'IT-VAT-10': 10 } })), {
      platform,
      signal: new AbortController().signal,
      timeZone: 'Europe/Rome',
      now: Date.UTC(2026, 10, 21, 12),
    });
    expect(model.lines).toMatchObject([{ description: 'Suite', department: 2, unitCents: 20000 }]);
    expect(model.payments).toMatchObject([{ kind: 'cash', cents: 20000 }]);
    expect(platform.calls).toEqual(['payments bill-9']);
    const mismatch = await rejection(
      buildFiscalDocument(legacy, rulesOf(options({ taxCodeRates: { 'IT-VAT-10': 10 } })), {
        platform: reader([], [payment('p', 'CashPayment', 150)]),
        signal: new AbortController().signal,
        timeZone: 'Europe/Rome',
        now: Date.UTC(2026, 10, 21, 12),
      }),
    );
    expect(english(mismatch.notes)).toContain('differ');
  });

  it('refuses an amount the printer cannot carry (issue 13: 1e21 printed unitPrice="999999999999999900000.92")', async () => {
    const huge = orderItem('a', { unitGross: 10, rate: 22, notes: 'Suite' });
    huge.UnitAmount.GrossValue = 1e21;
    huge.Amount.GrossValue = 1e21;
    const error = await rejection(build([huge], [payment('p', 'CashPayment', 1e21)]));
    expect(error.code).toBe('FISCAL_REJECTED');
    expect(english(error.notes)).toBe(
      'The amount of the item "Suite" (1e+21) is not one the fiscal printer can print (at most 9,999,999.99); nothing was printed. Check the bill on the platform.',
    );
    const many = [1, 2].map((i) => orderItem(`big${i}`, { unitGross: 6_000_000, rate: 22 }));
    const total = await rejection(build(many, [payment('p', 'CashPayment', 12_000_000)]));
    expect(english(total.notes)).toMatch(
      /^The bill’s total \(12000000.00 EUR\) is more than the fiscal printer can print/,
    );
    const quantity = orderItem('q', { unitGross: 1, rate: 22, notes: 'Acqua' });
    quantity.UnitCount = 1e21;
    expect(english((await rejection(build([quantity], [payment('p', 'CashPayment', 1)]))).notes)).toContain(
      'has a quantity (1e+21) the fiscal printer cannot print',
    );
  });

  it('rounds each line once, as the printer does, and closes the payments on that total (issue 13: half cents gave a 1-cent mismatch)', async () => {
    // Two lines of 0.125 € each and one payment of 0.25 €: the bill balances exactly, but each
    // line prints as 0.13 (half up), so the receipt's total is 0.26.
    const half = (id: string) => {
      const item = orderItem(id, { unitGross: 1, rate: 22, notes: `Line ${id}` });
      item.UnitAmount.GrossValue = 0.125;
      item.Amount.GrossValue = 0.125;
      item.Amount.NetValue = 0.1025;
      item.Amount.TaxValues = [{ Code: 'IT-22', Value: 0.0225 }];
      return item;
    };
    const model = await build([half('a'), half('b')], [payment('p', 'CashPayment', 0.25)]);
    expect(model.lines.map((l) => l.totalCents)).toEqual([13, 13]);
    expect(model.totalCents).toBe(26);
    expect(model.payments.map((p) => p.cents)).toEqual([26]);
    // With several payments the difference goes onto the largest one.
    const split = await build(
      [half('a'), half('b')],
      [payment('p', 'CashPayment', 0.05), payment('q', 'CreditCardPayment', 0.2)],
    );
    expect(split.payments.map((p) => [p.kind, p.cents])).toEqual([
      ['cash', 5],
      ['credit-card', 21],
    ]);
    // A bill that does not balance before rounding is still refused.
    const short = await rejection(build([half('a'), half('b')], [payment('p', 'CashPayment', 0.24)]));
    expect(english(short.notes)).toContain('do not match');
  });

  it('prints quantity × unit price only when the printer’s rounding gives the line’s amount', async () => {
    const item = orderItem('a', { unitGross: 2.345, units: 3, rate: 22, notes: 'Caffè' });
    // 3 × 2.35 = 7.05 (the printer's line), while the platform's line is 7.035 → 7.04.
    item.Amount.GrossValue = 7.035;
    const model = await build([item], [payment('p', 'CashPayment', 7.035)]);
    expect(model.lines[0]).toMatchObject({
      description: '3 x Caffè',
      quantity: 1,
      unitCents: 704,
      totalCents: 704,
    });
    expect(model.payments[0]?.cents).toBe(704);
  });
});
