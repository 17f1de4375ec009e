import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomRtSimulator } from '../../../drivers/custom-rt/simulator/index.js';
import type { ManualClock } from '../../../src/clock.js';
import { command, item, payment, post, receipt, report, SERIAL, sale, startSim } from './simulator-client.js';

let sim: CustomRtSimulator;
let clock: ManualClock;

beforeEach(async () => {
  ({ sim, clock } = await startSim({ lastZ: 142 }));
});
afterEach(async () => {
  await sim.close();
});

/** Research §7.1's sale: 120.00 at 10% and 2 × 2.50 at 22%, becoming document 0143-0001. */
async function exampleSale(): Promise<void> {
  const a = await post(
    sim,
    receipt(
      `<beginFiscalReceipt/>${item('PERNOTTAMENTO', 12000, 2)}${item('MINIBAR ACQUA', 250, 1, 2000, 2)}${payment(12500, 3)}<endFiscalReceipt/>`,
    ),
  );
  expect(a.success).toBe(true);
}

const begin = (tag: string, doc = 1, extra = '', date = '130326', z = 143) =>
  `<${tag} docRefZ="${String(z).padStart(4, '0')}" docRefNumber="${String(doc).padStart(4, '0')}" docDate="${date}" fiscalSerial="${SERIAL}"${extra}></${tag}>`;
const check = (tag: string, doc = 1, date = '130326', z = 143) =>
  post(sim, receipt(begin(tag, doc, ' checkOnly="1"', date, z)));
/** Research §7.2 step 2: FT's field-tested refund body, positive lines and no payment. */
const refund = (lines: string, doc = 1, tail = '') =>
  post(
    sim,
    receipt(
      `${begin('beginRtDocRefund', doc, ' printPreview="0" checkOnly="0"')}${lines}${tail}<endFiscalReceipt IdCmd="R1E"/>`,
    ),
  );
/** A void repeats a sales line of the original: XML p.16, "at least one sales line". */
const annul = (doc = 1, lines = item('MINIBAR ACQUA', 250, 1, 1000, 2)) =>
  post(sim, receipt(`${begin('beginRtDocAnnulment', doc, ' checkOnly="0"')}${lines}<endFiscalReceiptCut/>`));

