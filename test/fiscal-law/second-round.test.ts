import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { english } from '../../src/messages/render.js';
import { billCents, item, pay, publish, refundOf, type WireCommandOptions } from './helpers.js';
import type { FamilyBench, LawDoc, LawFamily, LawItem } from './law-bench.js';
import { LAW_FAMILIES } from './rt-families.js';

/**
 * Issue 39, second part, over every RT family registered in `rt-families.ts` (a family joins by
 * registering; a case that does not apply says why with its source). Sources:
 *
 * - [CLOSED] a printer's VAT programming changes with the fiscal day closed: JavaPOS
 *   `tax/VatCommands.java` `setVATtable` returns while `isDailyOpen()`
 *   (linokoetting/iconic.mytrade.gutenbergPrinter-epson); Custom `setVatRate`, XML protocol manual
 *   rev 2.00 p.116. So the programming is read again after every Z and before refusing a bill.
 * - [GVR] Custom `getVatRate`, XML p.71 (and native 7112, directIO manual rev 6.00 p.253): the slot
 *   decides a line's VAT; [4202] Epson `directIO 4202`/`4205` (drivers/epson-fpmate/programming.ts).
 * - [P16] XML p.16: every fiscal receipt, refunds included, is "Sale(s), Payment(s)"; p.99
 *   `printRecTotal`. Epson prints a refund's payments as its sales' (receipt-xml.ts).
 * - [P39] XML p.39 `beginRtDocRefundSpecial`, "Returning a receipt of a different device": a
 *   printer finds only its own journal, so no `checkOnly` (pp.36, 38) for another device's receipt.
 *   Epson checks a reference (`directIO 9205`) only when it names its own serial (fiscal-work.ts).
 * - [P87] XML p.87 `printRecAdvancePayments`, the deposit previously paid; Epson's acconto is
 *   `printRecItemAdjustment` type 10 (721377/procassa `itemAcconto`). A deposit keeps the VAT of
 *   its own receipt (art. 6 c. 4 DPR 633/72, deductions.ts).
 * - [3007] directIO manual p.119: 51 "non riscosso fatture", the demo's Custom number for invoices.
 * - [30] Epson status 30 "CHECKSUM ERRATO" (fiskaltrust `Models/ErrorInfoFactory.cs` L57); the
 *   promise of `drivers/fiscal-it/lottery.ts`: a code the printer refuses never costs the receipt.
 * - [COD] XML pp.36, 38: `codLottery` on `beginRtDocAnnulment` and `beginRtDocRefund`; RCH's
 *   refund prints the lottery line after its lines (lucafabbri/rch-driver-js `src/Driver.ts`
 *   `printReceipt`; linokoetting/iconic.mytrade.gutenbergPrinter-rch `PrinterCommands.java`
 *   `printRecTotal`, a refund's `SendLotteryCode`).
 *
 * RCH (drivers/rch-rt/): [P16] both public drivers close a refund with a payment command
 * (rch-driver-js `printReceipt` `=T1`); [P87] the acconto is an advance line `=R<dept>/$…/&2`
 * (gutenbergPrinter-rch `PrinterCommands.java` `newModifierCommand`, rch-driver-js-core
 * `departmentSell` `SellType.ADVANCE_PAYMENT`); [3007] form 7 "non riscosso fatture" as a real
 * Print!F is programmed (Leahcim12/optyker-web `rch-preflight.js`). Item 1, [P39], [30] and a
 * void's [COD] do not apply to RCH: its entry in `rt-families.ts` says why, with the sources.
 */

/** Whether `family` runs the case of `item` (else its `notApplicable` says why, checked below). */
const applies = (family: LawFamily, item: LawItem) => family.notApplicable[item] === undefined;

/** The bench's technician, for a family that runs the programming cases. */
function technician(b: FamilyBench): (rate: number) => Promise<void> {
  const program = b.programTenPercent?.bind(b);
  if (!program) throw new Error('this family’s bench cannot program the printer');
  return program;
}

/** The family's bench, its printer's 10 % slot set to 22 % by a technician, the driver opened on it. */
async function misprogrammed(family: LawFamily): Promise<FamilyBench> {
  const b = await family.start();
  bench = b;
  await technician(b)(22);
  await b.driver.open(never());
  return b;
}

/** Text as a sentence reads, whatever its wrapping, case and apostrophes. */
const plain = (text: string) => text.replace(/\s+/g, ' ').replace(/’/g, "'").toLowerCase();

/** The family's README, in plain form. */
const readme = (family: LawFamily) => plain(readFileSync(family.readme, 'utf8'));

