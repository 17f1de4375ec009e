import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/platform-simulator/bills.js';
import { fpmateReceiptXml, printable, receiptForBill } from '../../src/platform-simulator/fpmate.js';
import { createRng } from '../../src/platform-simulator/rng.js';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (n) => n.startsWith('printRec'),
});

describe('fpmate receipts', () => {
  it('builds balanced receipts from sale bills, departments per VAT rate', () => {
    const ledger = new Ledger(1);
    const rng = createRng(2);
    for (let i = 0; i < 30; i++) {
      const bill = ledger.createSale(rng, 'ent', Date.UTC(2026, 0, 1));
      const receipt = receiptForBill(bill, 'Hôtel & Spa <Bellavista>', { 22: 5 });
      const lineTotal = receipt.lines.reduce((s, l) => s + l.quantity * l.unitPriceCents, 0);
      expect(receipt.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(lineTotal);
      for (const [line, item] of receipt.lines.map((l, j) => [l, bill.items[j]] as const)) {
        const expected = { 22: 5, 10: 2, 4: 3, 0: 4 }[item?.rate ?? 0];
        expect(line.department).toBe(expected);
      }
    }
  });

  it('escapes attribute text and cuts descriptions to 38 printable characters', () => {
    expect(printable('Pernottamento camera 101 con vista mare e colazione inclusa')).toHaveLength(38);
    expect(printable('Caffè')).toBe('Caffe');
    const xml = fpmateReceiptXml(
      {
        header: ['Hotel "A" & <B>'],
        lines: [{ description: 'Vino & "Grappa"', quantity: 2, unitPriceCents: 1050, department: 1 }],
        payments: [{ description: 'CONTANTI', amountCents: 2100, paymentType: 0, index: 0 }],
      },
      'soap',
    );
    const doc = parser.parse(xml) as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    const receipt = doc['s:Envelope']?.['s:Body']?.printerFiscalReceipt as Record<
      string,
      Array<Record<string, string>>
    >;
    expect(receipt.printRecMessage?.[0]?.message).toBe('Hotel "A" & <B>');
    expect(receipt.printRecItem?.[0]).toMatchObject({
      description: 'Vino & "Grappa"',
      quantity: '2',
      unitPrice: '10.50',
    });
    expect(receipt.printRecTotal?.[0]).toMatchObject({ payment: '21.00', paymentType: '0' });
    expect(xml).not.toContain('& "');
  });

  it('refuses to print an unbalanced bill', () => {
    const ledger = new Ledger(1);
    const bill = ledger.createSale(createRng(4), 'ent', 0);
    bill.payments.pop();
    expect(() => receiptForBill(bill, 'Hotel')).toThrow(/not balanced/);
  });
});