describe('Custom RT simulator: RT refunds (XML pp.38, 72; research §7.2)', () => {
  it('checkOnly="1" answers 1 with the original’s VAT in ejDocVat, and prints nothing', async () => {
    await exampleSale();
    const a = await check('beginRtDocRefund');
    expect(a).toMatchObject({ success: true, status: 0 });
    expect(a.info).toMatchObject({
      responseBuf: '1',
      lastCommand: 'beginRtDocRefund',
      fpStatus: '000',
      ejDocVat: {
        vat1: { rate: '2200', gross: '000000500', taxable: '000000410', tax: '000000090' },
        vat2: { rate: '1000', gross: '000012000', taxable: '000010909', tax: '000001091' },
      },
    });
    expect(sim.printed).toHaveLength(1);
    expect(sim.counters).toEqual({ z: 143, doc: 1 });
  });

  it.each([
    ['a number never issued', 7, '130326', 143],
    ['the wrong date', 1, '140326', 143],
    ['another Z', 1, '130326', 12],
  ])('checkOnly answers 0 for %s', async (_name, doc, date, z) => {
    await exampleSale();
    expect((await check('beginRtDocRefund', doc, date, z)).info.responseBuf).toBe('0');
  });

  it('answers 0 for a document of another device: only its own journal is searched', async () => {
    await exampleSale();
    const a = await post(
      sim,
      receipt(begin('beginRtDocRefund', 1, ' checkOnly="1"').replace(SERIAL, 'STMTE999999')),
    );
    expect(a.info.responseBuf).toBe('0');
  });

  it('prints the refund under the next number, with the original’s reference (FT PrinterFiscalReceiptRefund.cs form)', async () => {
    await exampleSale();
    const a = await refund(item('MINIBAR ACQUA', 250, 1, 2000, 2));
    expect(a).toMatchObject({ success: true });
    expect(a.info).toMatchObject({ nClose: '0143', fiscalDoc: '0002', responseBuf: '1' });
    expect(sim.printed[1]).toMatchObject({
      kind: 'refund',
      doc: 2,
      totalCents: 500,
      reference: { z: 143, doc: 1, date: '130326', serial: SERIAL },
      payments: [],
    });
    expect(sim.printed[0]?.refunded).toEqual({ 1: 500 });
  });

  it('takes a refund body with a payment too (the manual’s general rule, p.31)', async () => {
    await exampleSale();
    expect((await refund(item('MINIBAR ACQUA', 250, 1, 1000, 2), 1, payment(250, 3, 'CARTA'))).success).toBe(
      true,
    );
  });

  it('refuses a refund beyond what is left at a VAT rate (11), then answers 2 once all is refunded', async () => {
    await exampleSale();
    expect(await refund(item('MINIBAR ACQUA', 250, 1, 3000, 2))).toMatchObject({
      success: false,
      status: 11,
    });
    await post(sim, command('<resetPrinter/>'));
    expect(
      (await refund(item('PERNOTTAMENTO', 12000, 2) + item('MINIBAR ACQUA', 250, 1, 2000, 2))).success,
    ).toBe(true);
    expect((await check('beginRtDocRefund')).info.responseBuf).toBe('2');
  });

  it('refuses the document itself when the original is unknown: status 5 with responseBuf 0, nothing printed', async () => {
    await exampleSale();
    const a = await refund(item('X', 100, 1), 9);
    expect(a).toMatchObject({ success: false, status: 5 });
    expect(a.info).toMatchObject({ responseBuf: '0', fpStatus: '000' });
    expect(sim.printed).toHaveLength(1);
  });

  it('answers what is still refundable with getVatTotalsOnDemand vatgroup="2" after a check (p.72)', async () => {
    await exampleSale();
    await refund(item('MINIBAR ACQUA', 250, 1, 1000, 2));
    await check('beginRtDocRefund');
    const a = await post(sim, command('<getVatTotalsOnDemand vatgroup="2" doctype="0"/>'));
    const totals = a.info.getVatTotalsOnDemand as { vatTotals: Record<string, Record<string, string>> };
    expect(totals.vatTotals.vat1).toMatchObject({ rate: '22.00', gross: '2.50' });
    expect(totals.vatTotals.vat2).toMatchObject({
      rate: '10.00',
      gross: '120.00',
      taxable: '109.09',
      tax: '10.91',
    });
  });

  it('refunds a document not on this device with beginRtDocRefundSpecial service="ND" (p.39)', async () => {
    const a = await post(
      sim,
      receipt(
        `<beginRtDocRefundSpecial service="ND" docDate="120326"/>${item('RESO', 1000, 1)}<endFiscalReceipt/>`,
      ),
    );
    expect(a.success).toBe(true);
    expect(sim.printed[0]).toMatchObject({
      kind: 'refund',
      totalCents: 1000,
      reference: { serial: 'ND', date: '120326' },
    });
  });

  it.each([
    ['a docDate that is no date', begin('beginRtDocRefund', 1, ' checkOnly="1"', '310226')],
    ['a docRefNumber of 0', begin('beginRtDocRefund', 0, ' checkOnly="1"')],
    ['a service the manual does not list', '<beginRtDocRefundSpecial service="XX" docDate="120326"/>'],
  ])('refuses %s with 3', async (_name, body) => {
    expect(await post(sim, receipt(body))).toMatchObject({ success: false, status: 3 });
  });
});