let bench: FamilyBench | undefined;
afterEach(async () => {
  await bench?.close();
  bench = undefined;
});
const never = () => new AbortController().signal;

const ROOM = () => item('room', 110, 10, { name: 'Camera 101' });
const consumer = { legalIdentifiers: { ItLotteryCode: 'AB12CD34' } };

async function sale(b: FamilyBench, o: WireCommandOptions = {}): Promise<LawDoc> {
  publish(b, [ROOM()], [pay('p', 'CreditCardPayment', 110)]);
  const out = await b.run(o);
  if (!out.doc) throw new Error(`no sale printed: ${out.error?.message}`);
  return out.doc;
}

/** The families that check their programming (the others say why in `notApplicable`). */
const CHECKING = LAW_FAMILIES.filter(
  (f) => applies(f, 'programmingReadBeforeRefusing') || applies(f, 'programmingReadAfterZ'),
);

describe.each(CHECKING)('issue 39 item 1, the programming check, on $name [CLOSED][GVR][4202]', (family) => {
  if (applies(family, 'programmingReadBeforeRefusing'))
    it('refuses a 10 % bill while the printer carries 22 % there, and prints it once a technician fixed the printer, without a restart', async () => {
      bench = await misprogrammed(family);
      const program = technician(bench);
      expect(bench.warnings().length).toBeGreaterThan(0);
      publish(bench, [ROOM()], [pay('p', 'CreditCardPayment', 110)]);
      const refused = await bench.run();
      expect(refused.error?.code).toBe('FISCAL_REJECTED');
      expect(refused.error?.details).toMatchObject({ nothingSent: true });
      expect(refused.doc).toBeUndefined();
      await program(10);
      // The read made before refusing sees the fix: the bill prints, to the cent.
      const printed = await bench.run();
      expect(printed.error).toBeUndefined();
      expect(printed.doc?.totalCents).toBe(billCents(bench.items));
      expect(bench.warnings()).toEqual([]);
    });

  if (applies(family, 'programmingReadAfterZ'))
    it('sees the fix at the next Z report the printer confirms', async () => {
      bench = await misprogrammed(family);
      const program = technician(bench);
      publish(bench, [item('bar', 40, 22, { name: 'Minibar' })], [pay('p', 'CreditCardPayment', 40)]);
      expect((await bench.run()).doc?.totalCents).toBe(4000);
      await program(10);
      expect(bench.warnings().length).toBeGreaterThan(0);
      const z = await bench.zReport();
      expect(z.details).toMatchObject({ status: 'done' });
      expect(bench.warnings()).toEqual([]);
    });
});

describe.each(LAW_FAMILIES)('issue 39 item 3, the documents, on $name', (family) => {
  if (applies(family, 'refundPaymentForm'))
    it('pays a refund back with its payment form, to the cent [P16]', async () => {
      bench = await family.start();
      const original = await sale(bench);
      publish(bench, [item('room', -110, 10, { name: 'Camera 101' })], [pay('p', 'CreditCardPayment', -110)]);
      const out = await bench.run({ refund: refundOf(original, bench.serial) });
      expect(out.error).toBeUndefined();
      expect(out.doc).toMatchObject({ kind: 'refund', totalCents: 11000, paidCents: 11000 });
    });

  if (applies(family, 'refundOfOtherPrinter'))
    it('refunds a receipt another printer issued, without asking this printer to find it [P39]', async () => {
      bench = await family.start();
      publish(bench, [item('room', -110, 10, { name: 'Camera 101' })], [pay('p', 'CreditCardPayment', -110)]);
      const other = {
        kind: 'sale',
        totalCents: 11000,
        paidCents: 11000,
        z: 12,
        doc: 34,
        at: Date.UTC(2026, 10, 20, 9),
      };
      const out = await bench.run({ refund: refundOf(other, '99MEX654321') });
      expect(out.error).toBeUndefined();
      expect(out.doc).toMatchObject({ kind: 'refund', totalCents: 11000 });
      expect(bench.sent.some((b) => family.requests.check.test(b))).toBe(false);
    });

  if (applies(family, 'depositForm'))
    it('takes a deposit off a single-rate bill with the protocol’s deposit form, the rest paid to the cent [P87]', async () => {
      bench = await family.start();
      publish(
        bench,
        [ROOM()],
        [
          pay('d', 'ExternalPayment:DepositCreditCard', 50, [{ rate: 10, gross: 50 }]),
          pay('p', 'CreditCardPayment', 60),
        ],
      );
      const out = await bench.run();
      expect(out.error).toBeUndefined();
      expect(out.xml).toMatch(family.depositForm);
      expect(out.doc).toMatchObject({ totalCents: billCents(bench.items) - 5000, paidCents: 6000 });
    });

  if (applies(family, 'invoicePayment'))
    it('prints a bill settled by invoice on the demo’s configuration [3007]', async () => {
      const demo = parse(readFileSync('config/simulator.yaml', 'utf8')) as {
        devices: Array<{ driver: string; options: Record<string, unknown> }>;
      };
      const device = demo.devices.find((d) => d.driver === family.driver);
      if (!device) throw new Error(`the demo has no ${family.driver} printer`);
      const { url: _url, serialNumber: _serial, ...options } = device.options;
      bench = await family.start({ options });
      publish(bench, [ROOM()], [pay('i', 'InvoicePayment:Receivable', 110)]);
      const out = await bench.run();
      expect(out.error).toBeUndefined();
      expect(out.doc).toMatchObject({ kind: 'sale', totalCents: 11000, paidCents: 11000 });
    });
});

