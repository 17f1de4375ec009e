import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomRtSimulator } from '../../../drivers/custom-rt/simulator/index.js';
import {
  basic,
  command,
  item,
  payment,
  post,
  receipt,
  report,
  SERIAL,
  sale,
  startSim,
} from './simulator-client.js';

let sim: CustomRtSimulator;

beforeEach(async () => {
  ({ sim } = await startSim({ lastZ: 142 }));
});
afterEach(async () => {
  await sim.close();
});

/** Research §7.1: the manual's receipt structure (XML pp.16, 119) with a night, minibar and a CF. */
const EXAMPLE_SALE = receipt(
  '<beginFiscalReceipt IdCmd="C70977db6c8e4b6aa21375c694275bf1B"></beginFiscalReceipt>' +
    '<printRecItem description="PERNOTTAMENTO CAM 12" unitPrice="12000" department="1" idVat="2" quantity="1000"></printRecItem>' +
    '<printRecItem description="MINIBAR ACQUA" unitPrice="250" department="2" idVat="1" quantity="2000"></printRecItem>' +
    '<fixedLines description="RSSMRA80A01H501U" pitch="B"></fixedLines>' +
    '<printRecSubtotal></printRecSubtotal>' +
    '<printRecTotal description="CARTA DI CREDITO" payment="12500" paymentType="3"></printRecTotal>' +
    '<endFiscalReceipt IdCmd="C70977db6c8e4b6aa21375c694275bf1E"></endFiscalReceipt>',
);

