import { afterEach, describe, expect, it } from 'vitest';
import type { RchDocument } from '../../../drivers/rch-rt/simulator/index.js';
import type { WireOrderItem, WirePayment } from '../../../src/connector/wire.js';
import { type AgentError, toAgentError } from '../../../src/errors.js';
import { english } from '../../../src/messages/render.js';
import { billCents, item, pay, type WireCommandOptions, wireCommand } from '../../fiscal-law/helpers.js';
import { jobFor, recordingExecuteContext } from '../../helpers/driver-context.js';
import { type RchRig, rchRig, rebatedOf, SERIAL } from './helpers.js';

/**
 * The fiscal law suite's cases (`test/fiscal-law/`, with their sources there: [c540] L. 232/2016
 * art. 1 c. 540, [AdE] one code of the two, [PD21] principio di diritto 21/2019, [DPR6] deposits
 * at their own rate, [ONLINE][80217] online purchases out of the lottery, [ART13] loyalty points
 * the hotel funds are a discount) rendered for RCH: the same bills through the RCH driver to the
 * RCH simulator, read from what the printer booked and the native commands the driver sent
 * (rch-driver-js-core `src/Core.ts`: `="/?L/$1/(…)` the lottery code, `="/?C/(…)` the customer's
 * code; iconic gutenbergPrinter-rch `printScontiByTax`: `=U` a department's discount; [ACC]
 * gutenbergPrinter-rch `PrinterCommands.java` `printRecAcconto`: `=R<dept>/$<cents>/&2/(ACCONTO)`,
 * the acconto, which its `ej/FiscalEJ.java` books as an amount off the receipt; [BMU] its
 * `printRecBMonoUso`: `=R…/&3`, the single-use voucher), and issue 39's documents: [P16] a refund
 * closed by a payment command (rch-driver-js `src/Driver.ts` `printReceipt`), [COD] a refund's
 * lottery code after its lines (the same `printReceipt`), [P39] no field on `=r` for another
 * printer's serial (rch-driver-js-core `src/Core.ts` `returnGoods`).
 */

const items: WireOrderItem[] = [];
const payments: WirePayment[] = [];
let rig: RchRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function bench(options: Record<string, unknown> = {}): Promise<RchRig> {
  rig = await rchRig({ items, payments, driver: options });
  return rig;
}

function publish(newItems: WireOrderItem[], newPayments: WirePayment[]): void {
  items.splice(0, items.length, ...newItems);
  payments.splice(0, payments.length, ...newPayments);
}

interface Printed {
  error?: AgentError;
  doc?: RchDocument;
  /** The document's request, as the printer received it. */
  commands: readonly string[];
}

let commandNumber = 0;
async function run(r: RchRig, o: WireCommandOptions = {}): Promise<Printed> {
  const documents = r.sim.documents.length;
  const requests = r.sim.requests.length;
  const out: Printed = { commands: [] };
  try {
    await r.driver.execute(
      jobFor(wireCommand(o), { commandId: `law${++commandNumber}` }),
      recordingExecuteContext(),
    );
  } catch (e) {
    out.error = toAgentError(e);
  }
  const doc = r.sim.documents.slice(documents).find((d) => d.kind !== 'cancelled');
  if (doc) out.doc = doc;
  out.commands = r.sim.requests.slice(requests).find((c) => c.some((x) => /^=[Rk]/.test(x))) ?? [];
  return out;
}

const ROOM = () => item('room', 110, 10, { name: 'Camera 101' });
const consumer = { legalIdentifiers: { ItLotteryCode: 'AB12CD34' } };

