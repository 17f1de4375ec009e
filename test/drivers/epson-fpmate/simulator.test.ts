import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseLastDocument, parseSerialAnswer } from '../../../drivers/epson-fpmate/last-document.js';
import { type FpmateSimulator, startFpmateSimulator } from '../../../drivers/epson-fpmate/simulator/index.js';
import { envelope } from '../../../drivers/epson-fpmate/xml-build.js';
import { type FpmateResponse, parseFpmateResponse } from '../../../drivers/epson-fpmate/xml-response.js';
import { ManualClock } from '../../../src/clock.js';

let sim: FpmateSimulator;
let clock: ManualClock;

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 10, 21, 13, 5));
  sim = await startFpmateSimulator({ host: '127.0.0.1', port: 0, clock });
});
afterEach(async () => {
  await sim.close();
});

async function post(body: string, wrap = true): Promise<FpmateResponse> {
  const res = await fetch(`${sim.url}/cgi-bin/fpmate.cgi?devid=local_printer&timeout=1000`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8' },
    body: wrap ? envelope(body) : body,
  });
  const parsed = parseFpmateResponse(await res.text());
  if (!parsed) throw new Error('unparseable answer');
  return parsed;
}

const item = (price = '10.00', description = 'Caffè', extra = '') =>
  `<printRecItem operator="1" description="${description}" quantity="1" unitPrice="${price}" department="1"${extra}/>`;
const total = (payment = '10.00', type = '0') =>
  `<printRecTotal operator="1" description="Pagamento" payment="${payment}" paymentType="${type}" index="0"/>`;
const receipt = (inner: string, first = '') =>
  `<printerFiscalReceipt>${first}<beginFiscalReceipt operator="1"/>${inner}<endFiscalReceipt operator="1"/></printerFiscalReceipt>`;
const reference = (kind: string, z: number, doc: number, date: string, serial = '99MEY123456') =>
  `<printRecMessage operator="1" messageType="4" message="${kind} ${String(z).padStart(4, '0')} ${String(doc).padStart(4, '0')} ${date} ${serial}"/>`;
const refundLine = (price: string) =>
  `<printRecRefund operator="1" description="Reso" quantity="1" unitPrice="${price}" department="1"/>`;
const outcome = (r: FpmateResponse) =>
  r.success ? 'ok' : `${r.code}${r.code === 'PRINTER ERROR' ? ` ${r.status}` : ''}`;