describe('Custom RT simulator: transport (XML p.13; FT Clients/CustomRTPrinterClient.cs, LY xml-custom-http.ts)', () => {
  it('answers POST /xml/printer.htm with the serial as Basic user and password (FT tests, LY send())', async () => {
    const a = await post(sim, command('<queryPrinterStatus></queryPrinterStatus>'));
    expect(a).toMatchObject({ httpStatus: 200, root: 'response', success: true, status: 0 });
  });

  it('answers 401 without credentials or with wrong ones, and carries nothing out', async () => {
    expect((await post(sim, sale(100), null)).httpStatus).toBe(401);
    expect((await post(sim, sale(100), basic(SERIAL, 'wrong'))).httpStatus).toBe(401);
    expect(sim.printed).toEqual([]);
  });

  it('takes other credentials, or none (the manual documents no authentication, p.13)', async () => {
    const open = await startSim({ credentials: null });
    const custom = await startSim({ credentials: { user: 'admin', password: 'pw' } });
    try {
      expect((await post(open.sim, sale(100), null)).success).toBe(true);
      expect((await post(custom.sim, sale(100), basic('admin', 'pw'))).success).toBe(true);
      expect((await post(custom.sim, sale(100))).httpStatus).toBe(401);
    } finally {
      await open.sim.close();
      await custom.sim.close();
    }
  });

  it('serves nothing off /xml/printer.htm, and only POST on it', async () => {
    expect((await fetch(`${sim.url}/cgi-bin/fpmate.cgi`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${sim.url}/xml/printer.htm`)).status).toBe(405);
  });
});

describe('Custom RT simulator: a sale (XML pp.16, 89, 99; research §7.1)', () => {
  it('prints the worked example and answers nClose, fiscalDoc, dateTime and lastIdCmd', async () => {
    const a = await post(sim, EXAMPLE_SALE);
    expect(a).toMatchObject({ success: true, status: 0 });
    expect(a.info).toMatchObject({
      lastIdCmd: { '@IdCmd': 'C70977db6c8e4b6aa21375c694275bf1E', '#text': 'endFiscalReceipt' },
      lastCommand: 'endFiscalReceipt',
      dateTime: '2026-03-13T10:22:41',
      printerStatus: '00000',
      fpStatus: '000',
      receiptStep: '0',
      nClose: '0143',
      fiscalDoc: '0001',
    });
    expect(String(a.info.elementList).split(',')).toEqual([
      'lastIdCmd',
      'lastCommand',
      'dateTime',
      'printerStatus',
      'fpStatus',
      'receiptStep',
      'nClose',
      'fiscalDoc',
    ]);
    expect(sim.counters).toEqual({ z: 143, doc: 1 });
    expect(sim.printed[0]).toMatchObject({
      kind: 'sale',
      z: 143,
      doc: 1,
      totalCents: 12500,
      customerId: 'RSSMRA80A01H501U',
      vat: { 1: 500, 2: 12000 },
      payments: [{ paymentType: 3, amountCents: 12500 }],
    });
  });

  it('adds up the manual’s own example as cents: 350 + 450 + 50 markup, paid 600 + 400 (p.119)', async () => {
    const a = await post(
      sim,
      receipt(
        '<beginFiscalReceipt></beginFiscalReceipt><displayText data="Message 1"></displayText>' +
          '<printRecItem description="PANINO" unitPrice="350" department ="1"></printRecItem>' +
          '<printRecItem description="PIZZA" unitPrice="450" department ="2"></printRecItem>' +
          '<printRecSubtotalAdjustment adjustmentType="2" description="maggio subt" amount="50"></printRecSubtotalAdjustment>' +
          '<printRecSubtotal></printRecSubtotal>' +
          '<printRecTotal description="Payment in Cash" payment="600" paymentType ="1"></printRecTotal>' +
          '<printRecMessage message="Additional Row 1 3008" messageType="2" font="1"></printRecMessage>' +
          '<printRecTotal description="Payment 4" payment="400" paymentType ="4"></printRecTotal>' +
          '<endFiscalReceiptCut></endFiscalReceiptCut>',
      ),
    );
    expect(a.success).toBe(true);
    // The markup is spread pro rata over the departments (p.97): 50 × 350/800 and the rest.
    expect(sim.printed[0]).toMatchObject({ totalCents: 850, vat: { 1: 372, 2: 478 } });
  });

  it('books quantity in thousandths and rounds the line to the cent (FT IntegrationTests.cs T28; DIO 3301 p.148)', async () => {
    await post(
      sim,
      receipt(`<beginFiscalReceipt/>${item('ACQUA', 235, 1, 1500)}${payment(353)}<endFiscalReceipt/>`),
    );
    expect(sim.printed[0]?.lines[0]).toMatchObject({
      quantityMilli: 1500,
      unitPriceCents: 235,
      amountCents: 353,
    });
  });

  it('truncates descriptions to 22 characters instead of refusing them (p.89)', async () => {
    await post(
      sim,
      receipt(`<beginFiscalReceipt/>${item('X'.repeat(30), 100, 1)}${payment(100)}<endFiscalReceipt/>`),
    );
    expect(sim.printed[0]?.lines[0]?.description).toBe('X'.repeat(22));
  });

  it('applies an item discount to the line before it (adjustmentType 3, p.90)', async () => {
    await post(
      sim,
      receipt(
        `<beginFiscalReceipt/>${item('CENA', 5000, 2)}` +
          '<printRecItemAdjustment adjustmentType="3" description="SCONTO" amount="500" idVat="2"></printRecItemAdjustment>' +
          `${payment(4500)}<endFiscalReceipt/>`,
      ),
    );
    expect(sim.printed[0]).toMatchObject({ totalCents: 4500, vat: { 2: 4500 } });
  });

  it('deducts a deposit already paid (printRecAdvancePayments, p.87)', async () => {
    await post(
      sim,
      receipt(
        `<beginFiscalReceipt/>${item('SOGGIORNO', 30000, 2)}<printRecAdvancePayments amount="10000"></printRecAdvancePayments>` +
          `${payment(20000, 3)}<endFiscalReceipt/>`,
      ),
    );
    expect(sim.printed[0]).toMatchObject({ totalCents: 20000 });
  });

  it('gives change out of cash only (DIO 3007 p.119: 01 cash); change on a card is 142', async () => {
    expect(
      (
        await post(
          sim,
          receipt(`<beginFiscalReceipt/>${item('A', 1000, 1)}${payment(2000, 1)}<endFiscalReceipt/>`),
        )
      ).success,
    ).toBe(true);
    const card = await post(
      sim,
      receipt(`<beginFiscalReceipt/>${item('A', 1000, 1)}${payment(2000, 3)}<endFiscalReceipt/>`),
    );
    expect(card).toMatchObject({ success: false, status: 142 });
  });

  it('prints the customer code only when valid, silently dropping an invalid one (DIO 3010 note p.124)', async () => {
    const body = (code: string) =>
      receipt(
        `<beginFiscalReceipt/>${item('A', 100, 1)}<fixedLines description="${code}" pitch="B"></fixedLines>${payment(100)}<endFiscalReceipt/>`,
      );
    expect((await post(sim, body('01606720215'))).success).toBe(true);
    expect((await post(sim, body('RSSMRA80A01H501X'))).success).toBe(true);
    expect(sim.printed.map((d) => d.customerId)).toEqual(['01606720215', undefined]);
  });
});

describe('Custom RT simulator: refusals and the structure rules (XML pp.14–20, 31; XML-SG §3)', () => {
  it.each([
    [
      'a missing closing root tag: parser error, nothing done (p.31)',
      '<printerFiscalReceipt><beginFiscalReceipt/>',
      3,
    ],
    ['a root the manual does not list (p.14)', '<printerNonFiscal><beginNotFiscal/></printerNonFiscal>', 3],
    ['two nodes in one printerCommand (p.20)', command('<getDateTime/><getInfo/>'), 3],
    ['two nodes in one printerFiscalReport (p.18)', report('<printXReport/><printXReport/>'), 3],
    [
      'a price with a decimal separator (p.89)',
      receipt(`<beginFiscalReceipt/>${item('A', 0, 1).replace('unitPrice="0"', 'unitPrice="1.50"')}`),
      3,
    ],
    [
      'a quantity without idVat (p.89 note)',
      receipt('<beginFiscalReceipt/><printRecItem description="A" unitPrice="100" quantity="1000"/>'),
      3,
    ],
    ['an unprogrammed VAT slot (28)', receipt(`<beginFiscalReceipt/>${item('A', 100, 9)}`), 28],
    ['an unknown department (148)', receipt(`<beginFiscalReceipt/>${item('A', 100, 1, 1000, 55)}`), 148],
    [
      'a quantity over 65 535.99 units (118)',
      receipt(`<beginFiscalReceipt/>${item('A', 100, 1, 65_536_000)}`),
      118,
    ],
    [
      'the word TOTALE in a description (7)',
      receipt(`<beginFiscalReceipt/>${item('TOTALE CAMERA', 100, 1)}`),
      7,
    ],
    [
      'an adjustment type other than 2 or 3 (p.90)',
      receipt(
        `<beginFiscalReceipt/>${item('A', 100, 1)}<printRecItemAdjustment adjustmentType="4" amount="10"/>`,
      ),
      3,
    ],
    ['a sale line before beginFiscalReceipt (5)', receipt(item('A', 100, 1)), 5],
    [
      'a payment type outside 1–30 and 50–53 (p.99)',
      receipt(`<beginFiscalReceipt/>${item('A', 100, 1)}${payment(100, 31)}`),
      3,
    ],
    [
      'an IdCmd longer than 36 characters (p.25)',
      receipt(`<beginFiscalReceipt IdCmd="${'a'.repeat(37)}"/>`),
      3,
    ],
  ])('refuses %s', async (_name, body, status) => {
    const a = await post(sim, body);
    expect(a).toMatchObject({ success: false, status });
    expect(sim.printed).toEqual([]);
    expect(sim.counters).toEqual({ z: 143, doc: 0 });
  });

  it('refuses an end node with no payment (25) and leaves the receipt open until reset (pp.31, 111)', async () => {
    const a = await post(sim, receipt(`<beginFiscalReceipt/>${item('A', 100, 1)}<endFiscalReceipt/>`));
    expect(a).toMatchObject({ success: false, status: 25 });
    expect(a.info).toMatchObject({ lastCommand: 'endFiscalReceipt', fpStatus: '100', receiptStep: '1' });
    expect((await post(sim, sale(100))).status).toBe(5);
    const reset = await post(sim, command('<resetPrinter></resetPrinter>'));
    expect(reset.info).toMatchObject({ fpStatus: '000', receiptStep: '0' });
    expect((await post(sim, sale(100))).success).toBe(true);
  });

  it('prints up to a bad attribute and stops there, the receipt left open (p.31)', async () => {
    const a = await post(
      sim,
      receipt(`<beginFiscalReceipt/>${item('A', 100, 1)}${item('B', 100, 9)}${item('C', 100, 1)}`),
    );
    expect(a).toMatchObject({ success: false, status: 28 });
    expect(a.info).toMatchObject({ lastCommand: 'printRecItem', fpStatus: '100' });
    // The receipt goes on where it stopped: one line booked, the refused and later ones not.
    await post(sim, receipt(`${payment(100)}<endFiscalReceipt/>`));
    expect(sim.printed[0]?.lines.map((l) => l.description)).toEqual(['A']);
  });

  it('refuses a negative total (p.16 rule 3, status 23)', async () => {
    const a = await post(
      sim,
      receipt(
        `<beginFiscalReceipt/>${item('A', 100, 1)}<printRecRefund description="RESO" unitPrice="500" department="1" idVat="1"/><endFiscalReceipt/>`,
      ),
    );
    expect(a).toMatchObject({ success: false, status: 23 });
  });

  it('cancels a receipt with printRecVoid and endFiscalReceiptCut (p.100), under the next number', async () => {
    const a = await post(
      sim,
      receipt(
        `<beginFiscalReceipt/>${item('A', 100, 1)}<printRecVoid description="ANNULLO"/><endFiscalReceiptCut/>`,
      ),
    );
    expect(a.success).toBe(true);
    expect(sim.printed[0]).toMatchObject({ kind: 'cancelled', doc: 1, totalCents: 100 });
  });
});

describe('Custom RT simulator: non-fiscal receipts (XML pp.17, 120)', () => {
  it('prints the manual’s example and numbers it apart (notFiscalDoc)', async () => {
    const a = await post(
      sim,
      '<printerNotFiscal><beginNotFiscal></beginNotFiscal>' +
        '<printNormal font="1" data="Not Fiscal receipt row 1"></printNormal>' +
        '<printBarCode hRIPosition="2" codeType="1" code ="1234567890123"></printBarCode>' +
        '<endNotFiscal></endNotFiscal></printerNotFiscal>',
    );
    expect(a.info).toMatchObject({ notFiscalDoc: '0001', lastCommand: 'endNotFiscal' });
    expect(sim.printed[0]).toMatchObject({ kind: 'non-fiscal', text: ['Not Fiscal receipt row 1'] });
    expect(sim.counters.doc).toBe(0);
  });
});
