import type { FiscalJobData } from '../../src/connector/model.js';
import type { PlatformReader } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { DEFAULT_ITEM_NAMES, departmentTable, type EpsonFpmateOptions, itemNatureTable } from './config.js';
import { customerCodes } from './customer-codes.js';
import { allocateDeductions, type Deduction } from './deductions.js';
import { fiscalNotes } from './messages.js';
import { epsonRefusals as r } from './messages-refusals.js';
import { formatAmount, MAX_CENTS, MAX_QUANTITY, settlePayments, unitsToCents } from './money.js';
import { DEDUCTION_ADJUSTMENT, isDeduction, ruleFor } from './payment-types.js';
import {
  classifyLine,
  fromLegacyLine,
  fromLegacyPayment,
  fromOrderItem,
  fromPayment,
  type LineOptions,
  type SourceLine,
  type SourcePayment,
} from './receipt-lines.js';
import type { ReceiptLine, ReceiptModel } from './receipt-model.js';
import { type DocumentReference, isUnreferenced, refundReference, unreferencedRefund } from './reference.js';
import { formatQuantity, printerText } from './xml-build.js';

export type { ReceiptLine, ReceiptModel, ReceiptPayment } from './receipt-model.js';

export interface ReceiptContext {
  platform: PlatformReader;
  signal: AbortSignal;
  timeZone: string;
  /** Now, for the date of a refund that names no original receipt. */
  now: number;
  /** This printer's serial, used in refund references when the platform gives none. */
  ownSerial?: string | undefined;
}

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

/** `quantity × unitCents` rounded half up, as the printer computes a line (quantity in 1/1000). */
export function lineCents(quantityMilli: number, unitCents: number): number {
  return Math.floor((quantityMilli * unitCents + 500) / 1000);
}

function toLine(
  source: SourceLine,
  kind: 'sale' | 'refund',
  options: EpsonFpmateOptions,
  lineOptions: LineOptions,
): ReceiptLine | undefined {
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
  const where = classifyLine(source, lineOptions);
  let unit = source.unitGrossUnits === undefined ? undefined : Math.abs(unitsToCents(source.unitGrossUnits));
  let name = source.name;
  const milli = quantity * 1000;
  const printable = quantity > 0 && Number.isInteger(milli);
  if (unit === undefined || !printable || lineCents(milli, unit) !== total) {
    // The printer would compute another amount from quantity × unit price: print the line's own.
    if (quantity > 0 && quantity !== 1) name = `${formatQuantity(quantity)} x ${name}`;
    quantity = 1;
    unit = total;
  }
  const description = printerText(name, options.lineLength) || 'ARTICOLO';
  const common = { description, department: where.department, ...classOf(where) };
  if (kind === 'refund') return { type: 'refund', quantity, unitCents: unit, totalCents: total, ...common };
  if (source.grossUnits < 0) {
    return {
      type: 'discount',
      quantity: 1,
      unitCents: total,
      totalCents: total,
      adjustmentType: 3,
      ...common,
    };
  }
  return { type: 'item', quantity, unitCents: unit, totalCents: total, ...common };
}

function classOf(where: { rate?: number; nature?: string }): { rate?: number; nature?: string } {
  return where.nature !== undefined
    ? { nature: where.nature }
    : where.rate !== undefined
      ? { rate: where.rate }
      : {};
}

/**
 * The document a refund command asks for: a void of the original when the bill cancels it
 * (`CorrectionType: Cancellation`, with `voidCancellations`), a refund referring to it, or —
 * when the platform names no original at all — an unreferenced refund (`REFUND 0000 0000
 * ddMMyyyy ND`, with `unreferencedRefunds`). Rejects with COMMAND_INVALID otherwise.
 */
