import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedProgramming } from '../../../drivers/custom-rt/index.js';
import type { CustomPrintedDocument } from '../../../drivers/custom-rt/simulator/index.js';
import type { FiscalJobData } from '../../../src/connector/model.js';
import type { WireOrderItem } from '../../../src/connector/wire.js';
import { english } from '../../../src/messages/render.js';
import { Ledger, type SimBill } from '../../../src/platform-simulator/bills.js';
import { deriveRng } from '../../../src/platform-simulator/rng.js';
import {
  billFigures,
  breakdown,
  cents,
  platformBill,
  SUITE_ENTERPRISE,
  SUITE_START,
  suiteSale,
} from '../../fiscal-law/platform-bills.js';
import { rejection } from '../../helpers/rejection.js';
import { printData } from '../epson-fpmate/helpers.js';
import { type CustomRig, customRig, SERIAL } from './helpers.js';

/**
 * The fiscal suite for Custom (issue 25, "Done when"), mirroring the Epson one: the platform
 * simulator's bills — mixed VAT rates, the city tax, exempt items, tips, deposits, vouchers,
 * unpaid amounts — print through the Custom driver on the Custom simulator (written from Custom's
 * manuals). Every receipt's total equals its bill less the deposits to the cent, each VAT slot's
 * sum equals the bill's breakdown; refunds name their original, voids are checked first
 * (`checkOnly="1"`), and X and Z reports close the day.
 */

const ledger = new Ledger(25);
const { items, payments, publish } = platformBill(ledger);
let r: CustomRig;
/** The printer's VAT slots and departments, programmed as the driver's options expect. */
let programming: ReturnType<typeof simulatedProgramming>;

beforeAll(async () => {
  r = await customRig({
    items,
    payments,
    programmed: true,
    // Invoiced, not collected (native 51, DIO 3007 p.119) is outside XML's 1–30 (p.99): a real
    // printer is programmed with a number for it, as here.
    driver: { payments: { 'InvoicePayment:Receivable': { paymentType: 6, description: 'NON RISCOSSO' } } },
  });
  programming = simulatedProgramming(r.options);
});
afterAll(async () => {
  await r?.close();
});

/** The printer's VAT slot of an order item as the bill states it: its nature's, else its rate's. */
function billSlot(item: WireOrderItem): number {
  const exemption = /^IT_(N\d)/.exec(item.TaxExemptionReason ?? '');
  const nature = exemption ? exemption[1] : item.Type === 'CityTax' ? 'N1' : undefined;
  const department = nature
    ? (r.options.departments[nature] ?? { N1: 10, N2: 11, N3: 12, N4: 13, N5: 14, N6: 15 }[nature])
    : undefined;
  if (department !== undefined) return programming.departments[department]?.idVat ?? -1;
  const net = item.Amount.NetValue ?? 0;
  const tax = (item.Amount.TaxValues ?? []).reduce((s, t) => s + t.Value, 0);
  return { 22: 1, 10: 2, 4: 3, 5: 4 }[Math.round((tax / net) * 100)] ?? -1;
}

const print = (commandId: string, data: FiscalJobData['document'], extra: Partial<FiscalJobData> = {}) =>
  printData(r.driver, commandId, data, extra);

const sales: Array<{ bill: SimBill; doc: CustomPrintedDocument }> = [];
const reference = (doc: CustomPrintedDocument) => ({
  sequence: String(doc.z),
  receiptNumber: String(doc.doc),
  dateTimeUtc: new Date(doc.at).toISOString(),
});

