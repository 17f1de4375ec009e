import type { FiscalJobData } from '../../src/connector/model.js';
import type { PlatformReader } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { DEFAULT_ITEM_NAMES, type EpsonFpmateOptions } from './config.js';
import { formatAmount, MAX_CENTS, MAX_QUANTITY, settlePayments, unitsToCents } from './money.js';
import {
  departmentOf,
  fromLegacyLine,
  fromLegacyPayment,
  fromOrderItem,
  fromPayment,
  type LineOptions,
  paymentFor,
  type SourceLine,
  type SourcePayment,
} from './receipt-lines.js';
import { type DocumentReference, referenceMessage, refundReference } from './reference.js';
import { element, formatQuantity, printerText } from './xml-build.js';

/** A receipt ready to print: every amount in integer cents, every total already checked. */
export interface ReceiptLine {
  type: 'item' | 'discount' | 'refund';
  description: string;
  quantity: number;
  /** Unit price (item, refund) or discount amount (discount), positive. */
  unitCents: number;
  /** The line's effect on the total, positive. */
  totalCents: number;
  department: number;
}

export interface ReceiptPayment {
  description: string;
  paymentType: number;
  index: number;
  cents: number;
}

export interface ReceiptModel {
  kind: 'sale' | 'refund';
  reference?: DocumentReference;
  header: string[];
  lines: ReceiptLine[];
  payments: ReceiptPayment[];
  totalCents: number;
  currency: string;
}

export interface ReceiptContext {
  platform: PlatformReader;
  signal: AbortSignal;
  timeZone: string;
  /** This printer's serial, used in refund references when the platform gives none. */
  ownSerial?: string | undefined;
}