function refundDocument(
  fiscal: FiscalJobData,
  options: EpsonFpmateOptions,
  ctx: ReceiptContext,
): { kind: 'refund' | 'void'; reference: DocumentReference } {
  const doc = fiscal.document;
  if (doc.type !== 'data') throw new AgentError('INTERNAL', 'refundDocument called for a payload');
  if (isUnreferenced(doc.rebated)) {
    if (!options.unreferencedRefunds) {
      throw new AgentError('COMMAND_INVALID', 'Refund without a reference', {
        notes: fiscalNotes.noUnreferencedRefunds(),
      });
    }
    return { kind: 'refund', reference: unreferencedRefund(ctx.now, ctx.timeZone) };
  }
  const cancels = options.voidCancellations && fiscal.bill.correctionType === 'Cancellation';
  const kind = cancels ? 'VOID' : 'REFUND';
  const reference = refundReference(doc.rebated, doc.printerSerialNumber, ctx.ownSerial, ctx.timeZone, kind);
  return { kind: cancels ? 'void' : 'refund', reference };
}

/**
 * Builds the receipt of a `data` fiscal command from the bill: items from the legacy bill when it
 * carries them, else from `orderItems`, each in the department of its VAT rate or nature;
 * payments (Charged/Closed) from `payments`, else the legacy bill's own, each as the printer's
 * payment type or as a deduction (deposit, single-use voucher). A void needs no lines: the
 * printer voids the original as it is. Rejects — before anything is printed — with
 * FISCAL_REJECTED when the bill cannot make a valid receipt (no items, a line it cannot
 * classify, an unknown payment type, foreign currency, items ≠ payments to the cent, payments ≠
 * the bill's own payments) and with COMMAND_INVALID for a refund without a usable reference or a
 * customer code that fails its check.
 */
export async function buildReceipt(
  fiscal: FiscalJobData,
  options: EpsonFpmateOptions,
  ctx: ReceiptContext,
): Promise<ReceiptModel> {
  const doc = fiscal.document;
  if (doc.type !== 'data') throw new AgentError('INTERNAL', 'buildReceipt called for a payload command');
  const header = options.headerLines.map((h) => printerText(h, options.lineLength));
  const codes = customerCodes(fiscal, options);
  if (doc.isRefund) {
    const { kind, reference } = refundDocument(fiscal, options, ctx);
    if (kind === 'void') {
      const model: ReceiptModel = {
        kind,
        reference,
        header: [],
        lines: [],
        payments: [],
        totalCents: 0,
        currency: options.currency,
      };
      if (codes.customer) model.customer = codes.customer;
      return model;
    }
    const model = await fromBill(fiscal, options, ctx, 'refund');
    model.reference = reference;
    model.header = header;
    if (codes.customer) model.customer = codes.customer;
    return model;
  }
  const model = await fromBill(fiscal, options, ctx, 'sale');
  model.header = header;
  if (codes.customer) model.customer = codes.customer;
  if (codes.lottery) model.lottery = codes.lottery;
  return model;
}