describe('Custom RT simulator: RT voids (XML p.36)', () => {
  it('checks, then voids the whole original under the next number', async () => {
    await exampleSale();
    expect((await check('beginRtDocAnnulment')).info.responseBuf).toBe('1');
    const a = await annul();
    expect(a).toMatchObject({ success: true });
    expect(a.info).toMatchObject({ fiscalDoc: '0002' });
    expect(sim.printed[1]).toMatchObject({ kind: 'void', totalCents: 12500, vat: { 1: 500, 2: 12000 } });
    expect(sim.printed[0]?.voided).toBe(true);
  });

  it('answers 2 for a document already voided, and refuses the void itself (5, responseBuf 2)', async () => {
    await exampleSale();
    await annul();
    expect((await check('beginRtDocAnnulment')).info.responseBuf).toBe('2');
    expect((await check('beginRtDocRefund')).info.responseBuf).toBe('2');
    const again = await annul();
    expect(again).toMatchObject({ success: false, status: 5 });
    expect(again.info.responseBuf).toBe('2');
    expect(sim.printed).toHaveLength(2);
  });

  it('refuses a void without a sales line (5: XML p.16 "must include at least one sales line")', async () => {
    await exampleSale();
    expect(await annul(1, '')).toMatchObject({ success: false, status: 5 });
    expect(sim.printed).toHaveLength(1);
  });

  it('answers 2 for a void of a document already partly refunded', async () => {
    await exampleSale();
    await refund(item('MINIBAR ACQUA', 250, 1, 1000, 2));
    expect((await check('beginRtDocAnnulment')).info.responseBuf).toBe('2');
  });
});

describe('Custom RT simulator: the fiscal day and reports (XML pp.18, 103–105, 121; research §7.3)', () => {
  it('closes the day with printZReport: nClose is the closure, the next document is Z+1 number 1', async () => {
    await exampleSale();
    const z = await post(
      sim,
      report('<printZReport description="" IdCmd="Z1dfba4eb5a17aee57c245affde16cf1E"></printZReport>'),
    );
    expect(z).toMatchObject({ success: true, status: 0 });
    expect(z.info).toMatchObject({
      lastIdCmd: { '@IdCmd': 'Z1dfba4eb5a17aee57c245affde16cf1E', '#text': 'printZReport' },
      lastCommand: 'printZReport',
      nClose: '0143',
    });
    expect(sim.counters).toEqual({ z: 144, doc: 0 });
    expect(sim.printed[1]).toMatchObject({ kind: 'z-report', z: 143, totalCents: 12500 });
    expect((await post(sim, sale(100))).info).toMatchObject({ nClose: '0144', fiscalDoc: '0001' });
  });

  it('refuses a second Z with no document since the last (71, XML-SG PDF p.137)', async () => {
    await exampleSale();
    await post(sim, report('<printZReport/>'));
    expect(await post(sim, report('<printZReport/>'))).toMatchObject({ success: false, status: 71 });
    expect(sim.counters.z).toBe(144);
  });

  it('prints an X report with the day’s totals and changes no counter (p.103)', async () => {
    await exampleSale();
    expect((await post(sim, report('<printXReport/>'))).success).toBe(true);
    expect(sim.printed[1]).toMatchObject({ kind: 'x-report', totals: { receipts: { num: 1, tot: 12500 } } });
    expect(sim.counters).toEqual({ z: 143, doc: 1 });
  });

  it('prints X then Z with printXZReport (p.104)', async () => {
    await exampleSale();
    const a = await post(sim, report('<printXZReport description="ARRIVEDERCI"/>'));
    expect(a.info.nClose).toBe('0143');
    expect(sim.printed.slice(1).map((d) => d.kind)).toEqual(['x-report', 'z-report']);
  });

  it('opens the day with the first document and refuses documents 24 hours later (70; DIO 1530 p.96)', async () => {
    const alarm = async () =>
      (await post(sim, command('<directIO command="1530" data=""/>'))).info.responseBuf;
    expect((await post(sim, command('<getDailyTotals/>'))).info).toMatchObject({
      dailyTotals: { receiptsNum: '0000' },
    });
    await exampleSale();
    expect((await post(sim, command('<getDailyTotals/>'))).info).toMatchObject({
      dailyTotals: { receiptsNum: '0001' },
    });
    clock.advance(23 * 3600 * 1000);
    expect(await alarm()).toBe('153000');
    expect((await post(sim, sale(100))).success).toBe(true);
    clock.advance(3600 * 1000);
    expect(await alarm()).toBe('153011');
    expect(await post(sim, sale(100))).toMatchObject({ success: false, status: 70 });
    await post(sim, report('<printZReport/>'));
    expect(await alarm()).toBe('153000');
    expect((await post(sim, sale(100))).success).toBe(true);
  });

  it('counts receipts, refunds and voids apart in getDailyTotals (p.60)', async () => {
    await exampleSale();
    await exampleSale();
    await refund(item('MINIBAR ACQUA', 250, 1, 1000, 2));
    await annul(2);
    const t = (await post(sim, command('<getDailyTotals></getDailyTotals>'))).info.dailyTotals as Record<
      string,
      unknown
    >;
    expect(t).toMatchObject({
      receiptsNum: '0002',
      receiptsTot: '000025000',
      telematicRefundRecNum: '0001',
      telematicRefundRecTot: '000000250',
      telematicCancelRecNum: '0001',
      telematicCancelRecTot: '000012500',
    });
    expect(t.vatSalesTickets).toMatchObject({ vat2: { rate: '1000', gross: '000024000' } });
  });

  it('reads the day’s VAT and the last document with getVatTotalsOnDemand (pp.72–74)', async () => {
    await exampleSale();
    const a = await post(
      sim,
      command('<getVatTotalsOnDemand vatgroup="0" doctype="0"></getVatTotalsOnDemand>'),
    );
    expect(String(a.info.elementList).split(',')[0]).toBe('getVatTotalsOnDemand');
    expect(a.info.getVatTotalsOnDemand).toMatchObject({
      lastDocument: { number: '1', dateTime: '2026-03-13T10:22:41', total: '125.00', flagDocCanc: '0' },
      vatTotals: { vat1: { rate: '22.00', gross: '5.00' }, vat12: { rate: '0.00', gross: '0.00' } },
    });
  });

  it('prints a copy of the last receipt with printDuplicateReceipt, no new number (p.83)', async () => {
    await exampleSale();
    expect((await post(sim, receipt('<printDuplicateReceipt/>'))).success).toBe(true);
    expect(sim.printed[1]).toMatchObject({ kind: 'copy', copyOf: { z: 143, doc: 1 }, totalCents: 12500 });
    expect(sim.counters.doc).toBe(1);
  });
});

