import { describe, expect, it } from 'vitest';
import { EpsonFpmateOptionsSchema } from '../../../drivers/epson-fpmate/config.js';
import { buildReceipt, type ReceiptModel, receiptXml } from '../../../drivers/epson-fpmate/receipt.js';
import type { FiscalJobData, LegacyLine } from '../../../src/connector/model.js';
import type { WireOrderItem, WirePayment } from '../../../src/connector/wire.js';
import type { PlatformReader } from '../../../src/drivers-api/types.js';
import { AgentError } from '../../../src/errors.js';
import { orderItem, payment } from './helpers.js';

const options = (extra: Record<string, unknown> = {}) => EpsonFpmateOptionsSchema.parse(extra);

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
): Promise<ReceiptModel> {
  return buildReceipt(data, options(opts), {
    platform: reader(items, payments),
    signal: new AbortController().signal,
    timeZone: 'Europe/Rome',
    ownSerial: '99MEY123456',
  });
}

async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  const e = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof AgentError)) throw new Error(`expected an AgentError, got ${String(e)}`);
  return e;
}

describe('bill → receipt', () => {
  it('derives each line’s VAT rate from its amounts and maps it to the default departments', async () => {
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
      ['TASSA DI SOGGIORNO', 4, 350],
    ]);
    expect(model.totalCents).toBe(14690);
    expect(model.payments).toEqual([{ description: 'CONTANTI', paymentType: 0, index: 0, cents: 14690 }]);
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
    const error = await rejection(build(items, pays));
    expect(error.code).toBe('FISCAL_REJECTED');
    expect(error.notes).toContain('does not match any printer department');
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
    expect(error.notes).toContain('mixes VAT rates');
  });

  it('skips cancelled and zero lines, puts discounts after items, and checks the net total', async () => {
    const items = [
      orderItem('disc', { unitGross: -20, rate: 22, notes: 'Sconto fedeltà' }),
      orderItem('a', { unitGross: 100, rate: 22, notes: 'Camera' }),
      orderItem('x', { unitGross: 55, rate: 22, canceled: true }),
      orderItem('z', { unitGross: 0, rate: 22 }),
    ];
    const model = await build(items, [payment('p', 'CreditCardPayment', 80)]);
    expect(model.lines.map((l) => [l.type, l.description, l.totalCents])).toEqual([
      ['item', 'Camera', 10000],
      ['discount', 'Sconto fedeltà', 2000],
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

  it('counts only Charged and Closed payments and maps their types (unknown ones as electronic)', async () => {
    const model = await build(
      [orderItem('a', { unitGross: 300, rate: 10 })],
      [
        payment('1', 'CashPayment', 100),
        payment('2', 'InvoicePayment', 50, 'Closed'),
        payment('3', 'AlternativePayment', 150),
        payment('4', 'CreditCardPayment', 999, 'Pending'),
        payment('5', 'CreditCardPayment', 999, 'Canceled'),
      ],
      { payments: { InvoicePayment: { paymentType: 5, description: 'Non riscosso' } } },
    );
    expect(model.payments.map((p) => [p.description, p.paymentType, p.index, p.cents])).toEqual([
      ['CONTANTI', 0, 0, 10000],
      ['Non riscosso', 5, 0, 5000],
      ['AlternativePayment', 2, 1, 15000],
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
    expect(error.notes).toContain(hint);
  });

  it('refuses amounts in another currency and bills with nothing to print', async () => {
    const foreign = orderItem('a', { unitGross: 10, rate: 22 });
    foreign.Amount.Currency = 'CHF';
    expect((await rejection(build([foreign], [payment('p', 'CashPayment', 10)]))).notes).toContain('in CHF');
    expect((await rejection(build([], []))).notes).toContain('no items');
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
    const model = await buildReceipt(legacy, options({ taxCodeRates: { 'IT-VAT-10': 10 } }), {
      platform,
      signal: new AbortController().signal,
      timeZone: 'Europe/Rome',
    });
    expect(model.lines).toMatchObject([{ description: 'Suite', department: 2, unitCents: 20000 }]);
    expect(model.payments).toMatchObject([{ paymentType: 0, cents: 20000 }]);
    expect(platform.calls).toEqual(['payments bill-9']);
    const mismatch = await rejection(
      buildReceipt(legacy, options({ taxCodeRates: { 'IT-VAT-10': 10 } }), {
        platform: reader([], [payment('p', 'CashPayment', 150)]),
        signal: new AbortController().signal,
        timeZone: 'Europe/Rome',
      }),
    );
    expect(mismatch.notes).toContain('differ');
  });

  it('builds a refund: reference first, refund lines, payments back', async () => {
    const refund = fiscal({
      type: 'data',
      isRefund: true,
      rebated: { sequence: '12', receiptNumber: '34', dateTimeUtc: '2026-10-24T22:30:00Z' },
      printerSerialNumber: '99MEY123456',
    });
    const model = await build(
      [orderItem('a', { unitGross: -45, units: 2, rate: 22, notes: 'Cena' })],
      [payment('p', 'CashPayment', -90)],
      {},
      refund,
    );
    expect(model.kind).toBe('refund');
    expect(model.lines).toEqual([
      { type: 'refund', description: 'Cena', quantity: 2, unitCents: 4500, totalCents: 9000, department: 1 },
    ]);
    expect(receiptXml(model, '1')).toBe(
      '<printerFiscalReceipt>' +
        '<printRecMessage operator="1" messageType="4" message="REFUND 0012 0034 25102026 99MEY123456" />' +
        '<beginFiscalReceipt operator="1" />' +
        '<printRecRefund operator="1" description="Cena" department="1" quantity="2" unitPrice="45.00" justification="1" />' +
        '<printRecTotal operator="1" description="CONTANTI" payment="90.00" paymentType="0" index="0" justification="2" />' +
        '<endFiscalReceipt operator="1" />' +
        '</printerFiscalReceipt>',
    );
  });

  it('writes a sale with header lines, escaped text and dot amounts', async () => {
    const model = await build(
      [
        orderItem('a', { unitGross: 7.5, units: 2, rate: 10, notes: 'Caffè & "brioche"' }),
        orderItem('d', { unitGross: -1.5, rate: 10, notes: 'Sconto' }),
      ],
      [payment('p', 'CreditCardPayment', 13.5)],
      { headerLines: ['Hotel <Sole>'], operator: '2' },
    );
    expect(receiptXml(model, '2')).toBe(
      '<printerFiscalReceipt>' +
        '<printRecMessage operator="2" messageType="1" index="1" font="1" message="Hotel &lt;Sole&gt;" />' +
        '<beginFiscalReceipt operator="2" />' +
        '<printRecItem operator="2" description="Caffè &amp; &quot;brioche&quot;" department="2" quantity="2" unitPrice="7.50" justification="1" />' +
        '<printRecItemAdjustment operator="2" description="Sconto" department="2" adjustmentType="3" amount="1.50" justification="2" />' +
        '<printRecTotal operator="2" description="CARTA DI CREDITO" payment="13.50" paymentType="2" index="1" justification="2" />' +
        '<endFiscalReceipt operator="2" />' +
        '</printerFiscalReceipt>',
    );
  });
});
