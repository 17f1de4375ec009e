import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FpmateSimulator, startFpmateSimulator } from '../../../drivers/epson-fpmate/simulator/index.js';
import { envelope } from '../../../drivers/epson-fpmate/xml-build.js';
import { type FpmateResponse, parseFpmateResponse } from '../../../drivers/epson-fpmate/xml-response.js';
import { ManualClock } from '../../../src/clock.js';
import { createHttpClient } from '../../../src/transport/http.js';

/**
 * The simulated RT printer's fiscal rules, each checked against what public drivers send and read
 * (cited per test) — never against our own driver.
 */

let sim: FpmateSimulator;
let clock: ManualClock;
const client = createHttpClient();

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 10, 21, 13, 5));
  sim = await startFpmateSimulator({ host: '127.0.0.1', port: 0, clock });
});
afterEach(async () => {
  await sim.close();
});

async function post(body: string): Promise<FpmateResponse> {
  const res = await client.request({
    method: 'POST',
    url: `${sim.url}/cgi-bin/fpmate.cgi?devid=local_printer&timeout=1000`,
    headers: { 'Content-Type': 'text/xml; charset=utf-8' },
    body: envelope(body),
    timeoutMs: 5000,
    maxBytes: 65536,
  });
  const parsed = parseFpmateResponse(res.body.toString('utf8'));
  if (!parsed) throw new Error('unparseable answer');
  return parsed;
}

const outcome = (r: FpmateResponse) =>
  r.success ? 'ok' : `${r.code}${r.code === 'PRINTER ERROR' ? ` ${r.status}` : ''}`;
const item = (price: string, department = 1) =>
  `<printRecItem operator="1" description="Voce" quantity="1" unitPrice="${price}" department="${department}"/>`;
const total = (payment: string, type = 0, index = 0) =>
  `<printRecTotal operator="1" description="Pagamento" payment="${payment}" paymentType="${type}" index="${index}"/>`;
const adjustment = (type: number, amount: string, department = 1) =>
  `<printRecItemAdjustment operator="1" description="Acconto" adjustmentType="${type}" amount="${amount}" department="${department}" justification="1"/>`;
const receipt = (inner: string, first = '') =>
  `<printerFiscalReceipt>${first}<beginFiscalReceipt operator="1"/>${inner}<endFiscalReceipt operator="1"/></printerFiscalReceipt>`;
const message = (text: string) => `<printRecMessage operator="1" messageType="4" message="${text}"/>`;
const status = () =>
  post('<printerCommand><queryPrinterStatus operator="1" statusType="1"/></printerCommand>');
const direct = (command: string, data: string) =>
  post(`<printerCommand><directIO command="${command}" data="${data}"/></printerCommand>`);

describe('simulated RT: departments, natures and deductions', () => {
  it('prints each department in its programmed VAT class (fiskaltrust GetVatGroup): 1–4 rates, 10–15 natures', async () => {
    expect(
      outcome(
        await post(
          receipt(item('10.00', 1) + item('5.00', 4) + item('3.50', 10) + item('2.00', 11) + total('20.50')),
        ),
      ),
    ).toBe('ok');
    expect(sim.printed[0]?.lines.map((l) => [l.department, l.vatClass])).toEqual([
      [1, '22%'],
      [4, '5%'],
      [10, 'N1'],
      [11, 'N2'],
    ]);
    expect(sim.totals.sales).toEqual({ '22%': 1000, '5%': 500, N1: 350, N2: 200 });
  });

  it('deducts a deposit (acconto, adjustment 10: procassa itemAcconto) and a single-use voucher (12: fiskaltrust)', async () => {
    const body = receipt(
      item('100.00', 2) + adjustment(10, '30.00', 2) + adjustment(12, '20.00', 2) + total('50.00'),
    );
    expect(outcome(await post(body))).toBe('ok');
    expect(sim.printed[0]).toMatchObject({ totalCents: 5000 });
    expect(sim.totals.deductions).toEqual({ '10': 3000, '12': 2000 });
  });

  it('refuses a deduction larger than its department carries (13), and a fully deducted receipt prints at zero', async () => {
    expect(outcome(await post(receipt(item('10.00', 1) + adjustment(10, '20.00', 1) + total('0.00'))))).toBe(
      'PRINTER ERROR 13',
    );
    expect(outcome(await post(receipt(item('10.00', 1) + adjustment(10, '10.00', 1) + total('0.00'))))).toBe(
      'ok',
    );
    expect(sim.printed.at(-1)?.totalCents).toBe(0);
  });
});