function rejected(message: string, notes: string): AgentError {
  return new AgentError('FISCAL_REJECTED', message, { notes });
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** All non-zero values share one sign; returns that sign (1 or -1), 0 when all are zero. */
function commonSign(values: number[], what: string): number {
  const signs = new Set(values.filter((v) => v !== 0).map(Math.sign));
  if (signs.size > 1) {
    throw rejected(
      `The ${what} mix charges and refunds`,
      `The bill’s ${what} mix charges and refunds, which one receipt cannot show; nothing was printed. Ask IT to check the bill.`,
    );
  }
  return [...signs][0] ?? 0;
}

function checkCurrency(currency: string, expected: string): void {
  if (currency !== expected) {
    throw rejected(
      `Amount in ${currency}, the printer prints ${expected}`,
      `The bill has amounts in ${currency}; the fiscal printer only prints ${expected}. Nothing was printed.`,
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
      `The bill line "${source.name}" has a quantity (${source.quantity}) the fiscal printer cannot print; nothing was printed. Check the bill on the platform.`,
    );
  }
  const department = departmentOf(source, lineOptions);
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
  if (kind === 'refund')
    return { type: 'refund', description, quantity, unitCents: unit, totalCents: total, department };
  if (source.grossUnits < 0) {
    return { type: 'discount', description, quantity: 1, unitCents: total, totalCents: total, department };
  }
  return { type: 'item', description, quantity, unitCents: unit, totalCents: total, department };
}

/**
 * Builds the receipt of a `data` fiscal command from the bill: items from the legacy bill when it
 * carries them, else from `orderItems`; payments (Charged/Closed) from `payments`, else the legacy
 * bill's own. Rejects — before anything is printed — with FISCAL_REJECTED when the bill cannot
 * make a valid receipt (no items, unknown VAT, foreign currency, items ≠ payments to the cent,
 * payments ≠ the bill's own payments) and with COMMAND_INVALID for a refund without a usable
 * reference.
 */
export async function buildReceipt(
  fiscal: FiscalJobData,
  options: EpsonFpmateOptions,
  ctx: ReceiptContext,
): Promise<ReceiptModel> {
  const doc = fiscal.document;
  if (doc.type !== 'data') throw new AgentError('INTERNAL', 'buildReceipt called for a payload command');
  const kind = doc.isRefund ? 'refund' : 'sale';
  const lineOptions: LineOptions = {
    departments: options.departments,
    taxCodeRates: options.taxCodeRates,
    defaultDepartment: options.defaultDepartment,
    itemNames: { ...DEFAULT_ITEM_NAMES, ...options.itemNames },
  };
  const reference =
    kind === 'refund'
      ? refundReference(doc.rebated, doc.printerSerialNumber, ctx.ownSerial, ctx.timeZone)
      : undefined;

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
  const totalCents = sum(lines.map((l) => (l.type === 'discount' ? -l.totalCents : l.totalCents)));
  if (lines.length === 0 || totalCents <= 0) {
    throw rejected(
      `Bill ${fiscal.bill.id} has nothing to print (total ${formatAmount(totalCents)})`,
      'The bill has no items to put on a receipt; nothing was printed. Check the bill on the platform.',
    );
  }

  if (totalCents > MAX_CENTS) {
    throw rejected(
      `Bill ${fiscal.bill.id} totals ${formatAmount(totalCents)}, over the printer's limit`,
      `The bill’s total (${formatAmount(totalCents)} ${options.currency}) is more than the fiscal printer can print on one receipt; nothing was printed. Check the bill on the platform.`,
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
        `The bill’s payments (${formatAmount(billPaid)} ${options.currency}) and the payments recorded on the platform (${formatAmount(recorded)} ${options.currency}) differ; nothing was printed. Check the bill on the platform.`,
      );
    }
  }
  const counted = sourcePayments
    .map((p) => ({ source: p, cents: Math.abs(unitsToCents(p.units)) }))
    .filter((p) => p.cents !== 0);
  const paid = sum(counted.map((p) => p.cents));
  // Rounding differences only (the bill balances before rounding) go onto the largest payment.
  const balancedExactly = units(sourceLines.map((l) => ({ units: l.grossUnits }))) === units(sourcePayments);
  const settled = settlePayments(
    counted.map((p) => p.cents),
    totalCents,
    balancedExactly,
  );
  if (!settled) {
    throw rejected(
      `Items ${formatAmount(totalCents)} and payments ${formatAmount(paid)} differ`,
      `The bill’s items (${formatAmount(totalCents)} ${options.currency}) and payments (${formatAmount(paid)} ${options.currency}) do not match; nothing was printed. Settle the bill on the platform, then issue the receipt again.`,
    );
  }
  const payments = counted.map((p, i) => {
    const mapping = paymentFor(p.source.type, options.payments, options.defaultPayment);
    return {
      description: printerText(mapping.description ?? p.source.type, options.lineLength),
      paymentType: mapping.paymentType,
      index: mapping.index,
      cents: settled[i] ?? p.cents,
    };
  });
  const model: ReceiptModel = {
    kind,
    header: options.headerLines.map((h) => printerText(h, options.lineLength)),
    lines,
    payments,
    totalCents,
    currency: options.currency,
  };
  if (reference) model.reference = reference;
  return model;
}

/** The `printerFiscalReceipt` element of a receipt (amounts with a dot, text escaped). */
export function receiptXml(model: ReceiptModel, operator: string): string {
  const parts: string[] = ['<printerFiscalReceipt>'];
  if (model.reference) {
    parts.push(
      element('printRecMessage', { operator, messageType: 4, message: referenceMessage(model.reference) }),
    );
  }
  model.header.forEach((message, i) => {
    parts.push(element('printRecMessage', { operator, messageType: 1, index: i + 1, font: 1, message }));
  });
  parts.push(element('beginFiscalReceipt', { operator }));
  for (const line of model.lines) {
    const common = { operator, description: line.description, department: line.department };
    if (line.type === 'discount') {
      parts.push(
        element('printRecItemAdjustment', {
          ...common,
          adjustmentType: 3,
          amount: formatAmount(line.unitCents),
          justification: 2,
        }),
      );
    } else {
      const name = line.type === 'refund' ? 'printRecRefund' : 'printRecItem';
      parts.push(
        element(name, {
          ...common,
          quantity: formatQuantity(line.quantity),
          unitPrice: formatAmount(line.unitCents),
          justification: 1,
        }),
      );
    }
  }
  for (const p of model.payments) {
    parts.push(
      element('printRecTotal', {
        operator,
        description: p.description,
        payment: formatAmount(p.cents),
        paymentType: p.paymentType,
        index: p.index,
        justification: 2,
      }),
    );
  }
  parts.push(element('endFiscalReceipt', { operator }), '</printerFiscalReceipt>');
  return parts.join('');
}
