import type { FiscalJobData } from '../../src/connector/model.js';
import type { PlatformReader } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { type DeductionRequest, deductionsByRate } from './deductions.js';
import { classifyLine, fromLegacyLine, fromOrderItem, quantityText, type SourceLine } from './lines.js';
import { isPointsDiscount, pointsDiscounts, pointsOffRefundLines } from './loyalty.js';
import { lawNotes, fiscalRefusals as r } from './messages.js';
import type { DocumentDiscount, DocumentLine, FiscalDocumentModel } from './model.js';
import { centsText, lineCents, MAX_CENTS, MAX_QUANTITY, settlePayments, unitsToCents } from './money.js';
import {
  ELECTRONIC_DEPOSITS,
  fromLegacyPayment,
  fromPayment,
  isDeduction,
  type PaymentKind,
  ruleFor,
  type SourcePayment,
} from './payments.js';
import type { FiscalRules } from './rules.js';

/** Where the bill's items and payments are read from. */
export interface BillReader {
  platform: PlatformReader;
  signal: AbortSignal;
}

/** A document priced from the bill, before customer codes and references are added. */
export type PricedDocument = Pick<
  FiscalDocumentModel,
  'lines' | 'discounts' | 'deductions' | 'payments' | 'totalCents' | 'currency'
> & {
  /** Every deduction was itself paid by electronic means (for the lottery). */
  deductionsElectronic: boolean;
};