describe('simulated RT: customer codes and the lottery', () => {
  it('takes a partita IVA (1060) and a codice fiscale (1061) as fiskaltrust sends them, refusing a bad check (30)', async () => {
    const withCode = (command: string, id: string) =>
      post(receipt(`${item('10.00')}${total('10.00')}<directIO command="${command}" data="01${id}"/>`));
    expect(outcome(await withCode('1060', '01606720215'))).toBe('ok');
    expect(sim.printed.at(-1)?.customer).toEqual({ command: '1060', id: '01606720215' });
    expect(outcome(await withCode('1061', 'RSSMRA80A01H501U'))).toBe('ok');
    expect(outcome(await withCode('1060', '01606720216'))).toBe('PRINTER ERROR 30');
    expect(outcome(await withCode('1061', 'RSSMRA80A01H501V'))).toBe('PRINTER ERROR 30');
    expect(sim.printed).toHaveLength(2);
  });

  it('takes the lottery code as printRecLotteryID (fiskaltrust) and as directIO 1135 (OCA), refusing a bad one (30)', async () => {
    expect(
      outcome(
        await post(
          receipt(`${item('10.00')}<printRecLotteryID operator="1" code="AB12CD34"/>${total('10.00', 2, 1)}`),
        ),
      ),
    ).toBe('ok');
    expect(sim.printed.at(-1)?.lottery).toBe('AB12CD34');
    expect(
      outcome(
        await post(
          receipt(
            `${item('10.00')}<directIO command="1135" data="01ZZ99ZZ99        0000"/>${total('10.00', 2, 1)}`,
          ),
        ),
      ),
    ).toBe('ok');
    expect(sim.printed.at(-1)?.lottery).toBe('ZZ99ZZ99');
    expect(
      outcome(
        await post(
          receipt(`${item('10.00')}<printRecLotteryID operator="1" code="AB-12"/>${total('10.00', 2, 1)}`),
        ),
      ),
    ).toBe('PRINTER ERROR 30');
  });
});

describe('simulated RT: voids, unreferenced refunds and the reference check', () => {
  beforeEach(async () => {
    expect(outcome(await post(receipt(item('30.00') + total('30.00'))))).toBe('ok');
  });

  it.each([
    [
      'the reference alone (lyancoder/fiscal-printer convertCancelToXmlDoc)',
      `<printerFiscalReceipt>${message('VOID 0001 0001 21112026 99MEY123456')}</printerFiscalReceipt>`,
    ],
    [
      'the reference, a bare printRecTotal and endFiscalReceipt (procassa annulloDirettoScontrino)',
      `<printerFiscalReceipt>${message('VOID 0001 0001 21112026 99MEY123456')}<printRecTotal operator="1"/><endFiscalReceipt operator="1"/></printerFiscalReceipt>`,
    ],
    [
      'a whole document with printRecVoid lines (fiskaltrust CreateVoidRequestContent)',
      receipt(
        `<printRecVoid operator="1" description="Voce" quantity="1" unitPrice="30.00" department="1"/>${total('30.00')}`,
        message('VOID 0001 0001 21112026 99MEY123456'),
      ),
    ],
  ])('voids in the forms public drivers send: %s', async (_name, body) => {
    expect(outcome(await post(body))).toBe('ok');
    expect(sim.printed.at(-1)).toMatchObject({ kind: 'void', totalCents: 3000 });
    expect(sim.printed[0]?.voided).toBe(true);
    expect(sim.totals.voids).toBe(3000);
  });

  it('takes a refund that names no receipt as REFUND 0000 0000 ddMMyyyy ND (fiskaltrust), but not a void without one', async () => {
    const refund = (ref: string) =>
      post(
        receipt(
          `<printRecRefund operator="1" description="Reso" quantity="1" unitPrice="5.00" department="1"/>${total('5.00')}`,
          message(ref),
        ),
      );
    expect(outcome(await refund('REFUND 0000 0000 21112026 ND'))).toBe('ok');
    expect(sim.printed.at(-1)?.reference).toEqual({
      kind: 'REFUND',
      z: 0,
      doc: 0,
      date: '21112026',
      serial: 'ND',
    });
    expect(outcome(await refund('REFUND 0001 0001 21112026 ND'))).toBe('PRINTER ERROR 13');
    expect(outcome(await refund('REFUND 0000 0000 31132026 ND'))).toBe('PRINTER ERROR 13');
    expect(
      outcome(
        await post(`<printerFiscalReceipt>${message('VOID 0000 0000 21112026 ND')}</printerFiscalReceipt>`),
      ),
    ).toBe('PRINTER ERROR 13');
  });

  it('answers directIO 9205 as procassa and the gutenberg JPOS driver read it: first character 0 or 1 yes, else no', async () => {
    // data = 1 refund | 2 void, serial (11), DDMMYYYY, document (4), Z (4).
    const check = async (data: string) => (await direct('9205', data)).addInfo.responseData?.charAt(0);
    expect(await check('299MEY1234562111202600010001')).toBe('0');
    expect(await check('199MEY1234562111202600010001')).toBe('0');
    expect(await check('299MEY1234562011202600010001')).toBe('2'); // wrong date
    expect(await check('299MEY1234562111202600090001')).toBe('2'); // no such receipt
    expect(await check('299XYZ0000012111202600010001')).toBe('2'); // another printer's
    const partly = receipt(
      `<printRecRefund operator="1" description="Reso" quantity="1" unitPrice="5.00" department="1"/>${total('5.00')}`,
      message('REFUND 0001 0001 21112026 99MEY123456'),
    );
    expect(outcome(await post(partly))).toBe('ok');
    expect(await check('199MEY1234562111202600010001')).toBe('1'); // partly refunded: still refundable
    expect(await check('299MEY1234562111202600010001')).toBe('2'); // but no longer voidable
    expect(outcome(await direct('9205', 'garbage'))).toBe('PRINTER ERROR 13');
    await sim.setFault('noReferenceCheck', true);
    expect(outcome(await direct('9205', '299MEY1234562111202600010001'))).toBe('PRINTER ERROR 16');
  });
});