describe('the Custom fiscal suite: the platform simulator’s bills through the Custom driver and simulator', () => {
  it('prints 40 varied sale bills, each to the cent, each VAT slot as the bill breaks it down', async () => {
    const rng = deriveRng(25, 'custom-fiscal-suite');
    const seen = new Set<string>();
    for (let n = 0; n < 40; n++) {
      const bill = suiteSale(ledger, rng, n);
      publish(bill);
      const before = r.sim.printed.length;
      const result = await print(`sale${n}`, { type: 'data', isRefund: false }, { bill: { id: bill.id } });
      expect(english(result.notes)).toMatch(new RegExp(`^Receipt \\d{4}-\\d{4} printed on RT ${SERIAL}\\.$`));
      expect(r.sim.printed).toHaveLength(before + 1);
      const doc = r.sim.printed.at(-1) as CustomPrintedDocument;
      sales.push({ bill, doc });
      const { gross, deposits } = billFigures(items, payments);
      expect(doc.totalCents).toBe(gross - deposits);
      expect(doc.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(gross - deposits);
      // Deposits come off as discounts on the department of their own rate ("ACCONTO", receipt.ts).
      const deduction = (l: { type: string; description: string }) =>
        l.type === 'adjustment' && l.description === 'ACCONTO';
      const printed = breakdown(
        doc.lines
          .filter((l) => (l.type === 'item' || l.type === 'adjustment') && !deduction(l))
          .map((l) => ({ key: l.idVat, cents: l.amountCents })),
      );
      expect(printed).toEqual(
        breakdown(items.map((i) => ({ key: billSlot(i), cents: cents(i.Amount.GrossValue ?? 0) }))),
      );
      expect(doc.lines.filter(deduction).reduce((s, l) => s - l.amountCents, 0)).toBe(deposits);
      for (const p of payments)
        seen.add(`${p.Type}:${p.Data?.External?.Type ?? p.Data?.Invoice?.Type ?? ''}`);
      for (const i of items) seen.add(String(billSlot(i)));
    }
    expect([...seen]).toEqual(
      expect.arrayContaining([
        '1',
        '2',
        '3',
        'ExternalPayment:DepositWireTransfer',
        'ExternalPayment:Voucher',
        'CashPayment:',
        'CreditCardPayment:',
      ]),
    );
  });

  it('refunds a printed sale by its Z, number, date and serial', async () => {
    const original = sales.find(
      (s) => !s.bill.payments.some((p) => p.type !== 'CashPayment' && p.type !== 'CreditCardPayment'),
    );
    if (!original) throw new Error('no plain sale to refund');
    publish(ledger.createRefund(deriveRng(25, 'refund'), SUITE_ENTERPRISE, SUITE_START, original.bill));
    const result = await print('refund1', {
      type: 'data',
      isRefund: true,
      rebated: reference(original.doc),
      printerSerialNumber: SERIAL,
    });
    expect(english(result.notes)).toMatch(/^Refund \d{4}-\d{4} printed on RT STMTE501091\.$/);
    const doc = r.sim.printed.at(-1) as CustomPrintedDocument;
    expect(doc).toMatchObject({ kind: 'refund', totalCents: original.doc.totalCents });
    expect(doc.reference).toMatchObject({ z: original.doc.z, doc: original.doc.doc, serial: SERIAL });
  });

  it('voids a cancelled bill after the printer’s check, and refuses to void it twice before printing', async () => {
    const original = sales.at(-1) as (typeof sales)[number];
    publish(ledger.createRefund(deriveRng(25, 'void'), SUITE_ENTERPRISE, SUITE_START, original.bill));
    const data = {
      type: 'data' as const,
      isRefund: true,
      rebated: reference(original.doc),
      printerSerialNumber: SERIAL,
    };
    const bill = { id: 'cancel', correctionType: 'Cancellation' };
    const result = await print('void1', data, { bill });
    expect(english(result.notes)).toMatch(/^Void \d{4}-\d{4} printed on RT STMTE501091\.$/);
    expect(r.sim.printed.at(-1)).toMatchObject({ kind: 'void' });
    const printed = r.sim.printed.length;
    const again = await rejection(print('void2', data, { bill }));
    expect(again.code).toBe('FISCAL_REJECTED');
    expect(r.sim.printed).toHaveLength(printed);
  });

  it('prints the customer’s codice fiscale as fixedLines pitch B, and never sends an invalid one', async () => {
    publish(sales[0]?.bill as SimBill);
    await print('cf', { type: 'data', isRefund: false }, { taxIdentifier: 'rssmra80a01h501u' });
    expect(r.sim.printed.at(-1)?.customerId).toBe('RSSMRA80A01H501U');
    const printed = r.sim.printed.length;
    const bad = await rejection(
      print('cfbad', { type: 'data', isRefund: false }, { taxIdentifier: 'RSSMRA80A01H501V' }),
    );
    expect(bad.code).toBe('COMMAND_INVALID');
    expect(r.sim.printed).toHaveLength(printed);
  });

  it('an X report, then the Z report closes the day; a second Z has nothing to close', async () => {
    const run = (name: string) =>
      r.driver
        .actions?.()
        .find((a) => a.name === name)
        ?.run({}, new AbortController().signal) ?? Promise.reject(new Error(name));
    expect(english((await run('x-report')).notes)).toBe('X report printed on RT STMTE501091.');
    const z = r.sim.counters.z;
    expect(english((await run('z-report')).notes)).toBe(
      `Daily closure (Z report) ${String(z).padStart(4, '0')} done on RT STMTE501091.`,
    );
    expect(r.sim.printed.at(-1)).toMatchObject({ kind: 'z-report', z });
    expect(english((await run('z-report')).notes)).toContain('No daily closure needed');
  });
});
