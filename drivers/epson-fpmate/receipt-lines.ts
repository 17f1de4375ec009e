import type { LegacyLine } from '../../src/connector/model.js';
import type { CurrencyValue, WireOrderItem, WirePayment } from '../../src/connector/wire.js';
import { AgentError } from '../../src/errors.js';
import { DEFAULT_PAYMENTS, type PaymentMapping } from './config.js';
import { formatAmount, toCents, toUnits, unitsToCents } from './money.js';

/**
 * Platform lines and payments in one neutral shape (integer units of 1/10,000 euro as `money.ts`
 * defines them, sign as the platform gave it; every amount range-checked on the way in), and the
 * decisions taken per line: VAT rate → department, payment type → Epson payment.
 */

export interface SourceLine {
  name: string;
  quantity: number;
  /** Unit price in units (1/10,000 euro). */
  unitGrossUnits?: number;
  /** The whole line in units (1/10,000 euro), before any rounding. */
  grossUnits: number;
  netCents?: number;
  taxCents?: number;
  taxCodes: string[];
  currency: string;
}

export interface SourcePayment {
  type: string;
  /** In units (1/10,000 euro), before any rounding. */
  units: number;
  currency: string;
}

export interface LineOptions {
  departments: Record<string, number>;
  taxCodeRates: Record<string, number>;
  defaultDepartment?: number | undefined;
  itemNames: Record<string, string>;
}

const PAYMENT_STATES = new Set(['Charged', 'Closed']);

function grossOf(value: CurrencyValue, what: string): number | undefined {
  const v = value.GrossValue ?? value.Value;
  return v === undefined || v === null ? undefined : toUnits(v, what);
}

function humanise(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** An order item as a source line; cancelled items and items without an amount give undefined. */
export function fromOrderItem(item: WireOrderItem, names: Record<string, string>): SourceLine | undefined {
  if (item.CanceledUtc) return undefined;
  const type = item.Type ?? '';
  const named = type ? names[type] : undefined;
  const name = named ?? (item.Notes?.trim() || (type ? humanise(type) : 'Item'));
  const what = `the item "${name}"`;
  const gross = grossOf(item.Amount, what);
  if (gross === undefined) return undefined;
  const line: SourceLine = {
    name,
    quantity: item.UnitCount,
    grossUnits: gross,
    taxCodes: (item.Amount.TaxValues ?? []).map((t) => t.Code ?? '').filter(Boolean),
    currency: item.Amount.Currency,
  };
  const unit = grossOf(item.UnitAmount, what);
  if (unit !== undefined) line.unitGrossUnits = unit;
  if (item.Amount.NetValue !== undefined && item.Amount.NetValue !== null) {
    line.netCents = toCents(item.Amount.NetValue, what);
    line.taxCents = item.Amount.TaxValues
      ? item.Amount.TaxValues.reduce((sum, t) => sum + toCents(t.Value, what), 0)
      : unitsToCents(gross) - line.netCents;
  }
  return line;
}

/** A line a legacy bill carries itself; cancelled lines give undefined. */
export function fromLegacyLine(line: LegacyLine): SourceLine | undefined {
  if (line.canceled) return undefined;
  const what = `the item "${line.name}"`;
  const source: SourceLine = {
    name: line.name,
    quantity: line.unitCount,
    grossUnits: toUnits(line.gross, what),
    taxCodes: line.taxCodes,
    currency: line.currency,
  };
  // Net and tax, when the legacy line has them, tell the VAT rate like an order item's do.
  if (line.net !== undefined) {
    source.netCents = toCents(line.net, what);
    source.taxCents =
      line.tax !== undefined ? toCents(line.tax, what) : toCents(line.gross, what) - source.netCents;
  }
  return source;
}

/** A payment that counts on the receipt (Charged or Closed); others give undefined. */
export function fromPayment(payment: WirePayment): SourcePayment | undefined {
  if (!PAYMENT_STATES.has(payment.State)) return undefined;
  const what = `the payment ${payment.Type}`;
  const units =
    grossOf(payment.Amount, what) ?? (payment.Amount.NetValue ? toUnits(payment.Amount.NetValue, what) : 0);
  return { type: payment.Type, units, currency: payment.Amount.Currency };
}

export function fromLegacyPayment(line: LegacyLine): SourcePayment | undefined {
  if (line.canceled) return undefined;
  const type = line.type ?? line.name;
  return { type, units: toUnits(line.gross, `the payment ${type}`), currency: line.currency };
}

function rejected(message: string, notes: string): AgentError {
  return new AgentError('FISCAL_REJECTED', message, { notes });
}

/**
 * The printer department of a line. The rate comes from `taxCodeRates` when every tax code of
 * the line is mapped, else from the amounts (the configured rate whose tax on the net amount is
 * closest to the line's tax, within rounding), else `defaultDepartment`. Rejects with
 * FISCAL_REJECTED when none applies or a line mixes rates.
 */
export function departmentOf(line: SourceLine, options: LineOptions): number {
  const rates = Object.keys(options.departments);
  let rateKey: string | undefined;
  const mapped = line.taxCodes.map((code) => options.taxCodeRates[code]);
  if (line.taxCodes.length > 0 && mapped.every((r) => r !== undefined)) {
    const distinct = [...new Set(mapped)];
    if (distinct.length > 1) {
      throw rejected(
        `Line "${line.name}" carries several VAT rates (${distinct.join(', ')} %)`,
        `The bill line "${line.name}" mixes VAT rates, which one receipt line cannot show; nothing was printed. Split the item on the platform, then issue the receipt again.`,
      );
    }
    rateKey = rates.find((k) => Number(k) === distinct[0]);
  } else if (line.netCents !== undefined && line.taxCents !== undefined && line.netCents !== 0) {
    const net = Math.abs(line.netCents);
    const tax = Math.abs(line.taxCents);
    const tolerance = Math.max(2, Math.round(tax * 0.005));
    let best: { key: string; diff: number } | undefined;
    for (const key of rates) {
      const diff = Math.abs(Math.round((net * Number(key)) / 100) - tax);
      if (!best || diff < best.diff) best = { key, diff };
    }
    if (best && best.diff <= tolerance) rateKey = best.key;
  }
  const department = rateKey === undefined ? undefined : options.departments[rateKey];
  if (department !== undefined) return department;
  if (options.defaultDepartment !== undefined) return options.defaultDepartment;
  throw rejected(
    `No department for line "${line.name}" (codes ${line.taxCodes.join(', ') || 'none'}, net ${formatAmount(line.netCents ?? 0)}, tax ${formatAmount(line.taxCents ?? 0)})`,
    `The VAT rate of the bill line "${line.name}" does not match any printer department; nothing was printed. Ask IT to add it to the driver's departments or taxCodeRates.`,
  );
}

/** The Epson payment for a platform payment type: configured, built-in, else the default. */
export function paymentFor(
  type: string,
  configured: Record<string, PaymentMapping>,
  fallback: PaymentMapping,
): PaymentMapping {
  return configured[type] ?? DEFAULT_PAYMENTS[type] ?? fallback;
}
