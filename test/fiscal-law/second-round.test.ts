import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { english } from '../../src/messages/render.js';
import { billCents, item, pay, type WireCommandOptions } from './helpers.js';
import { type FamilyBench, LAW_FAMILIES, type LawDoc } from './rt-families.js';

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
 * - [COD] XML pp.36, 38: `codLottery` on `beginRtDocAnnulment` and `beginRtDocRefund`.
 */

let bench: FamilyBench | undefined;
afterEach(async () => {
  await bench?.close();
  bench = undefined;
});
const never = () => new AbortController().signal;

const ROOM = () => item('room', 110, 10, { name: 'Camera 101' });
const consumer = { legalIdentifiers: { ItLotteryCode: 'AB12CD34' } };

function publish(b: FamilyBench, items: ReturnType<typeof item>[], payments: ReturnType<typeof pay>[]) {
  b.items.splice(0, b.items.length, ...items);
  b.payments.splice(0, b.payments.length, ...payments);
}

/** A refund's (or void's) reference to `sale` as the platform sends it. */
function referenceTo(sale: LawDoc, serial: string): NonNullable<WireCommandOptions['refund']> {
  return {
    sequence: String(sale.z),
    receiptNumber: String(sale.doc),
    dateTimeUtc: new Date(sale.at).toISOString(),
    printerSerialNumber: serial,
  };
}

async function sale(b: FamilyBench, o: WireCommandOptions = {}): Promise<LawDoc> {
  publish(b, [ROOM()], [pay('p', 'CreditCardPayment', 110)]);
  const out = await b.run(o);
  if (!out.doc) throw new Error(`no sale printed: ${out.error?.message}`);
  return out.doc;
}

describe.each(LAW_FAMILIES)(
  'issue 39 item 1, the programming check, on $name [CLOSED][GVR][4202]',
  (family) => {
    it('refuses a 10 % bill while the printer carries 22 % there, and prints it once a technician fixed the printer, without a restart', async () => {
      bench = await family.start();
      await bench.programTenPercent(22);
      await bench.driver.open(never());
      expect(bench.warnings().length).toBeGreaterThan(0);
      publish(bench, [ROOM()], [pay('p', 'CreditCardPayment', 110)]);
      const refused = await bench.run();
      expect(refused.error?.code).toBe('FISCAL_REJECTED');
      expect(refused.error?.details).toMatchObject({ nothingSent: true });
      expect(refused.doc).toBeUndefined();
      await bench.programTenPercent(10);
      // The read made before refusing sees the fix: the bill prints, to the cent.
      const printed = await bench.run();
      expect(printed.error).toBeUndefined();
      expect(printed.doc?.totalCents).toBe(billCents(bench.items));
      expect(bench.warnings()).toEqual([]);
    });

    it('sees the fix at the next Z report the printer confirms', async () => {
      bench = await family.start();
      await bench.programTenPercent(22);
      await bench.driver.open(never());
      publish(bench, [item('bar', 40, 22, { name: 'Minibar' })], [pay('p', 'CreditCardPayment', 40)]);
      expect((await bench.run()).doc?.totalCents).toBe(4000);
      await bench.programTenPercent(10);
      expect(bench.warnings().length).toBeGreaterThan(0);
      const z = await bench.zReport();
      expect(z.details).toMatchObject({ status: 'done' });
      expect(bench.warnings()).toEqual([]);
    });
  },
);

describe.each(LAW_FAMILIES)('issue 39 item 3, the documents, on $name', (family) => {
  it('pays a refund back with its payment form, to the cent [P16]', async () => {
    bench = await family.start();
    const original = await sale(bench);
    publish(bench, [item('room', -110, 10, { name: 'Camera 101' })], [pay('p', 'CreditCardPayment', -110)]);
    const out = await bench.run({ refund: referenceTo(original, bench.serial) });
    expect(out.error).toBeUndefined();
    expect(out.doc).toMatchObject({ kind: 'refund', totalCents: 11000, paidCents: 11000 });
  });

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
    const out = await bench.run({ refund: referenceTo(other, '99MEX654321') });
    expect(out.error).toBeUndefined();
    expect(out.doc).toMatchObject({ kind: 'refund', totalCents: 11000 });
    expect(bench.sent.some((b) => /checkOnly="1"|command="9205"/.test(b))).toBe(false);
  });

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
  if (!family.notApplicable.lotteryCheckRefused)
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

  if (!family.notApplicable.refundCarriesLottery)
    it('carries the original’s lottery code on its refund and its void, and none when the original had none [COD]', async () => {
      bench = await family.start({ options: { voidCancellations: true } });
      const refunded = await sale(bench, consumer);
      const voided = await sale(bench, consumer);
      expect([refunded.lottery, voided.lottery]).toEqual(['AB12CD34', 'AB12CD34']);
      const back = () =>
        publish(
          bench as FamilyBench,
          [item('room', -110, 10, { name: 'Camera 101' })],
          [pay('p', 'CreditCardPayment', -110)],
        );
      back();
      const refund = await bench.run({ ...consumer, refund: referenceTo(refunded, bench.serial) });
      expect(refund.doc).toMatchObject({ kind: 'refund', totalCents: 11000, lottery: 'AB12CD34' });
      back();
      const cancel = {
        ...consumer,
        correctionType: 'Cancellation',
        refund: referenceTo(voided, bench.serial),
      };
      expect((await bench.run(cancel)).doc).toMatchObject({ kind: 'void', lottery: 'AB12CD34' });
      publish(bench, [ROOM()], [pay('c', 'CashPayment', 110)]);
      const cash = (await bench.run(consumer)).doc;
      if (!cash) throw new Error('no cash sale');
      expect(cash.lottery).toBeUndefined();
      publish(bench, [item('room', -110, 10, { name: 'Camera 101' })], [pay('c', 'CashPayment', -110)]);
      const none = await bench.run({ ...consumer, refund: referenceTo(cash, bench.serial) });
      expect(none.doc).toMatchObject({ kind: 'refund', lottery: undefined });
      expect(none.log.join('\n')).toContain('lottery code left off');
    });

  it.each(Object.entries(family.notApplicable))('does not apply: %s, because %s', (_item, why) => {
    // A case a family skips names its source: a manual's page or a public implementation's file.
    expect(why).toMatch(/pp?\.\d+|\.cs\b|\.java\b/);
  });
});
