import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintedDocument } from '../../../drivers/epson-fpmate/simulator/index.js';
import type { FiscalJobData } from '../../../src/connector/model.js';
import { PaymentSchema } from '../../../src/connector/wire.js';
import type { Driver } from '../../../src/drivers-api/types.js';
import { english } from '../../../src/messages/render.js';
import { Ledger, type SimBill } from '../../../src/platform-simulator/bills.js';
import { deriveRng } from '../../../src/platform-simulator/rng.js';
import {
  billClass,
  breakdown,
  cents,
  SUITE_ENTERPRISE as ENTERPRISE,
  platformBill,
  SUITE_START as START,
  suiteSale,
} from '../../fiscal-law/platform-bills.js';
import { rejection } from '../../helpers/rejection.js';
import { printData, type Rig, rig } from './helpers.js';

/**
 * The fiscal suite (issue 14, "Done when"): bills as the platform simulator generates them for
 * fiscal-data commands — mixed VAT rates, the city tax, exempt items, tips, deposits, vouchers and
 * unpaid amounts — print through the real driver on the simulated RT printer; so do refunds with
 * and without a reference and voids. Every receipt's total equals its bill to the cent, each VAT
 * class's sum (rate or nature) equals the bill's breakdown, and what a printer refuses the
 * simulator refuses.
 */

const SERIAL = '99MEY123456';

let r: Rig;
const ledger = new Ledger(14);
const { items, payments, publish } = platformBill(ledger);

beforeAll(async () => {
  r = await rig({ items, payments });
});
afterAll(async () => {
  await r?.close();
});

const print = (commandId: string, data: FiscalJobData['document'], extra: Partial<FiscalJobData> = {}) =>
  printData(r.driver, commandId, data, extra);

const sales: Array<{ bill: SimBill; doc: PrintedDocument }> = [];