describe.each(LAW_FAMILIES)('issue 39 item 4, the lottery leftovers, on $name', (family) => {
  if (applies(family, 'lotteryCheckRefused'))
    it('prints the receipt without a code whose check character the printer refuses, once, and says so [30]', async () => {
      bench = await family.start({ refusedLotteryCodes: ['AB12CD34'] });
      publish(bench, [ROOM()], [pay('p', 'CreditCardPayment', 110)]);
      const before = (await bench.run({ legalIdentifiers: { ItLotteryCode: 'ZZ99YY88' } })).doc;
      const out = await bench.run(consumer);
      expect(out.error).toBeUndefined();
      expect(out.doc).toMatchObject({ kind: 'sale', totalCents: 11000, lottery: undefined });
      expect(out.doc?.doc).toBe((before?.doc ?? 0) + 1);
      expect(english(out.result?.notes ?? { id: 'none', values: {} })).toContain(
        'The lottery code was not accepted by the printer; the receipt was printed without it.',
      );
    });

  const back = (b: FamilyBench) =>
    publish(b, [item('room', -110, 10, { name: 'Camera 101' })], [pay('p', 'CreditCardPayment', -110)]);

  if (applies(family, 'refundCarriesLottery'))
    it('carries the original’s lottery code on its refund, and none when the original had none [COD]', async () => {
      bench = await family.start();
      const refunded = await sale(bench, consumer);
      expect(refunded.lottery).toBe('AB12CD34');
      back(bench);
      const refund = await bench.run({ ...consumer, refund: refundOf(refunded, bench.serial) });
      expect(refund.doc).toMatchObject({ kind: 'refund', totalCents: 11000, lottery: 'AB12CD34' });
      publish(bench, [ROOM()], [pay('c', 'CashPayment', 110)]);
      const cash = (await bench.run(consumer)).doc;
      if (!cash) throw new Error('no cash sale');
      expect(cash.lottery).toBeUndefined();
      publish(bench, [item('room', -110, 10, { name: 'Camera 101' })], [pay('c', 'CashPayment', -110)]);
      const none = await bench.run({ ...consumer, refund: refundOf(cash, bench.serial) });
      expect(none.doc).toMatchObject({ kind: 'refund', lottery: undefined });
      expect(none.log.join('\n')).toContain('lottery code left off');
    });

  if (applies(family, 'voidCarriesLottery'))
    it('carries the original’s lottery code on its void [COD]', async () => {
      bench = await family.start({ options: { voidCancellations: true } });
      const voided = await sale(bench, consumer);
      expect(voided.lottery).toBe('AB12CD34');
      back(bench);
      const cancel = {
        ...consumer,
        correctionType: 'Cancellation',
        refund: refundOf(voided, bench.serial),
      };
      expect((await bench.run(cancel)).doc).toMatchObject({ kind: 'void', lottery: 'AB12CD34' });
    });

  it.each(Object.entries(family.notApplicable))('does not apply: %s, because %s', (_item, why) => {
    // A case a family skips names its source: a manual's page or a public implementation's file.
    expect(why).toMatch(/pp?\.\d+|\.(cs|java|ts|js|ps1)\b/);
    // What no public source shows is a line of what a first real printer must confirm.
    const unshown = /no public source shows [^:;(]+/.exec(plain(why))?.[0].trim();
    if (unshown) expect(readme(family).includes(unshown), `${family.readme} lists "${unshown}"`).toBe(true);
  });
});
