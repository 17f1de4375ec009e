import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FpmateSimulator, startFpmateSimulator } from '../../../drivers/epson-fpmate/simulator/index.js';
import { envelope } from '../../../drivers/epson-fpmate/xml-build.js';
import { type FpmateResponse, parseFpmateResponse } from '../../../drivers/epson-fpmate/xml-response.js';
import { ManualClock } from '../../../src/clock.js';
import { createHttpClient } from '../../../src/transport/http.js';

/**
 * The simulated RT printer's programming reads, journal copy and the two kinds of status 17,
 * each checked against public drivers (cited per test) — never against our own driver.
 */

let sim: FpmateSimulator;
let clock: ManualClock;
const client = createHttpClient();

async function start(options: Parameters<typeof startFpmateSimulator>[0] = {}) {
  sim = await startFpmateSimulator({ host: '127.0.0.1', port: 0, clock, ...options });
}
beforeEach(() => {
  clock = new ManualClock(Date.UTC(2026, 10, 21, 13, 5));
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
const direct = (command: string, data: string) =>
  post(`<printerCommand><directIO command="${command}" data="${data}"/></printerCommand>`);
const sale = (price: string, department = 1) =>
  post(
    `<printerFiscalReceipt><beginFiscalReceipt operator="1"/><printRecItem operator="1" description="Voce" quantity="1" unitPrice="${price}" department="${department}"/><printRecTotal operator="1" description="Pagamento" payment="${price}" paymentType="0" index="0"/><endFiscalReceipt operator="1"/></printerFiscalReceipt>`,
  );
const status = () =>
  post('<printerCommand><queryPrinterStatus operator="1" statusType="1"/></printerCommand>');

describe('simulated RT: the programming reads (42xx reads what 40xx writes)', () => {
  // gutenbergPrinter-epson tax/VatCommands.java SetDepartment: 4002 writes department 2,
  // description 20, prices 3 × 9, single item 1, VAT group 2, … — 4202 answers that record.
  it('4202 answers the department record with its VAT group at the place 4002 writes it', async () => {
    await start();
    const answer = await direct('4202', '02');
    expect(outcome(answer)).toBe('ok');
    const data = answer.addInfo.responseData ?? '';
    expect(data.slice(0, 2)).toBe('02');
    expect(data.slice(2 + 20 + 27 + 1, 2 + 20 + 27 + 1 + 2)).toBe('02');
    // Natures: fiskaltrust scu-it EpsonCommandFactory.cs GetVatGroup (10–15 = EE … AL).
    const nature = (await direct('4202', '10')).addInfo.responseData ?? '';
    expect(nature.slice(50, 52)).toBe('10');
    const none = (await direct('4202', '40')).addInfo.responseData ?? '';
    expect(none.slice(50, 52)).toBe('00');
  });

  // gutenbergPrinter-epson tax/VatCommands.java SetVatValue (4005 writes VV + RRRR) and
  // PrinterCommands.java MixedVat (reads 4205 and expects 6 characters back).
  it('4205 answers the VAT group and its rate in hundredths of a percent', async () => {
    await start();
    expect((await direct('4205', '01')).addInfo.responseData).toBe('012200');
    expect((await direct('4205', '04')).addInfo.responseData).toBe('040500');
  });

  it('follows another programming (5 % in department 3, 4 % in 4: the efsta way)', async () => {
    await start({ departments: { 1: { rate: 22 }, 2: { rate: 10 }, 3: { rate: 5 }, 4: { rate: 4 } } });
    const group = ((await direct('4202', '03')).addInfo.responseData ?? '').slice(50, 52);
    expect((await direct('4205', group)).addInfo.responseData).toBe(`${group}0500`);
  });

  // fiskaltrust scu-it Models/ErrorInfoFactory.cs: 16 "not expected" — a command the firmware lacks.
  it('an older firmware refuses both reads with PRINTER ERROR 16', async () => {
    await start();
    await sim.setFault('noProgrammingRead', true);
    expect(outcome(await direct('4202', '01'))).toBe('PRINTER ERROR 16');
    expect(outcome(await direct('4205', '01'))).toBe('PRINTER ERROR 16');
  });
});

describe('simulated RT: a copy of a receipt from the journal (directIO 3098)', () => {
  // gutenbergPrinter-epson report/Report.java: executeDirectIo(3098, "01" + DDMMYY + from + to);
  // Odoo l10n_it_pos prints the same copy with printContentByNumbers (day, month, year, numbers).
  it('prints the named receipt again as a non-fiscal copy; the fiscal counters do not move', async () => {
    await start();
    expect(outcome(await sale('12.00'))).toBe('ok');
    expect(outcome(await sale('30.00'))).toBe('ok');
    const before = { ...sim.counters };
    expect(outcome(await direct('3098', '01211126' + '0002' + '0002'))).toBe('ok');
    const copies = sim.printed.filter((d) => d.kind === 'non-fiscal');
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ copyOf: { z: 1, doc: 2 }, totalCents: 3000 });
    expect(sim.counters).toEqual(before);
    expect(sim.printed.filter((d) => d.kind === 'sale')).toHaveLength(2);
  });

  // Not in the sources: what a printer answers for a receipt its journal lacks. Our reading: 13.
  it('refuses a receipt the journal does not hold (another day, another number) and prints nothing', async () => {
    await start();
    await sale('12.00');
    expect(outcome(await direct('3098', '01201126' + '0001' + '0001'))).toBe('PRINTER ERROR 13');
    expect(outcome(await direct('3098', '01211126' + '0005' + '0005'))).toBe('PRINTER ERROR 13');
    expect(sim.printed.filter((d) => d.kind === 'non-fiscal')).toHaveLength(0);
  });
});

describe('simulated RT: status 17 with and without the closure due', () => {
  // procassa lib/epsonxml.js EpsonDecodeNoWorkingPeriod: rtNoWorkingPeriod 1 = "waiting for the
  // daily closure"; fiskaltrust Models/ErrorInfoFactory.cs L43: 17 = "not possible now".
  it('refuses a receipt with 17 and says it waits for the closure once the day is over 24 h', async () => {
    await start();
    await sale('1.00');
    await clock.advance(25 * 3600 * 1000);
    expect(outcome(await sale('1.00'))).toBe('PRINTER ERROR 17');
    expect((await status()).addInfo.rtNoWorkingPeriod).toBe('1');
  });

  it('a 17 for another reason leaves rtNoWorkingPeriod 0', async () => {
    await start();
    await sale('1.00');
    await sim.setFault('refuseDocuments', { status: '17' });
    expect(outcome(await sale('1.00'))).toBe('PRINTER ERROR 17');
    expect((await status()).addInfo).toMatchObject({ rtDailyOpen: '1', rtNoWorkingPeriod: '0' });
  });
});