describe('the fiscal suite: the platform simulator’s bills through the real driver and the simulated RT', () => {
  it('prints 60 varied sale bills, each to the cent, each VAT class as the bill breaks it down', async () => {
    const rng = deriveRng(14, 'fiscal-suite');
    const seen = new Set<string>();
    for (let n = 0; n < 60; n++) {
      const bill = suiteSale(ledger, rng, n);
      publish(bill);
      const before = r.sim.printed.length;
      const result = await print(`sale-${n}`, { type: 'data', isRefund: false }, { bill: { id: bill.id } });
      expect(english(result.notes)).toMatch(new RegExp(`^Receipt \\d{4}-\\d{4} on RT ${SERIAL}, `));
      expect(r.sim.printed).toHaveLength(before + 1);
      const doc = r.sim.printed.at(-1) as PrintedDocument;
      sales.push({ bill, doc });

      const gross = items.reduce((s, i) => s + cents(i.Amount.GrossValue ?? 0), 0);
      const deposits = payments
        .filter((p) => p.Data?.External?.Type?.startsWith('Deposit'))
        .reduce((s, p) => s - cents(p.Amount.GrossValue ?? 0), 0);
      // The receipt's total is the bill less the deposit already receipted, to the cent.
      expect(doc.totalCents).toBe(gross - deposits);
      expect(doc.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(gross - deposits);
      // Each VAT class — rate or nature — sums as the bill's breakdown does.
      const printed = breakdown(
        doc.lines
          .filter((l) => l.type === 'item' || l.adjustmentType === 3)
          .map((l) => ({ key: l.vatClass ?? '?', cents: l.amountCents })),
      );
      const billed = breakdown(
        items.map((i) => ({ key: billClass(i), cents: cents(i.Amount.GrossValue ?? 0) })),
      );
      expect(printed).toEqual(billed);
      const deducted = doc.lines
        .filter((l) => l.adjustmentType === 10)
        .reduce((s, l) => s - l.amountCents, 0);
      expect(deducted).toBe(deposits);
      for (const key of Object.keys(billed)) seen.add(key);
      for (const p of payments)
        seen.add(`${p.Type}:${p.Data?.External?.Type ?? p.Data?.Invoice?.Type ?? ''}`);
    }
    // The run covered what the issue names: rates, the city tax, exempt items, tips, deposits,
    // vouchers and unpaid amounts.
    expect([...seen]).toEqual(
      expect.arrayContaining([
        '22%',
        '10%',
        '4%',
        'N1',
        'N2',
        'N4',
        'ExternalPayment:DepositWireTransfer',
        'ExternalPayment:Voucher',
        'InvoicePayment:Receivable',
        'CashPayment:',
        'CreditCardPayment:',
      ]),
    );
    const paymentsOf = (type: number, index: number) =>
      sales.flatMap((s) => s.doc.payments).filter((p) => p.paymentType === type && p.index === index);
    expect(paymentsOf(6, 1).length).toBeGreaterThan(0); // multi-use vouchers
    expect(paymentsOf(5, 3).length).toBeGreaterThan(0); // not collected: invoiced
    expect(paymentsOf(2, 1).length).toBeGreaterThan(0); // electronic
    expect(paymentsOf(0, 0).length).toBeGreaterThan(0); // cash
  });

  it('refunds a printed sale by reference, and — only when unreferencedRefunds is on — a sale it does not know as REFUND 0000 0000 ddMMyyyy ND', async () => {
    const original = sales.find(
      (s) => !s.bill.payments.some((p) => p.type !== 'CashPayment' && p.type !== 'CreditCardPayment'),
    );
    if (!original) throw new Error('no plain sale to refund');
    const refund = ledger.createRefund(deriveRng(14, 'refund'), ENTERPRISE, START, original.bill);
    publish(refund);
    const rebated = {
      sequence: String(original.doc.z),
      receiptNumber: String(original.doc.doc),
      dateTimeUtc: new Date(original.doc.at).toISOString(),
    };
    const result = await print(
      'refund-1',
      { type: 'data', isRefund: true, rebated, printerSerialNumber: SERIAL },
      {
        bill: { id: refund.id },
      },
    );
    expect(english(result.notes)).toMatch(
      /^Refund \d{4}-\d{4} on RT 99MEY123456, .* \(refund of Z \d+ no\. \d+ of /,
    );
    const doc = r.sim.printed.at(-1) as PrintedDocument;
    expect(doc).toMatchObject({ kind: 'refund', totalCents: original.doc.totalCents });
    expect(original.doc.refundedCents).toBe(original.doc.totalCents);
    expect(breakdown(doc.lines.map((l) => ({ key: l.vatClass ?? '?', cents: l.amountCents })))).toEqual(
      breakdown(items.map((i) => ({ key: billClass(i), cents: -cents(i.Amount.GrossValue ?? 0) }))),
    );

    const unknown = ledger.createRefund(deriveRng(14, 'unreferenced'), ENTERPRISE, START);
    publish(unknown);
    // Off by default (issue 24; AdE principio di diritto 21/2019: a refund needs the original's data).
    const printed = r.sim.printed.length;
    const refused = await rejection(
      print('refund-nd-off', { type: 'data', isRefund: true }, { bill: { id: unknown.id } }),
    );
    expect(refused.code).toBe('COMMAND_INVALID');
    expect(r.sim.printed).toHaveLength(printed);
    r.options.unreferencedRefunds = true;
    const nd = await print(
      'refund-nd',
      { type: 'data', isRefund: true },
      { bill: { id: unknown.id } },
    ).finally(() => {
      r.options.unreferencedRefunds = false;
    });
    expect(english(nd.notes)).toMatch(
      /^Refund \d{4}-\d{4} on RT 99MEY123456, .*\(refund of Z 0 no\. 0 of \d{2}\/\d{2}\/\d{4}\)$/,
    );
    expect(r.sim.printed.at(-1)?.reference).toMatchObject({ kind: 'REFUND', z: 0, doc: 0, serial: 'ND' });
  });

  it('voids a sale whose bill the platform cancelled, checking the reference with the printer first', async () => {
    const original = sales.at(-1) as (typeof sales)[number];
    const cancellation = ledger.createRefund(deriveRng(14, 'void'), ENTERPRISE, START, original.bill);
    publish(cancellation);
    const rebated = {
      sequence: String(original.doc.z),
      receiptNumber: String(original.doc.doc),
      dateTimeUtc: new Date(original.doc.at).toISOString(),
    };
    const data = { type: 'data' as const, isRefund: true, rebated, printerSerialNumber: SERIAL };
    const bill = { id: cancellation.id, correctionType: 'Cancellation' };
    const directIo = r.sim.directIo.length;
    const result = await print('void-1', data, { bill });
    expect(english(result.notes)).toMatch(
      /^Void \d{4}-\d{4} on RT 99MEY123456, .* \(void of Z \d+ no\. \d+ of /,
    );
    expect(r.sim.directIo.slice(directIo)).toEqual(['9205']);
    expect(r.sim.printed.at(-1)).toMatchObject({ kind: 'void', totalCents: original.doc.totalCents });
    expect(original.doc.voided).toBe(true);

    // Again: the printer says no (9205), and nothing is printed.
    const printed = r.sim.printed.length;
    const again = await rejection(print('void-2', data, { bill }));
    expect(again.code).toBe('FISCAL_REJECTED');
    expect(english(again.notes)).toContain('cannot be voided');
    expect(r.sim.printed).toHaveLength(printed);
  });

  it('the simulated RT refuses what a printer refuses, and the driver refuses what it must not send', async () => {
    const printed = r.sim.printed.length;
    const plain = sales.find((s) => s.doc.refundedCents === 0 && !s.doc.voided) as (typeof sales)[number];
    const bill = ledger.createRefund(deriveRng(14, 'over'), ENTERPRISE, START, plain.bill);
    bill.items.push({
      ...(bill.items[0] as SimBill['items'][number]),
      id: 'extra',
      unitGrossCents: -99_900,
      unitCount: 1,
      seq: 9999,
    });
    bill.payments.splice(0, bill.payments.length);
    publish(bill);
    payments.push(
      PaymentSchema.parse({
        Id: 'back',
        Type: 'CashPayment',
        State: 'Charged',
        Amount: { Currency: 'EUR', GrossValue: -items.reduce((s, i) => s + (i.Amount.GrossValue ?? 0), 0) },
      }),
    );
    const rebated = {
      sequence: String(plain.doc.z),
      receiptNumber: String(plain.doc.doc),
      dateTimeUtc: new Date(plain.doc.at).toISOString(),
    };
    // More than the original: the printer's own check (status 40), the 9205 check switched off.
    r.options.checkReferences = false;
    const over = await rejection(
      print(
        'over',
        { type: 'data', isRefund: true, rebated, printerSerialNumber: SERIAL },
        { bill: { id: bill.id } },
      ),
    );
    r.options.checkReferences = true;
    expect(over.details).toMatchObject({ printerCode: 'PRINTER ERROR', printerStatusCode: '40' });

    // A codice fiscale with a wrong check letter never reaches the printer.
    publish(plain.bill);
    const cf = await rejection(
      print('cf', { type: 'data', isRefund: false }, { taxIdentifier: 'RSSMRA80A01H501V' }),
    );
    expect(cf.code).toBe('COMMAND_INVALID');
    expect(english(cf.notes)).toContain('codice fiscale');
    expect(r.sim.printed).toHaveLength(printed);
  });

  it('prints the customer’s codice fiscale or partita IVA as public drivers send them (the lottery code: test/fiscal-law)', async () => {
    publish(sales[0]?.bill as SimBill);
    await print('cf-ok', { type: 'data', isRefund: false }, { taxIdentifier: 'rssmra80a01h501u' });
    expect(r.sim.printed.at(-1)?.customer).toEqual({ command: '1061', id: 'RSSMRA80A01H501U' });
    await print('piva-ok', { type: 'data', isRefund: false }, { taxIdentifier: 'IT01606720215' });
    expect(r.sim.printed.at(-1)?.customer).toEqual({ command: '1060', id: '01606720215' });
  });

  it('an X report shows the day’s totals; the Z report closes them and the day', async () => {
    const driver: Driver = r.driver;
    const actions = driver.actions?.() ?? [];
    const run = (name: string) =>
      actions.find((a) => a.name === name)?.run({}, new AbortController().signal) ??
      Promise.reject(new Error(name));
    const day = structuredClone(r.sim.totals);
    expect(english((await run('x-report')).notes)).toBe(
      'X report (daily financial report) printed on RT 99MEY123456',
    );
    expect(r.sim.printed.at(-1)).toMatchObject({ kind: 'x-report', totals: day });
    const fiscal = r.sim.printed.filter((d) => d.kind === 'sale' || d.kind === 'refund' || d.kind === 'void');
    expect(day.documents).toBe(fiscal.length);
    const sold = fiscal.filter((d) => d.kind === 'sale').flatMap((d) => d.lines);
    expect(Object.values(day.sales).reduce((a, b) => a + b, 0)).toBe(
      sold
        .filter((l) => l.adjustmentType === undefined || l.adjustmentType < 10)
        .reduce((s, l) => s + l.amountCents, 0),
    );
    const z = r.sim.counters.z;
    const closed = await run('z-report');
    expect(english(closed.notes)).toBe(`Daily closure (Z report ${z}) done on RT 99MEY123456`);
    expect(r.sim.counters).toEqual({ z: z + 1, doc: 0 });
    expect(r.sim.printed.at(-1)).toMatchObject({ kind: 'z-report', z, totals: day });
    expect(english((await run('z-report')).notes)).toContain('No daily closure needed');
  });
});
