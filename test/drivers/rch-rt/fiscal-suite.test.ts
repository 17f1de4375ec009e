import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedProgramming } from '../../../drivers/rch-rt/index.js';
import type { RchDocument } from '../../../drivers/rch-rt/simulator/index.js';
import type { FiscalJobData } from '../../../src/connector/model.js';
import { toAgentError } from '../../../src/errors.js';
import { english } from '../../../src/messages/render.js';
import { Ledger, type SimBill } from '../../../src/platform-simulator/bills.js';
import { deriveRng } from '../../../src/platform-simulator/rng.js';
import * as bills from '../../fiscal-law/platform-bills.js';
import { printData } from '../epson-fpmate/helpers.js';
import { type RchRig, rchRig, rebatedOf, SERIAL } from './helpers.js';

/**
 * The fiscal suite for RCH (issue 43), as for Epson and Custom: the platform simulator's bills print
 * through the RCH driver on the RCH simulator (written from the public sources). Every receipt's
 * total equals its bill less the deposits to the cent, each VAT class's sum equals the bill's
 * breakdown (an RCH department carries its VAT in the printer's programming, so the class is the
 * department's); a refund names its original, a void is checked first and never printed twice.
 */

const ledger = new Ledger(43);
const bill = bills.platformBill(ledger);
let r: RchRig;
const programming = simulatedProgramming({ departments: {} });

beforeAll(async () => {
  r = await rchRig({ items: bill.items, payments: bill.payments, sim: { lastZ: 0 } });
});
afterAll(async () => {
  await r?.close();
});

/** The VAT class of the printer's slot: `22%` or the nature. */
function slotClass(slot: number): string {
  const v = programming.vat[slot];
  return v && 'rateBp' in v ? `${v.rateBp / 100}%` : (v?.nature ?? '?');
}

const print = (commandId: string, data: FiscalJobData['document'], extra: Partial<FiscalJobData> = {}) =>
  printData(r.driver, commandId, data, extra);

const sales: Array<{ bill: SimBill; doc: RchDocument }> = [];
/** A refund command's document naming `doc` as its original, as the platform sends it. */
const refundOf = (doc: RchDocument) => ({
  type: 'data' as const,
  isRefund: true,
  rebated: rebatedOf(doc),
  printerSerialNumber: SERIAL,
});

describe('the RCH fiscal suite: the platform simulator’s bills through the RCH driver and simulator', () => {
  it('prints 30 varied sale bills, each to the cent, each VAT class as the bill breaks it down', async () => {
    const rng = deriveRng(43, 'rch-fiscal-suite');
    const seen = new Set<string>();
    for (let n = 0; n < 30; n++) {
      const sale = bills.suiteSale(ledger, rng, n);
      bill.publish(sale);
      const result = await print(`sale${n}`, { type: 'data', isRefund: false }, { bill: { id: sale.id } });
      expect(english(result.notes)).toMatch(new RegExp(`^Receipt \\d{4}-\\d{4} printed on RT ${SERIAL}\\.$`));
      const doc = r.sim.documents.at(-1) as RchDocument;
      sales.push({ bill: sale, doc });
      const { gross, deposits } = bills.billFigures(bill.items, bill.payments);
      expect(doc.totalCents).toBe(gross - deposits);
      expect(doc.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(gross - deposits);
      // Deposits come off their own department as the advance line `=R…/&2` (receipt.ts).
      const deposit = (l: RchDocument['lines'][number]) => l.kind === 'advance';
      const booked = doc.lines
        .filter((l) => l.kind === 'sale' || l.kind === 'discount')
        .flatMap((l) =>
          Object.entries(l.vat).map(([slot, c]) => ({ key: slotClass(Number(slot)), cents: c })),
        );
      expect(bills.breakdown(booked)).toEqual(
        bills.breakdown(
          bill.items.map((i) => ({ key: bills.billClass(i), cents: bills.cents(i.Amount.GrossValue ?? 0) })),
        ),
      );
      expect(doc.lines.filter(deposit).reduce((s, l) => s - l.amountCents, 0)).toBe(deposits);
      for (const p of bill.payments) seen.add(`${p.Type}:${p.Data?.External?.Type ?? ''}`);
      for (const i of bill.items) seen.add(bills.billClass(i));
    }
    // The bills were varied enough to mean something.
    expect([...seen]).toEqual(
      expect.arrayContaining([
        '22%',
        '10%',
        'N1',
        'ExternalPayment:DepositWireTransfer',
        'CashPayment:',
        'CreditCardPayment:',
      ]),
    );
  });

  it('refunds a printed sale with =r naming its Z, number and date', async () => {
    const original = sales.find((s) =>
      s.bill.payments.every((p) => p.type === 'CashPayment' || p.type === 'CreditCardPayment'),
    );
    if (!original) throw new Error('no plain sale to refund');
    bill.publish(
      ledger.createRefund(deriveRng(43, 'refund'), bills.SUITE_ENTERPRISE, bills.SUITE_START, original.bill),
    );
    const result = await print('refund1', refundOf(original.doc));
    expect(english(result.notes)).toMatch(/^Refund \d{4}-\d{4} printed on RT 72MS0012345\.$/);
    expect(r.sim.documents.at(-1)).toMatchObject({
      kind: 'refund',
      totalCents: original.doc.totalCents,
      reference: { z: original.doc.z, number: original.doc.number },
    });
  });

  it('voids a cancelled bill after the printer’s check, and refuses to void it twice before printing', async () => {
    const original = sales.at(-1) as (typeof sales)[number];
    bill.publish(
      ledger.createRefund(deriveRng(43, 'void'), bills.SUITE_ENTERPRISE, bills.SUITE_START, original.bill),
    );
    const data = refundOf(original.doc);
    const cancellation = { bill: { id: 'cancel', correctionType: 'Cancellation' } };
    expect(english((await print('void1', data, cancellation)).notes)).toMatch(
      /^Void \d{4}-\d{4} printed on RT/,
    );
    expect(r.sim.documents.at(-1)).toMatchObject({ kind: 'void', totalCents: original.doc.totalCents });
    const printed = r.sim.documents.length;
    const again = await print('void2', data, cancellation).catch(toAgentError);
    expect('code' in again && again.code).toBe('FISCAL_REJECTED');
    expect(r.sim.documents).toHaveLength(printed);
  });

  it('prints the customer’s codice fiscale, and never sends an invalid one', async () => {
    bill.publish(sales[0]?.bill as SimBill);
    await print('cf', { type: 'data', isRefund: false }, { taxIdentifier: 'rssmra80a01h501u' });
    expect(r.sim.documents.at(-1)?.customerId).toBe('RSSMRA80A01H501U');
    const requests = r.sim.requests.length;
    const bad = await print(
      'cfbad',
      { type: 'data', isRefund: false },
      { taxIdentifier: 'RSSMRA80A01H501V' },
    ).catch(toAgentError);
    expect('code' in bad && bad.code).toBe('COMMAND_INVALID');
    expect(r.sim.requests).toHaveLength(requests);
  });
});