describe('simulated RT printer: documents', () => {
  it('prints a receipt and answers its number, amount (comma), date and Z', async () => {
    const r = await post(receipt(item('12.50') + item('7.55', 'Brioche') + total('20.05')));
    expect(r.success).toBe(true);
    expect(r.addInfo).toMatchObject({
      fiscalReceiptNumber: '1',
      fiscalReceiptAmount: '20,05',
      fiscalReceiptDate: '21/11/2026',
      fiscalReceiptTime: '14:05',
      zRepNumber: '1',
      printerStatus: '00110',
    });
    expect(sim.counters).toEqual({ z: 1, doc: 1 });
    expect(sim.printed[0]).toMatchObject({
      kind: 'sale',
      z: 1,
      doc: 1,
      totalCents: 2005,
      dateTime: '2026-11-21 14:05',
    });
  });

  it.each([
    ['three decimals in an amount', receipt(item('10.001') + total()), 'PRINTER ERROR 13'],
    ['an amount over nine digits of cents', receipt(item('10000000.00') + total()), 'PRINTER ERROR 20'],
    [
      'a description longer than 38 characters',
      receipt(item('10.00', 'x'.repeat(39)) + total()),
      'PRINTER ERROR 13',
    ],
    [
      'an item before beginFiscalReceipt',
      `<printerFiscalReceipt>${item()}<beginFiscalReceipt/>${total()}<endFiscalReceipt/></printerFiscalReceipt>`,
      'PRINTER ERROR 11',
    ],
    [
      'no endFiscalReceipt',
      `<printerFiscalReceipt><beginFiscalReceipt/>${item()}${total()}</printerFiscalReceipt>`,
      'INCOMPLETE FILE',
    ],
    ['an unknown element', receipt(`${item()}<printRecDance/>${total()}`), 'Non valid XML command'],
    ['a payment short of the total', receipt(item('10.00') + total('9.99')), 'PRINTER ERROR 11'],
    ['change on a card payment', receipt(item('10.00') + total('12.00', '2')), 'PRINTER ERROR 20'],
    ['a refund line in a sale', receipt(refundLine('5.00') + total('5.00')), 'PRINTER ERROR 11'],
  ])('refuses %s and prints nothing', async (_name, body, expected) => {
    expect(outcome(await post(body))).toBe(expected);
    expect(sim.printed).toEqual([]);
    expect(sim.counters).toEqual({ z: 1, doc: 0 });
  });

  it('takes decimal commas as printers do (fiskaltrust scu-it writes them: Utilities/EpsonFormatters.cs)', async () => {
    const body = receipt(
      '<printRecItem operator="1" description="Acqua" quantity="1,5" unitPrice="2,35" department="1"/>' +
        total('3,53'),
    );
    expect(outcome(await post(body))).toBe('ok');
    // 1.5 × 2.35 = 3.525, rounded half up to 3.53 as the printer rounds a line.
    expect(sim.printed[0]?.lines[0]).toMatchObject({ quantity: 1.5, unitPriceCents: 235, amountCents: 353 });
  });

  it('gives change on cash', async () => {
    expect(outcome(await post(receipt(item('10.00') + total('20.00', '0'))))).toBe('ok');
  });

  it('answers PARSER_ERROR to garbage, and 404 off the fpmate path', async () => {
    expect(outcome(await post('<<<not xml', false))).toBe('PARSER_ERROR');
    expect(outcome(await post('<fvp_doc/>'))).toBe('Non valid XML command');
    expect((await fetch(`${sim.url}/index.html`)).status).toBe(404);
  });

  it('checks refund and void references like an RT (statuses 39–42)', async () => {
    await post(receipt(item('30.00') + total('30.00')));
    await post(receipt(item('8.00') + total('8.00')));
    const refund = (z: number, doc: number, date: string, price: string, serial?: string) =>
      post(receipt(refundLine(price) + total(price), reference('REFUND', z, doc, date, serial)));
    expect(outcome(await refund(1, 9, '21112026', '5.00'))).toBe('PRINTER ERROR 42');
    expect(outcome(await refund(1, 1, '20112026', '5.00'))).toBe('PRINTER ERROR 42');
    expect(outcome(await refund(1, 1, '21112026', '20.00'))).toBe('ok');
    expect(outcome(await refund(1, 3, '21112026', '1.00'))).toBe('PRINTER ERROR 42');
    expect(outcome(await refund(1, 1, '21112026', '10.01'))).toBe('PRINTER ERROR 40');
    expect(outcome(await refund(1, 1, '21112026', '10.00'))).toBe('ok');
    expect(outcome(await refund(7, 7, '01012026', '3.00', '99XYZ000001'))).toBe('ok');
    const voidOf = (doc: number) =>
      post(
        `<printerFiscalReceipt>${reference('VOID', 1, doc, '21112026')}<beginFiscalReceipt/><endFiscalReceipt/></printerFiscalReceipt>`,
      );
    expect(outcome(await voidOf(1))).toBe('PRINTER ERROR 40');
    expect(outcome(await voidOf(99))).toBe('PRINTER ERROR 41');
    expect(outcome(await voidOf(2))).toBe('ok');
    expect(outcome(await voidOf(2))).toBe('PRINTER ERROR 39');
    expect(outcome(await refund(1, 2, '21112026', '1.00'))).toBe('PRINTER ERROR 39');
    expect(sim.printed.map((d) => `${d.kind} ${d.doc} ${d.totalCents}`)).toEqual([
      'sale 1 3000',
      'sale 2 800',
      'refund 3 2000',
      'refund 4 1000',
      'refund 5 300',
      'void 6 800',
    ]);
  });

  it('closes the day with a Z report: Z moves on, numbering restarts', async () => {
    await post(receipt(item() + total()));
    const z = await post(
      '<printerFiscalReport><displayText data="Chiusura"/><printZReport operator="1"/></printerFiscalReport>',
    );
    expect(z.addInfo.zRepNumber).toBe('1');
    expect(sim.counters).toEqual({ z: 2, doc: 0 });
    expect((await post(receipt(item() + total()))).addInfo).toMatchObject({
      fiscalReceiptNumber: '1',
      zRepNumber: '2',
    });
  });
});