describe('the lottery code, on RCH', () => {
  it('prints the consumer’s code on a sale paid by card, before the payments [c540]', async () => {
    const r = await bench();
    publish([ROOM()], [pay('p', 'CreditCardPayment', 110)]);
    const out = await run(r, consumer);
    expect(out.error).toBeUndefined();
    expect(out.doc?.lottery).toBe('AB12CD34');
    expect(out.commands.slice(1, 3)).toEqual([
      '="/?L/$1/(AB12CD34)',
      expect.stringMatching(/^="\/\?A\/\(RIF\. /),
    ]);
    expect(out.doc?.totalCents).toBe(billCents(items));
  });

  it('never prints it on a sale paid partly in cash [c540], beside a codice fiscale [AdE], or for an OTA’s online prepayment [ONLINE]', async () => {
    const r = await bench();
    publish([ROOM()], [pay('c', 'CashPayment', 10), pay('p', 'CreditCardPayment', 100)]);
    expect((await run(r, consumer)).doc?.lottery).toBeUndefined();
    publish([ROOM()], [pay('p', 'CreditCardPayment', 110)]);
    const both = await run(r, { ...consumer, taxIdentifier: 'RSSMRA80A01H501U' });
    expect(both.doc?.lottery).toBeUndefined();
    expect(both.doc?.customerId).toBe('RSSMRA80A01H501U');
    publish([ROOM()], [pay('p', 'ExternalPayment:Prepayment', 60), pay('q', 'CreditCardPayment', 50)]);
    const online = await run(r, consumer);
    expect(online.doc?.lottery).toBeUndefined();
    expect(online.commands.some((c) => c.startsWith('="/?L'))).toBe(false);
  });
});

describe('deposits, points, codes and refunds, on RCH', () => {
  it('takes a deposit receipted at 10 % off the 10 % department only, as the advance line =R…/&2 [DPR6][ACC]', async () => {
    const r = await bench();
    publish(
      [ROOM(), item('bar', 40, 22, { name: 'Minibar' })],
      [
        pay('d', 'ExternalPayment:DepositCreditCard', 80, [{ rate: 10, gross: 80 }]),
        pay('p', 'CreditCardPayment', 70),
      ],
    );
    const out = await run(r);
    expect(out.error).toBeUndefined();
    expect(out.commands).toContain('=R2/$8000/&2/(ACCONTO)');
    const slotOf = (kind: string, department: number) =>
      Object.keys(out.doc?.lines.find((l) => l.kind === kind && l.department === department)?.vat ?? {});
    expect(slotOf('advance', 2)).toEqual(slotOf('sale', 2));
    expect(out.doc?.lines.find((l) => l.kind === 'advance')?.amountCents).toBe(-8000);
    expect(out.doc?.totalCents).toBe(billCents(items) - 8000);
    expect(out.doc?.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(7000);
  });

  it('takes hotel-funded loyalty points off the 10 % department: €50 on a €200 room [ART13]', async () => {
    const r = await bench();
    publish(
      [item('room', 200, 10, { name: 'Camera 101' })],
      [pay('pts', 'ExternalPayment:LoyaltyPoints', 50), pay('p', 'CreditCardPayment', 150)],
    );
    const out = await run(r);
    expect(out.commands).toContain('=U/*2/$5000/(SCONTO PUNTI FEDELTA)');
    expect(out.doc?.totalCents).toBe(15000);
  });

  it('prints a partita IVA as ="/?C/(…) before the marker and the payments', async () => {
    const r = await bench();
    publish([ROOM()], [pay('p', 'CreditCardPayment', 110)]);
    const out = await run(r, { taxIdentifier: 'IT01606720215' });
    expect(out.doc?.customerId).toBe('01606720215');
    expect(out.commands[1]).toBe('="/?C/(01606720215)');
  });

  it('refuses a refund naming no receipt, sending nothing [PD21]; with unreferencedRefunds too, as RCH needs the original', async () => {
    for (const options of [{}, { unreferencedRefunds: true }]) {
      const r = await bench(options);
      publish([item('bar', -50, 22, { name: 'Minibar' })], [pay('p', 'CashPayment', -50)]);
      const out = await run(r, { refund: {} });
      expect(out.error?.code).toMatch(/^(COMMAND_INVALID|FISCAL_REJECTED)$/);
      expect(r.sim.requests).toEqual([]);
      await r.close();
      rig = undefined;
    }
  });
});

/** A refund's reference to `sale`, as the platform sends it (`serial`: the printer that issued it). */
const referenceTo = (sale: RchDocument, serial = SERIAL) => ({
  ...rebatedOf(sale),
  printerSerialNumber: serial,
});

describe('issue 39’s documents, on RCH', () => {
  it('pays a refund back in its card form and carries the original’s lottery code after its lines, also for a sale whose answer was lost [P16][COD]', async () => {
    const r = await bench();
    await r.sim.setFault('dropAfterPrint', true);
    publish([ROOM()], [pay('p', 'CreditCardPayment', 110)]);
    const sale = await run(r, consumer);
    await r.sim.setFault('dropAfterPrint', false);
    if (!sale.doc) throw new Error(`no sale: ${sale.error?.message}`);
    // The witnesses proved it printed; the history keeps that it carried a code (checkpoint.ts).
    expect(sale.doc.lottery).toBe('AB12CD34');
    publish([item('room', -110, 10, { name: 'Camera 101' })], [pay('p', 'CreditCardPayment', -110)]);
    const refund = await run(r, { ...consumer, refund: referenceTo(sale.doc) });
    expect(refund.error).toBeUndefined();
    expect(refund.commands).toEqual([
      expect.stringMatching(/^=r\/&\d{6}\/\[1161\/\]1$/),
      '=R2/$11000/*1/(Camera 101)',
      '="/?L/$1/(AB12CD34)',
      expect.stringMatching(/^="\/\?A\/\(RIF\. /),
      '=T4/(CARTA DI PAGAMENTO)',
    ]);
    expect(refund.doc).toMatchObject({ kind: 'refund', totalCents: 11000, lottery: 'AB12CD34' });
    expect(refund.doc?.payments).toEqual([expect.objectContaining({ form: 4, amountCents: 11000 })]);
  });

  it('takes a single-use voucher off its own department as the voucher line =R…/&3 [BMU]', async () => {
    const r = await bench({ payments: { 'ExternalPayment:Voucher': { deduct: 'single-use-voucher' } } });
    publish(
      [ROOM(), item('bar', 40, 22, { name: 'Minibar' })],
      [
        pay('v', 'ExternalPayment:Voucher', 30, [{ rate: 22, gross: 30 }]),
        pay('p', 'CreditCardPayment', 120),
      ],
    );
    const out = await run(r);
    expect(out.error).toBeUndefined();
    expect(out.commands).toContainEqual(expect.stringMatching(/^=R1\/\$3000\/&3\//));
    const voucher = out.doc?.lines.find((l) => l.kind === 'voucher');
    const minibar = out.doc?.lines.find((l) => l.kind === 'sale' && l.department === 1);
    expect(Object.keys(voucher?.vat ?? {})).toEqual(Object.keys(minibar?.vat ?? {}));
    expect(voucher?.amountCents).toBe(-3000);
    expect(out.doc?.totalCents).toBe(billCents(items) - 3000);
  });

  it('refuses a refund of another printer’s receipt before sending anything, saying where to issue it [P39]', async () => {
    const r = await bench();
    publish([item('room', -110, 10, { name: 'Camera 101' })], [pay('p', 'CreditCardPayment', -110)]);
    const other = { z: 12, number: 34, at: Date.UTC(2026, 10, 20, 9) } as RchDocument;
    const out = await run(r, { refund: referenceTo(other, '72MS0099999') });
    expect(out.error?.code).toBe('FISCAL_REJECTED');
    expect(out.error?.retryable).toBe(false);
    expect(english(out.error?.notes ?? { id: 'none', values: {} })).toBe(
      'This refund names a receipt of printer 72MS0099999, and an RCH printer can refund only the receipts it printed itself. Issue the refund on printer 72MS0099999. Nothing was printed.',
    );
    expect(r.sim.requests.flat().some((c) => c.startsWith('=r'))).toBe(false);
  });
});
