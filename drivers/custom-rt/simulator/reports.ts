import type { Counter, CustomPrintedDocument, DayTotals, VatGross } from './types.js';
import { cents9, four, vatBlock } from './xml.js';

export type { Counter, DayTotals } from './types.js';

/**
 * The day's counters and VAT totalizers as `getDailyTotals` shows them (XML pp.60–61): receipts,
 * credit notes, receipts cancelled in progress, telematic voids and refunds (4-digit counts,
 * 9-digit cents), and the gross per VAT slot of sales, refunds and voids. The X report prints them
 * (p.103); the Z report prints and closes them (p.105). The simulator also keeps the same totals
 * since it started, its "period" (`getVatTotalsOnDemand vatgroup="1"`, p.72).
 */

export function emptyTotals(): DayTotals {
  const c = () => ({ num: 0, tot: 0 });
  return {
    receipts: c(),
    cancelled: c(),
    voids: c(),
    refunds: c(),
    vatSales: {},
    vatRefunds: {},
    vatVoids: {},
  };
}

function addVat(into: VatGross, vat: VatGross): void {
  for (const [slot, gross] of Object.entries(vat)) into[Number(slot)] = (into[Number(slot)] ?? 0) + gross;
}

/** Books a closed fiscal document. */
export function book(t: DayTotals, doc: CustomPrintedDocument): void {
  const into = (c: Counter) => {
    c.num += 1;
    c.tot += doc.totalCents;
  };
  if (doc.kind === 'sale') {
    into(t.receipts);
    addVat(t.vatSales, doc.vat);
  } else if (doc.kind === 'refund') {
    into(t.refunds);
    addVat(t.vatRefunds, doc.vat);
  } else if (doc.kind === 'void') {
    into(t.voids);
    addVat(t.vatVoids, doc.vat);
  } else if (doc.kind === 'cancelled') into(t.cancelled);
}

/** Fiscal documents booked: a Z with none is a second Z (71, XML-SG PDF p.137). */
export function documentsIn(t: DayTotals): number {
  return t.receipts.num + t.cancelled.num + t.voids.num + t.refunds.num;
}

export function copyTotals(t: DayTotals): DayTotals {
  return structuredClone(t);
}

/** The `dailyTotals` node (XML p.60). */
export function dailyTotalsXml(t: DayTotals, rates: ReadonlyMap<number, number>): string {
  const counter = (name: string, c: Counter) =>
    `<${name}Num>${four(c.num)}</${name}Num><${name}Tot>${cents9(c.tot)}</${name}Tot>`;
  const vats = (name: string, v: VatGross) =>
    `<${name}>${[...rates].map(([slot, rate]) => vatBlock(slot, rate, v[slot] ?? 0, 'digits')).join('')}</${name}>`;
  return (
    '<dailyTotals>' +
    counter('receipts', t.receipts) +
    counter('creditNote', { num: 0, tot: 0 }) +
    counter('canceledReceips', t.cancelled) +
    counter('foundationDiscount', { num: 0, tot: 0 }) +
    counter('telematicCancelRec', t.voids) +
    counter('telematicRefundRec', t.refunds) +
    vats('vatSalesTickets', t.vatSales) +
    vats('vatInvoices', {}) +
    vats('vatRefundTickets', t.vatRefunds) +
    vats('vatCanceledTickets', t.vatVoids) +
    '</dailyTotals>'
  );
}
