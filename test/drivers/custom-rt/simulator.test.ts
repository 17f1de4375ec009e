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
