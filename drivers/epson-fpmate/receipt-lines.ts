import type { LegacyLine } from '../../src/connector/model.js';
import type { CurrencyValue, WireOrderItem, WirePayment } from '../../src/connector/wire.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { fiscalNotes } from './messages.js';
import type { AmountOwner } from './messages-refusals.js';
import { toCents, toUnits, unitsToCents } from './money.js';
import {
  type Nature,
  natureDepartment,
  natureOfExemption,
  rateDepartment,
  rateOfTaxCode,
  tableRates,
} from './natures.js';
import { paymentKeys } from './payment-types.js';

/**
 * Platform lines and payments in one neutral shape (integer units of 1/10,000 euro as `money.ts`
 * defines them, sign as the platform gave it; every amount range-checked on the way in), and the
 * decision taken per line: which VAT rate or nature, hence which printer department.
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
  /** Order-item type (`CityTax`, `SpaceOrder` …) or the legacy accounting item's type. */
  itemType?: string;
  accountingCategoryId?: string;
  /** The platform's `TaxExemptionReason` (`IT_N4` …). */
  exemption?: string;
}

export interface SourcePayment {
  /** The keys it answers to in the payment map, most specific first (`payment-types.ts`). */
  keys: string[];
  /** In units (1/10,000 euro), before any rounding. */
  units: number;
  currency: string;
}

export interface LineOptions {
  /** Department per VAT rate or nature (`departmentTable`). */
  departments: Record<string, number>;
  taxCodeRates: Record<string, number>;
  taxCodeNatures: Record<string, string>;
  /** Nature per order-item type or accounting category (`itemNatureTable`). */
  itemNatures: Record<string, string>;
  defaultDepartment?: number | undefined;
  itemNames: Record<string, string>;
}

/** Where a line prints: its department, and the VAT rate or nature that department carries. */
export interface LineClass {
  department: number;
  rate?: number;
  nature?: Nature;
}

const PAYMENT_STATES = new Set(['Charged', 'Closed']);

function grossOf(value: CurrencyValue, what: AmountOwner): number | undefined {
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
  const own = item.Notes?.trim() || item.BillingName?.trim();
  const name = named ?? (own || (type ? humanise(type) : 'Item'));
  const what: AmountOwner = { kind: 'item', name };
  const gross = grossOf(item.Amount, what);
  if (gross === undefined) return undefined;
  const line: SourceLine = {
    name,
    quantity: item.UnitCount,
    grossUnits: gross,
    taxCodes: (item.Amount.TaxValues ?? []).map((t) => t.Code ?? '').filter(Boolean),
    currency: item.Amount.Currency,
  };
  if (type) line.itemType = type;
  if (item.AccountingCategoryId) line.accountingCategoryId = item.AccountingCategoryId;
  if (item.TaxExemptionReason) line.exemption = item.TaxExemptionReason;
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
  const what: AmountOwner = { kind: 'item', name: line.name };
  const source: SourceLine = {
    name: line.name,
    quantity: line.unitCount,
    grossUnits: toUnits(line.gross, what),
    taxCodes: line.taxCodes,
    currency: line.currency,
  };
  if (line.type) source.itemType = line.type;
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
  const what: AmountOwner = { kind: 'payment', name: payment.Type };
  const units =
    grossOf(payment.Amount, what) ?? (payment.Amount.NetValue ? toUnits(payment.Amount.NetValue, what) : 0);
  return { keys: paymentKeys(payment), units, currency: payment.Amount.Currency };
}

export function fromLegacyPayment(line: LegacyLine): SourcePayment | undefined {
  if (line.canceled) return undefined;
  const keys = [...new Set([line.type, line.name].filter((k): k is string => Boolean(k)))];
  return {
    keys,
    units: toUnits(line.gross, { kind: 'payment', name: keys[0] ?? '' }),
    currency: line.currency,
  };
}

function rejected(message: string, notes: Message): AgentError {
  return new AgentError('FISCAL_REJECTED', message, { notes });
}

