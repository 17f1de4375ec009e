import { describe, expect, it } from 'vitest';
import { EpsonFpmateOptionsSchema, rulesOf } from '../../../drivers/epson-fpmate/config.js';
import { DEFAULT_LINE_LENGTH } from '../../../drivers/epson-fpmate/protocol.js';
import { type EpsonRendering, receiptXml } from '../../../drivers/epson-fpmate/receipt-xml.js';
import { buildFiscalDocument } from '../../../drivers/fiscal-it/build.js';
import type { FiscalDocumentModel } from '../../../drivers/fiscal-it/model.js';
import type { FiscalJobData } from '../../../src/connector/model.js';
import type { WireOrderItem, WirePayment } from '../../../src/connector/wire.js';
import { orderItem, payment } from './helpers.js';

/**
 * The fiscal core's document rendered as fpmate XML (receipt-xml.ts): element order as
 * fiskaltrust/middleware scu-it `Models/FiscalReceipt.cs` sends it, amounts with a decimal comma
 * as Epson's own samples write them (EpsonFpSuite 2.2.0 `Italy/TxtExamples/ScoDocCommPayCash.txt`).
 */
const options = (extra: Record<string, unknown> = {}) =>
  EpsonFpmateOptionsSchema.parse({ url: 'http://192.0.2.10', ...extra });

const render = (operator: string, header: string[] = []): EpsonRendering => ({
  operator,
  header,
  lineLength: DEFAULT_LINE_LENGTH,
  codes: {},
});

function fiscal(document: FiscalJobData['document']): FiscalJobData {
  return { machineSettings: { value: {} }, bill: { id: 'bill-9' }, document };
}

async function build(
  items: WireOrderItem[],
  payments: WirePayment[],
  opts: Record<string, unknown> = {},
  data: FiscalJobData = fiscal({ type: 'data', isRefund: false }),
): Promise<FiscalDocumentModel> {
  return buildFiscalDocument(data, rulesOf(options(opts)), {
    platform: { orderItems: async () => items, payments: async () => payments },
    signal: new AbortController().signal,
    timeZone: 'Europe/Rome',
    now: Date.UTC(2026, 10, 21, 12),
    ownSerial: '99MEY123456',
  });
}

describe('fiscal document → fpmate XML', () => {
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
      {
        description: 'Cena',
        quantity: 2,
        unitCents: 4500,
        totalCents: 9000,
        department: 1,
        rate: 22,
      },
    ]);
    expect(receiptXml(model, render('1'))).toBe(
      '<printerFiscalReceipt>' +
        '<printRecMessage operator="1" messageType="4" message="REFUND 0012 0034 25102026 99MEY123456" />' +
        '<beginFiscalReceipt operator="1" />' +
        '<printRecRefund operator="1" description="Cena" department="1" quantity="2" unitPrice="45,00" justification="1" />' +
        '<printRecTotal operator="1" description="CONTANTI" payment="90,00" paymentType="0" index="0" justification="2" />' +
        '<endFiscalReceipt operator="1" />' +
        '</printerFiscalReceipt>',
    );
  });

  it('writes a sale with header lines, escaped text and comma amounts', async () => {
    const model = await build(
      [
        orderItem('a', { unitGross: 7.5, units: 2, rate: 10, notes: 'Caffè & "brioche"' }),
        orderItem('d', { unitGross: -1.5, rate: 10, notes: 'Sconto' }),
      ],
      [payment('p', 'CreditCardPayment', 13.5)],
      { headerLines: ['Hotel <Sole>'], operator: '2' },
    );
    expect(receiptXml(model, render('2', ['Hotel <Sole>']))).toBe(
      '<printerFiscalReceipt>' +
        '<printRecMessage operator="2" messageType="1" index="1" font="1" message="Hotel &lt;Sole&gt;" />' +
        '<beginFiscalReceipt operator="2" />' +
        '<printRecItem operator="2" description="Caffè &amp; &quot;brioche&quot;" department="2" quantity="2" unitPrice="7,50" justification="1" />' +
        '<printRecItemAdjustment operator="2" description="Sconto" department="2" adjustmentType="3" amount="1,50" justification="2" />' +
        '<printRecTotal operator="2" description="CARTA DI PAGAMENTO" payment="13,50" paymentType="2" index="1" justification="2" />' +
        '<endFiscalReceipt operator="2" />' +
        '</printerFiscalReceipt>',
    );
  });
});