describe('Custom RT simulator: the lottery code (XML p.115; DIO 3019 p.135)', () => {
  const lotterySale = (pay: string, code = 'ABCD1234') =>
    post(
      sim,
      receipt(
        `<beginFiscalReceipt/>${item('CENA', 3000, 2)}<setLotteryCode code="${code}"/>${pay}<endFiscalReceipt/>`,
      ),
    );

  it('takes a lottery code on a sale paid by card', async () => {
    expect((await lotterySale(payment(3000, 3, 'CARTA'))).success).toBe(true);
    expect(sim.printed[0]?.lottery).toBe('ABCD1234');
  });

  it('refuses a cash payment on a lottery receipt with 137 (L. 160/2019 c.540; DIO-SG p.306), either order', async () => {
    expect(await lotterySale(payment(3000, 1))).toMatchObject({ success: false, status: 137 });
    await post(sim, command('<resetPrinter/>'));
    const cashFirst = await post(
      sim,
      receipt(
        `<beginFiscalReceipt/>${item('CENA', 3000, 2)}${payment(1000, 1)}<setLotteryCode code="ABCD1234"/>`,
      ),
    );
    expect(cashFirst).toMatchObject({ success: false, status: 137 });
  });

  it('refuses a code outside 6–22 letters and digits (3)', async () => {
    expect(await lotterySale(payment(3000, 3), 'AB-1')).toMatchObject({ success: false, status: 3 });
  });
});