function rejected(message: string, notes: Message): AgentError {
  return new AgentError('FISCAL_REJECTED', message, { notes });
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** All non-zero values share one sign; returns that sign (1 or -1), 0 when all are zero. */
function commonSign(values: number[], what: 'payments' | 'refunded items'): number {
  const signs = new Set(values.filter((v) => v !== 0).map(Math.sign));
  if (signs.size > 1) {
    throw rejected(
      `The ${what} mix charges and refunds`,
      r.mixedSigns({ what: what === 'payments' ? 'payments' : 'items' }),
    );
  }
  return [...signs][0] ?? 0;
}

function checkCurrency(currency: string, expected: string): void {
  if (currency !== expected) {
    throw rejected(
      `Amount in ${currency}, the printer prints ${expected}`,
      r.otherCurrency({ currency, expected }),
    );
  }
}

type Priced = { line: DocumentLine } | { discount: DocumentDiscount } | undefined;

function priced(source: SourceLine, kind: 'sale' | 'refund', rules: FiscalRules): Priced {
  // The line is rounded once, to the cent, half away from zero (money.ts).
  const total = Math.abs(unitsToCents(source.grossUnits));
  if (total === 0) return undefined;
  let quantity = Math.abs(source.quantity);
  if (!Number.isFinite(quantity) || quantity > MAX_QUANTITY) {
    throw rejected(
      `Line "${source.name}" has quantity ${source.quantity}`,
      r.badQuantity({ item: source.name, quantity: String(source.quantity) }),
    );
  }
  const where = classifyLine(source, rules);
  const cls =
    where.nature !== undefined
      ? { nature: where.nature }
      : where.rate !== undefined
        ? { rate: where.rate }
        : {};
  const name = source.name.replace(/\s+/g, ' ').trim() || 'ARTICOLO';
  if (kind === 'sale' && source.grossUnits < 0) {
    return { discount: { description: name, cents: total, department: where.department, ...cls } };
  }
  let unit = source.unitGrossUnits === undefined ? undefined : Math.abs(unitsToCents(source.unitGrossUnits));
  let description = name;
  const milli = quantity * 1000;
  if (unit === undefined || !(quantity > 0 && Number.isInteger(milli)) || lineCents(milli, unit) !== total) {
    // The printer would compute another amount from quantity × unit price: print the line's own.
    if (quantity > 0 && quantity !== 1) description = `${quantityText(quantity)} x ${name}`;
    quantity = 1;
    unit = total;
  }
  return {
    line: { description, quantity, unitCents: unit, totalCents: total, department: where.department, ...cls },
  };
}

async function sourceLines(
  fiscal: FiscalJobData,
  rules: FiscalRules,
  reader: BillReader,
): Promise<SourceLine[]> {
  const names = { ...rules.itemNames };
  const lines = fiscal.bill.legacyItems
    ? fiscal.bill.legacyItems.map(fromLegacyLine)
    : (await reader.platform.orderItems(fiscal.bill.id, reader.signal)).map((i) => fromOrderItem(i, names));
  return lines.filter((l): l is SourceLine => l !== undefined);
}

/** The bill's payments: the platform's, else the legacy bill's own, cross-checked when both exist. */
async function sourcePayments(
  fiscal: FiscalJobData,
  rules: FiscalRules,
  reader: BillReader,
): Promise<SourcePayment[]> {
  const platform = (await reader.platform.payments(fiscal.bill.id, reader.signal))
    .map(fromPayment)
    .filter((p): p is SourcePayment => p !== undefined);
  const legacy = (fiscal.bill.legacyPayments ?? [])
    .map(fromLegacyPayment)
    .filter((p): p is SourcePayment => p !== undefined);
  const chosen = platform.length > 0 ? platform : legacy;
  for (const p of chosen) checkCurrency(p.currency, rules.currency);
  commonSign(
    chosen.map((p) => p.units),
    'payments',
  );
  if (platform.length > 0 && legacy.length > 0) {
    const billPaid = Math.abs(unitsToCents(sum(legacy.map((p) => p.units))));
    const recorded = Math.abs(unitsToCents(sum(platform.map((p) => p.units))));
    if (billPaid !== recorded) {
      throw rejected(
        `Payments ${centsText(recorded)} differ from the bill's own payments ${centsText(billPaid)}`,
        r.paymentsDiffer({ billPaid: billPaid / 100, recorded: recorded / 100, currency: rules.currency }),
      );
    }
  }
  return chosen;
}

/**
 * Prices a bill: its items (the legacy bill's own, else `orderItems`), each in the department of
 * its VAT rate or nature, negative ones as discounts on their department; its payments (Charged
 * or Closed), each as a payment kind, a deduction on the department of its own rate, or — loyalty
 * points with `loyaltyPoints: discount` — a discount spread over the VAT-rate lines (loyalty.ts);
 * the total, to the cent. Rejects with FISCAL_REJECTED — before anything is printed — a bill that
 * cannot make a valid document: no items, a line it cannot classify, an unknown payment type, a
 * deduction or points it cannot place, foreign currency, items ≠ payments to the cent, payments ≠
 * the bill's own.
 */
export async function priceBill(
  fiscal: FiscalJobData,
  rules: FiscalRules,
  reader: BillReader,
  kind: 'sale' | 'refund',
): Promise<PricedDocument> {
  const sources = await sourceLines(fiscal, rules, reader);
  for (const l of sources) checkCurrency(l.currency, rules.currency);
  if (kind === 'refund')
    commonSign(
      sources.map((l) => l.grossUnits),
      'refunded items',
    );
  const lines: DocumentLine[] = [];
  const discounts: DocumentDiscount[] = [];
  for (const source of sources) {
    const p = priced(source, kind, rules);
    if (p && 'line' in p) lines.push(p.line);
    else if (p) discounts.push(p.discount);
  }
  const itemsCents = sum(lines.map((l) => l.totalCents)) - sum(discounts.map((d) => d.cents));
  if (lines.length === 0 || itemsCents <= 0) {
    throw rejected(
      `Bill ${fiscal.bill.id} has nothing to print (total ${centsText(itemsCents)})`,
      r.nothingToPrint(),
    );
  }
  if (itemsCents > MAX_CENTS) {
    throw rejected(
      `Bill ${fiscal.bill.id} totals ${centsText(itemsCents)}, over the printer's limit`,
      r.totalTooLarge({ total: itemsCents / 100, currency: rules.currency }),
    );
  }
  const payments = await sourcePayments(fiscal, rules, reader);
  const ruled = payments
    .map((p) => {
      const found = ruleFor(p.keys, rules.payments, rules.defaultPayment);
      if (!found) {
        throw rejected(
          `No payment rule for ${p.keys.join(' / ')}`,
          lawNotes.unknownPayment(p.keys[0] ?? 'unknown'),
        );
      }
      return { source: p, ...found, cents: Math.abs(unitsToCents(p.units)) };
    })
    .filter((p) => p.cents !== 0);
  const requests: DeductionRequest[] = [];
  let deductionsElectronic = true;
  let points = 0;
  const counted: Array<{ kind: PaymentKind; description: string; key: string; cents: number }> = [];
  for (const p of ruled) {
    const description = p.rule.description ?? p.source.keys[0] ?? 'PAGAMENTO';
    if (isPointsDiscount(p.key, rules.payments, rules.loyaltyPoints)) {
      points += p.cents;
      continue;
    }
    if (!isDeduction(p.rule)) {
      counted.push({ kind: p.rule.kind, description, key: p.key, cents: p.cents });
      continue;
    }
    if (kind === 'refund') throw rejected('A refund with a deduction', lawNotes.deductionOnRefund());
    if (p.rule.deduct !== 'deposit' || !p.source.keys.some((k) => ELECTRONIC_DEPOSITS.has(k)))
      deductionsElectronic = false;
    requests.push({ kind: p.rule.deduct, description, cents: p.cents, taxShares: p.source.taxShares });
  }
  const bill = fiscal.bill.number ?? fiscal.bill.id;
  const deductions = deductionsByRate(lines, discounts, requests, { rules, bill, currency: rules.currency });
  // Loyalty points lower the price of the VAT-rate lines, after deposits (loyalty.ts).
  let printedLines = lines;
  if (points > 0 && kind === 'sale') {
    discounts.push(
      ...pointsDiscounts(lines, discounts, deductions, points, { bill, currency: rules.currency }),
    );
  } else if (points > 0) {
    printedLines = pointsOffRefundLines(lines, points, { bill, currency: rules.currency });
    if (printedLines.length === 0)
      throw rejected(`Bill ${fiscal.bill.id} refunds only points`, r.nothingToPrint());
  }
  const totalCents = itemsCents - points - sum(deductions.map((d) => d.cents));
  const paid = sum(counted.map((p) => p.cents));
  // Rounding differences only (the bill balances before rounding) go onto the largest payment.
  const balancedExactly =
    Math.abs(sum(sources.map((l) => l.grossUnits))) === Math.abs(sum(payments.map((p) => p.units)));
  const settled =
    totalCents === 0 && counted.length === 0
      ? []
      : settlePayments(
          counted.map((p) => p.cents),
          totalCents,
          balancedExactly,
        );
  if (!settled) {
    throw rejected(
      `Items ${centsText(totalCents)} and payments ${centsText(paid)} differ`,
      r.itemsAndPaymentsDiffer({ total: totalCents / 100, paid: paid / 100, currency: rules.currency }),
    );
  }
  return {
    lines: printedLines,
    discounts,
    deductions,
    payments: counted.map((p, i) => ({ ...p, cents: settled[i] ?? p.cents })),
    totalCents,
    currency: rules.currency,
    deductionsElectronic,
  };
}