describe('simulated RT: reports, the fiscal day and transmissions', () => {
  it('closes with printXZReport (OCA) or printZReport (fiskaltrust); an X report changes nothing', async () => {
    await post(receipt(item('10.00') + total('10.00')));
    const x = await post('<printerFiscalReport><printXReport operator="1"/></printerFiscalReport>');
    expect(x.addInfo).toMatchObject({ zRepNumber: '1', dailyAmount: '10,00' });
    expect(sim.counters).toEqual({ z: 1, doc: 1 });
    const z = await post('<printerFiscalReport><printXZReport operator="1"/></printerFiscalReport>');
    expect(z.addInfo.zRepNumber).toBe('1');
    expect(sim.counters).toEqual({ z: 2, doc: 0 });
    await post(receipt(item('10.00') + total('10.00')));
    await post('<printerFiscalReport><printZReport operator="1"/></printerFiscalReport>');
    expect(sim.counters).toEqual({ z: 3, doc: 0 });
    expect(sim.printed.map((d) => d.kind)).toEqual(['sale', 'x-report', 'z-report', 'sale', 'z-report']);
  });

  it('reports the day open, refuses receipts after 24 hours (17) and says it waits for the closure (procassa rtNoWorkingPeriod)', async () => {
    expect((await status()).addInfo).toMatchObject({
      rtDailyOpen: '0',
      rtNoWorkingPeriod: '0',
      mfStatus: '02',
      rtMainStatus: '02',
    });
    await post(receipt(item('10.00') + total('10.00')));
    expect((await status()).addInfo.rtDailyOpen).toBe('1');
    await clock.advance(24 * 3_600_000 + 1);
    expect((await status()).addInfo.rtNoWorkingPeriod).toBe('1');
    expect(outcome(await post(receipt(item('10.00') + total('10.00'))))).toBe('PRINTER ERROR 17');
    await post('<printerFiscalReport><printXZReport operator="1"/></printerFiscalReport>');
    expect((await status()).addInfo).toMatchObject({ rtDailyOpen: '0', rtNoWorkingPeriod: '0' });
  });

  it('keeps each closed day as a file for the tax agency: sent after a few minutes, waiting (then old) while it is unreachable', async () => {
    const files = async () => {
      const a = (await status()).addInfo;
      return [a.rtFileToSend, a.rtOldFileToSend];
    };
    await post(receipt(item('10.00') + total('10.00')));
    await post('<printerFiscalReport><printXZReport operator="1"/></printerFiscalReport>');
    expect(await files()).toEqual(['1', '0']);
    await clock.advance(6 * 60_000);
    expect(await files()).toEqual(['0', '0']);
    await sim.setFault('transmissionDown', true);
    await post(receipt(item('10.00') + total('10.00')));
    await post('<printerFiscalReport><printXZReport operator="1"/></printerFiscalReport>');
    await clock.advance(2 * 3_600_000);
    expect(await files()).toEqual(['1', '0']);
    await clock.advance(23 * 3_600_000);
    expect(await files()).toEqual(['0', '1']);
    await sim.setFault('transmissionDown', false);
    expect(await files()).toEqual(['0', '0']);
  });

  it('reports an RT not in service (procassa EpsonDecodeStatoRT) and its fiscal memory (fiskaltrust ParseStatus)', async () => {
    await sim.setFault('rtNotInService', { subStatus: '07' });
    expect((await status()).addInfo).toMatchObject({ rtMainStatus: '01', rtSubStatus: '07', mfStatus: '01' });
  });
});
