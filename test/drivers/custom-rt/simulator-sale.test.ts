import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomRtSimulator } from '../../../drivers/custom-rt/simulator/index.js';
import { command, item, payment, post, receipt, report, startSim } from './simulator-client.js';

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

  it('cancels a sold line with printRecItemVoid, once per line sold (p.92)', async () => {
    const line = item('BIBITA', 300, 1);
    const body = `<beginFiscalReceipt/>${line}${item('PANINO', 500, 1)}${line.replace('printRecItem ', 'printRecItemVoid ').replace('</printRecItem>', '</printRecItemVoid>')}`;
    expect((await post(sim, receipt(`${body}${payment(500)}<endFiscalReceipt/>`))).success).toBe(true);
    expect(sim.printed[0]).toMatchObject({ totalCents: 500 });
    const twice = `<beginFiscalReceipt/>${line}<printRecItemVoid description="BIBITA" unitPrice="300" department="1" idVat="1" quantity="1000"/>`;
    expect(
      await post(sim, receipt(`${twice}${twice.slice(twice.indexOf('<printRecItemVoid'))}`)),
    ).toMatchObject({ success: false, status: 3 });
  });

  it('refuses a discount above the line or the subtotal (121, XML-SG "discount > 100%")', async () => {
    const over = (adj: string) => post(sim, receipt(`<beginFiscalReceipt/>${item('A', 1000, 1)}${adj}`));
    expect(await over('<printRecItemAdjustment adjustmentType="3" amount="1001"/>')).toMatchObject({
      success: false,
      status: 121,
    });
    await post(sim, command('<resetPrinter/>'));
    expect(await over('<printRecSubtotalAdjustment adjustmentType="3" amount="1001"/>')).toMatchObject({
      success: false,
      status: 121,
    });
  });

  it('takes a goods return inside a sale as a negative line (printRecRefund, p.94)', async () => {
    const body = `<beginFiscalReceipt/>${item('A', 1000, 1)}<printRecRefund description="RESO" unitPrice="400" department="1" idVat="1"/>`;
    expect((await post(sim, receipt(`${body}${payment(600)}<endFiscalReceipt/>`))).success).toBe(true);
    expect(sim.printed[0]).toMatchObject({ totalCents: 600, vat: { 1: 600 } });
  });
});

describe('Custom RT simulator: what fiskaltrust and lyancoder send that the manual does not describe', () => {
  it('tolerates FT’s second end node and dematerializedOn before a sale (FT Models/Requests/PrinterFiscalReceipt.cs)', async () => {
    const a = await post(
      sim,
      receipt(
        `<dematerializedOn/><beginFiscalReceipt/>${item('A', 100, 1)}${payment(100)}<endFiscalReceipt/><endFiscalReceiptCut/>`,
      ),
    );
    expect(a).toMatchObject({ success: true });
    expect(a.info.fiscalDoc).toBe('0001');
    expect(sim.printed).toHaveLength(1);
  });

  it('refuses FT’s cancelFiscalReceipt, an element the manual has not (FT Models/Requests/PrinterFiscalReceiptCancel.cs; p.15)', async () => {
    await post(sim, receipt(`<beginFiscalReceipt/>${item('A', 100, 1)}`));
    expect(await post(sim, receipt('<cancelFiscalReceipt/>'))).toMatchObject({ success: false, status: 3 });
    expect((await post(sim, command('<resetPrinter/>'))).info.fpStatus).toBe('000');
  });

  it('refuses FT’s two-node report request: one sub-element per report (p.18; FT Models/Requests/PrinterFiscalReport.cs)', async () => {
    await post(sim, receipt(`<beginFiscalReceipt/>${item('A', 100, 1)}${payment(100)}<endFiscalReceipt/>`));
    expect(await post(sim, report('<dematerializedOn/><printZReport/>'))).toMatchObject({
      success: false,
      status: 3,
    });
    expect(sim.counters.z).toBe(143);
  });

  it('refuses FT’s subtotal surcharge type 4: only 2 and 3 exist (p.97; FT CustomRTPrinterSCU.cs ~l.253)', async () => {
    const body = `<beginFiscalReceipt/>${item('A', 1000, 1)}<printRecSubtotalAdjustment adjustmentType="4" description="MAGG" amount="100"/>`;
    expect(await post(sim, receipt(body))).toMatchObject({ success: false, status: 3 });
  });

  it('leaves LY’s annulment without an end node open, as p.31 says of a missing end (LY lib/printer/custom/xml-custom-http.ts convertCancelToXmlDoc)', async () => {
    await post(sim, receipt(`<beginFiscalReceipt/>${item('A', 100, 1)}${payment(100)}<endFiscalReceipt/>`));
    const body = `<beginRtDocAnnulment docRefZ="0143" docRefNumber="0001" docDate="130326" checkOnly="0"/>${item('A', 100, 1)}`;
    const a = await post(sim, receipt(body));
    expect(a).toMatchObject({ success: true });
    expect(a.info).toMatchObject({ fpStatus: '100', receiptStep: '1' });
    expect(sim.printed).toHaveLength(1);
  });
});