describe('simulated RT printer: reads and faults', () => {
  const lastDocument = async () =>
    parseLastDocument(
      (await post('<printerCommand><directIO command="1387" data="01"/></printerCommand>')).addInfo
        .responseData,
    );

  it('reads the last emitted document, fiscal or not', async () => {
    expect(await lastDocument()).toMatchObject({ z: 1, doc: 0, fiscal: true, serial: '99MEY123456' });
    await post(receipt(item('4.20') + total('4.20')));
    expect(await lastDocument()).toMatchObject({
      z: 1,
      doc: 1,
      totalCents: 420,
      dateTime: '2026-11-21 14:05',
      fiscal: true,
    });
    await post(
      '<printerNonFiscal><beginNonFiscal/><printNormal data="Wi-Fi: hotel"/><endNonFiscal/></printerNonFiscal>',
    );
    expect(await lastDocument()).toMatchObject({ doc: 1, fiscal: false });
  });

  it('answers the serial number read (3217/00) laid out as fiskaltrust parses it, completed by rtType', async () => {
    const serial = await post('<printerCommand><directIO command="3217" data="00"/></printerCommand>');
    expect(serial.addInfo.responseData).toBe('00123456EY99');
    const status = await post(
      '<printerCommand><queryPrinterStatus operator="1" statusType="1"/></printerCommand>',
    );
    expect(parseSerialAnswer(serial.addInfo.responseData, status.addInfo.rtType)).toBe('99MEY123456');
  });

  it.each(['1078', '9999', ''])(
    'refuses directIO %s as a printer refuses an unknown command: PRINTER ERROR 16 (fiskaltrust Models/ErrorInfoFactory.cs)',
    async (command) => {
      const answer = await post(
        `<printerCommand><directIO command="${command}" data="01"/></printerCommand>`,
      );
      expect(outcome(answer)).toBe('PRINTER ERROR 16');
      expect(answer.addInfo.responseData).toBeUndefined();
      expect(sim.printed).toEqual([]);
    },
  );

  it('answers the RT status and reflects fault switches in it', async () => {
    await sim.setFault('journalNearFull', true);
    await sim.setFault('rtFiles', { toSend: 4, old: 1, rejected: 2 });
    await sim.setFault('trainingMode', true);
    const r = await post(
      '<printerCommand><queryPrinterStatus operator="1" statusType="1"/></printerCommand>',
    );
    expect(r.addInfo).toMatchObject({
      printerStatus: '01110',
      rtDailyOpen: '0',
      rtFileToSend: '4',
      rtOldFileToSend: '1',
      rtFileRejected: '2',
      rtTrainingMode: '1',
      rtExpiryCD: '20301231',
    });
  });

  it('paper out / cover open refuse documents but still answer status', async () => {
    await sim.setFault('paperOut', true);
    expect(outcome(await post(receipt(item() + total())))).toBe('EPTR_REC_EMPTY');
    expect(
      (await post('<printerCommand><queryPrinterStatus statusType="0"/></printerCommand>')).addInfo
        .printerStatus,
    ).toBe('30110');
    await sim.setFault('paperOut', false);
    await sim.setFault('coverOpen', true);
    expect(outcome(await post(receipt(item() + total())))).toBe('PRINTER ERROR 3');
    expect(sim.printed).toEqual([]);
  });

  it('timeOutAfterPrint prints, then answers LAN_TIME_OUT', async () => {
    await sim.setFault('timeOutAfterPrint', true);
    expect(outcome(await post(receipt(item() + total())))).toBe('LAN_TIME_OUT');
    expect(sim.printed).toHaveLength(1);
  });

  it('oversizedAnswer streams junk until the peer hangs up; truncatedAnswer breaks off half-way', async () => {
    await sim.setFault('oversizedAnswer', { bytes: 1_000_000 });
    const big = await fetch(`${sim.url}/cgi-bin/fpmate.cgi`, {
      method: 'POST',
      body: envelope(receipt(item() + total())),
    });
    expect((await big.arrayBuffer()).byteLength).toBe(1_000_000);
    expect(sim.printed).toHaveLength(1);
    await sim.setFault('oversizedAnswer', false);
    await sim.setFault('truncatedAnswer', true);
    await expect(post(receipt(item() + total()))).rejects.toThrow();
    expect(sim.printed).toHaveLength(2);
  });

  it('tells listeners about each request once it is handled, before the answer leaves', async () => {
    const seen: string[] = [];
    const off = sim.onHandled((r) => {
      seen.push(`${r.root} ${r.printed}`);
      void sim.setFault('paperOut', true);
    });
    expect(outcome(await post(receipt(item() + total())))).toBe('ok');
    off();
    expect(outcome(await post(receipt(item() + total())))).toBe('EPTR_REC_EMPTY');
    expect(seen).toEqual(['printerFiscalReceipt true']);
  });

  it('busy answers LAN_TIME_OUT to everything', async () => {
    await sim.setFault('busy', true);
    expect(outcome(await post(receipt(item() + total())))).toBe('LAN_TIME_OUT');
    expect(sim.printed).toEqual([]);
  });

  it('drops the connection after printing, or before', async () => {
    await sim.setFault('dropAfterPrint', true);
    await expect(post(receipt(item() + total()))).rejects.toThrow();
    expect(sim.printed).toHaveLength(1);
    await sim.setFault('dropAfterPrint', false);
    await sim.setFault('dropBeforePrint', true);
    await expect(post(receipt(item() + total()))).rejects.toThrow();
    expect(sim.printed).toHaveLength(1);
  });

  it('refuses connections while switched off, and comes back on the same address', async () => {
    await sim.setFault('refused', true);
    await expect(post('<printerCommand><resetPrinter operator="1"/></printerCommand>')).rejects.toThrow();
    await sim.setFault('refused', false);
    expect(outcome(await post('<printerCommand><resetPrinter operator="1"/></printerCommand>'))).toBe('ok');
  });

  it('refuses receipts once the fiscal day is open for more than 24 hours', async () => {
    await post(receipt(item() + total()));
    await clock.advance(24 * 3600 * 1000 + 1);
    expect(outcome(await post(receipt(item() + total())))).toBe('PRINTER ERROR 17');
    await post('<printerFiscalReport><printZReport/></printerFiscalReport>');
    expect(outcome(await post(receipt(item() + total())))).toBe('ok');
  });
});