/** The nature the platform or the configuration gives a line, if any. */
function natureOf(line: SourceLine, options: LineOptions): Nature | undefined {
  const named = natureOfExemption(line.exemption);
  if (named) return named;
  if (line.itemType && options.itemNatures[line.itemType]) return options.itemNatures[line.itemType];
  if (line.accountingCategoryId && options.itemNatures[line.accountingCategoryId])
    return options.itemNatures[line.accountingCategoryId];
  const coded = line.taxCodes.map((code) => options.taxCodeNatures[code]);
  if (coded.length > 0 && coded.every((n) => n !== undefined)) {
    const distinct = [...new Set(coded)];
    if (distinct.length === 1) return distinct[0];
  }
  return undefined;
}

/**
 * The VAT rate of a line: from `taxCodeRates` when every tax code of the line is mapped, else
 * from the codes' own "NN%" ending, else from the amounts (the table's rate — or 0 — whose tax
 * on the net amount is closest to the line's tax, within rounding). Undefined when none applies.
 */
function rateOf(line: SourceLine, options: LineOptions): number | undefined {
  const fromCodes = (rates: Array<number | undefined>) => {
    if (line.taxCodes.length === 0 || !rates.every((r) => r !== undefined)) return undefined;
    const distinct = [...new Set(rates)];
    if (distinct.length > 1) {
      throw rejected(
        `Line "${line.name}" carries several VAT rates (${distinct.join(', ')} %)`,
        fiscalNotes.mixedRates(line.name),
      );
    }
    return distinct[0];
  };
  const mapped = fromCodes(line.taxCodes.map((code) => options.taxCodeRates[code]));
  if (mapped !== undefined) return mapped;
  const named = fromCodes(line.taxCodes.map(rateOfTaxCode));
  if (named !== undefined) return named;
  if (line.netCents === undefined || line.taxCents === undefined || line.netCents === 0) return undefined;
  const net = Math.abs(line.netCents);
  const tax = Math.abs(line.taxCents);
  const tolerance = Math.max(2, Math.round(tax * 0.005));
  let best: { rate: number; diff: number } | undefined;
  for (const rate of [...new Set([0, ...tableRates(options.departments)])]) {
    const diff = Math.abs(Math.round((net * rate) / 100) - tax);
    if (!best || diff < best.diff) best = { rate, diff };
  }
  return best && best.diff <= tolerance ? best.rate : undefined;
}

/**
 * Where a line prints. A nature — the platform's `TaxExemptionReason`, else `itemNatures` by
 * item type or accounting category (the city tax is N1), else `taxCodeNatures` — wins, and then
 * the line must carry no VAT; otherwise the VAT rate (see `rateOf`) picks the department. A line
 * without VAT and without a nature, a rate or nature without a department, or a line whose rate
 * cannot be told go to `defaultDepartment` when one is configured, else the bill is refused with
 * FISCAL_REJECTED and Notes naming the line — before anything is printed.
 */
export function classifyLine(line: SourceLine, options: LineOptions): LineClass {
  const nature = natureOf(line, options);
  const fallback = (what: string, message: string, notes: Message): LineClass => {
    if (options.defaultDepartment !== undefined) return { department: options.defaultDepartment };
    throw rejected(`${message} (line "${line.name}", ${what})`, notes);
  };
  if (nature) {
    if (line.taxCents !== undefined && Math.abs(line.taxCents) > 1) {
      throw rejected(
        `Line "${line.name}" is ${nature} but carries VAT`,
        fiscalNotes.natureWithVat(line.name, nature),
      );
    }
    const department = natureDepartment(nature, options.departments);
    if (department !== undefined) return { department, nature };
    return fallback(
      `nature ${nature}`,
      'No department for a nature',
      fiscalNotes.noDepartmentNature(line.name, nature),
    );
  }
  const rate = rateOf(line, options);
  const described = `codes ${line.taxCodes.join(', ') || 'none'}, net ${line.netCents ?? '?'}, tax ${line.taxCents ?? '?'} cents`;
  if (rate === undefined || (rate === 0 && rateDepartment(0, options.departments) === undefined)) {
    return fallback(described, 'Line without VAT rate or nature', fiscalNotes.unclassifiable(line.name));
  }
  const department = rateDepartment(rate, options.departments);
  if (department !== undefined) return { department, rate };
  return fallback(
    described,
    `No department for VAT ${rate} %`,
    fiscalNotes.noDepartmentRate(line.name, rate),
  );
}