async function fromBill(
  fiscal: FiscalJobData,
  options: EpsonFpmateOptions,
  ctx: ReceiptContext,
  kind: 'sale' | 'refund',
): Promise<ReceiptModel> {
  const lineOptions: LineOptions = {
    departments: departmentTable(options),
    taxCodeRates: options.taxCodeRates,
    taxCodeNatures: options.taxCodeNatures,
    itemNatures: itemNatureTable(options),
    defaultDepartment: options.defaultDepartment,
    itemNames: { ...DEFAULT_ITEM_NAMES, ...options.itemNames },
  };
  const sourceLines = (
    fiscal.bill.legacyItems
      ? fiscal.bill.legacyItems.map(fromLegacyLine)
      : (await ctx.platform.orderItems(fiscal.bill.id, ctx.signal)).map((i) =>
          fromOrderItem(i, lineOptions.itemNames),
        )
  ).filter((l): l is SourceLine => l !== undefined);
  for (const l of sourceLines) checkCurrency(l.currency, options.currency);
  if (kind === 'refund')
    commonSign(
      sourceLines.map((l) => l.grossUnits),
      'refunded items',
    );
  const lines = sourceLines
    .map((l) => toLine(l, kind, options, lineOptions))
    .filter((l): l is ReceiptLine => l !== undefined)
    .sort((a, b) => Number(a.type === 'discount') - Number(b.type === 'discount'));
  const itemsCents = sum(lines.map((l) => (l.type === 'discount' ? -l.totalCents : l.totalCents)));
  if (lines.length === 0 || itemsCents <= 0) {
    throw rejected(
      `Bill ${fiscal.bill.id} has nothing to print (total ${formatAmount(itemsCents)})`,
      r.nothingToPrint(),
    );
  }
  if (itemsCents > MAX_CENTS) {
    throw rejected(
      `Bill ${fiscal.bill.id} totals ${formatAmount(itemsCents)}, over the printer's limit`,
      r.totalTooLarge({ total: itemsCents / 100, currency: options.currency }),
    );
  }
  const platformPayments = (await ctx.platform.payments(fiscal.bill.id, ctx.signal))
    .map(fromPayment)
    .filter((p): p is SourcePayment => p !== undefined);
  const legacyPayments = (fiscal.bill.legacyPayments ?? [])
    .map(fromLegacyPayment)
    .filter((p): p is SourcePayment => p !== undefined);
  const sourcePayments = platformPayments.length > 0 ? platformPayments : legacyPayments;
  for (const p of sourcePayments) checkCurrency(p.currency, options.currency);
  commonSign(
    sourcePayments.map((p) => p.units),
    'payments',
  );
  const units = (values: Array<{ units: number }>) => Math.abs(sum(values.map((v) => v.units)));
  if (platformPayments.length > 0 && legacyPayments.length > 0) {
    const billPaid = unitsToCents(units(legacyPayments));
    const recorded = unitsToCents(units(platformPayments));
    if (billPaid !== recorded) {
      throw rejected(
        `Payments ${formatAmount(recorded)} differ from the bill's own payments ${formatAmount(billPaid)}`,
        r.paymentsDiffer({ billPaid: billPaid / 100, recorded: recorded / 100, currency: options.currency }),
      );
    }
  }
  const ruled = sourcePayments
    .map((p) => {
      const rule = ruleFor(p.keys, options.payments, options.defaultPayment);
      if (!rule) {
        throw rejected(
          `No payment rule for ${p.keys.join(' / ')}`,
          fiscalNotes.unknownPayment(p.keys[0] ?? 'unknown'),
        );
      }
      return { source: p, rule, cents: Math.abs(unitsToCents(p.units)) };
    })
    .filter((p) => p.cents !== 0);
  const deductions: Deduction[] = [];
  const counted: typeof ruled = [];
  for (const p of ruled) {
    if (!isDeduction(p.rule)) {
      counted.push(p);
      continue;
    }
    if (kind === 'refund') throw rejected('A refund with a deduction', fiscalNotes.deductionOnRefund());
    deductions.push({
      adjustmentType: DEDUCTION_ADJUSTMENT[p.rule.deduct],
      description: printerText(p.rule.description ?? p.source.keys[0] ?? 'ACCONTO', options.lineLength),
      cents: p.cents,
    });
  }
  const deductionLines = allocateDeductions(lines, deductions);
  const totalCents = itemsCents - sum(deductionLines.map((l) => l.totalCents));
  const paid = sum(counted.map((p) => p.cents));
  // Rounding differences only (the bill balances before rounding) go onto the largest payment.
  const balancedExactly = units(sourceLines.map((l) => ({ units: l.grossUnits }))) === units(sourcePayments);
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
      `Items ${formatAmount(totalCents)} and payments ${formatAmount(paid)} differ`,
      r.itemsAndPaymentsDiffer({ total: totalCents / 100, paid: paid / 100, currency: options.currency }),
    );
  }
  const payments = counted.map((p, i) => {
    const rule = p.rule as Exclude<typeof p.rule, { deduct: string }>;
    return {
      description: printerText(rule.description ?? p.source.keys[0] ?? 'PAGAMENTO', options.lineLength),
      paymentType: rule.paymentType,
      index: rule.index,
      cents: settled[i] ?? p.cents,
    };
  });
  return {
    kind,
    header: [],
    lines: [...lines, ...deductionLines],
    payments,
    totalCents,
    currency: options.currency,
  };
}
