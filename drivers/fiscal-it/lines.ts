import type { LegacyLine } from '../../src/connector/model.js';
import type { CurrencyValue, WireOrderItem } from '../../src/connector/wire.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { type AmountOwner, lawNotes } from './messages.js';
import { toCents, toUnits, unitsToCents } from './money.js';
import {
  type Nature,
  natureDepartment,
  natureOfExemption,
  rateDepartment,
  rateOfTaxCode,
  tableRates,
} from './natures.js';

/**
 * Platform lines in one neutral shape (integer units of 1/10,000 euro as `money.ts` defines them,
 * sign as the platform gave it; every amount range-checked on the way in), and the decision taken
 * per line: which VAT rate or nature, hence which printer department.
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

/** What classifying a line needs: the department table in force and the platform's codes. */
export interface LineRules {
  /** Department per VAT rate or nature (the configured entries over `DEFAULT_DEPARTMENTS`). */
  departments: Readonly<Record<string, number>>;
  taxCodeRates: Readonly<Record<string, number>>;
  taxCodeNatures: Readonly<Record<string, string>>;
  /** Nature per order-item type or accounting category (configured over `DEFAULT_ITEM_NATURES`). */
  itemNatures: Readonly<Record<string, string>>;
  defaultDepartment?: number | undefined;
}

/** A quantity in Italian: integers as they are, fractions with a decimal comma ("2,5", "0,333"). */
export function quantityText(quantity: number): string {
  return String(Math.round(quantity * 1000) / 1000).replace('.', ',');
}

/** Where a line prints: its department, and the VAT rate or nature that department carries. */
export interface LineClass {
  department: number;
  rate?: number;
  nature?: Nature;
}

export function grossOf(value: CurrencyValue, what: AmountOwner): number | undefined {
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

function rejected(message: string, notes: Message): AgentError {
  return new AgentError('FISCAL_REJECTED', message, { notes });
}

/** The nature the platform or the configuration gives a line, if any. */
function natureOf(line: SourceLine, rules: LineRules): Nature | undefined {
  const named = natureOfExemption(line.exemption);
  if (named) return named;
  if (line.itemType && rules.itemNatures[line.itemType]) return rules.itemNatures[line.itemType];
  if (line.accountingCategoryId && rules.itemNatures[line.accountingCategoryId])
    return rules.itemNatures[line.accountingCategoryId];
  const coded = line.taxCodes.map((code) => rules.taxCodeNatures[code]);
  if (coded.length > 0 && coded.every((n) => n !== undefined)) {
    const distinct = [...new Set(coded)];
    if (distinct.length === 1) return distinct[0];
  }
  return undefined;
}

/**
 * The rate named by tax codes: from `taxCodeRates` when every code is mapped, else from the codes'
 * own "NN%" ending. Undefined when the codes do not say; refuses codes that name two rates.
 */
export function rateOfCodes(name: string, codes: readonly string[], rules: LineRules): number | undefined {
  const fromCodes = (rates: Array<number | undefined>) => {
    if (codes.length === 0 || !rates.every((r) => r !== undefined)) return undefined;
    const distinct = [...new Set(rates)];
    if (distinct.length > 1) {
      throw rejected(
        `Line "${name}" carries several VAT rates (${distinct.join(', ')} %)`,
        lawNotes.mixedRates(name),
      );
    }
    return distinct[0];
  };
  return fromCodes(codes.map((code) => rules.taxCodeRates[code])) ?? fromCodes(codes.map(rateOfTaxCode));
}

/**
 * The VAT rate whose tax on `netCents` comes closest to `taxCents` (the table's rates, and 0),
 * within rounding; undefined when none is close. Two rates fitting equally well — small amounts
 * round alike at 4 % and 5 % — cannot be told apart: the line `name` is refused (FISCAL_REJECTED,
 * Notes naming it) rather than printed at the first of them.
 */
export function rateOfAmounts(
  name: string,
  netCents: number,
  taxCents: number,
  departments: Readonly<Record<string, number>>,
): number | undefined {
  if (netCents === 0) return undefined;
  const net = Math.abs(netCents);
  const tax = Math.abs(taxCents);
  const tolerance = Math.max(2, Math.round(tax * 0.005));
  const fits = [...new Set([0, ...tableRates(departments)])]
    .map((rate) => ({ rate, diff: Math.abs(Math.round((net * rate) / 100) - tax) }))
    .filter((f) => f.diff <= tolerance);
  if (fits.length === 0) return undefined;
  const best = Math.min(...fits.map((f) => f.diff));
  const tied = fits.filter((f) => f.diff === best).map((f) => f.rate);
  if (tied.length > 1) {
    throw rejected(
      `Line "${name}": VAT rates ${tied.join(', ')} % fit its amounts equally`,
      lawNotes.rateTie(name, tied),
    );
  }
  return tied[0];
}

/**
 * Where a line prints. A nature — the platform's `TaxExemptionReason`, else `itemNatures` by
 * item type or accounting category (the city tax is N1), else `taxCodeNatures` — wins, and then
 * the line must carry no VAT; otherwise the VAT rate (tax codes, else amounts) picks the
 * department. A line without VAT and without a nature, a rate or nature without a department, or
 * a line whose rate cannot be told go to `defaultDepartment` when one is configured, else the
 * bill is refused with FISCAL_REJECTED and Notes naming the line — before anything is printed.
 */
export function classifyLine(line: SourceLine, rules: LineRules): LineClass {
  const nature = natureOf(line, rules);
  const fallback = (what: string, message: string, notes: Message): LineClass => {
    if (rules.defaultDepartment !== undefined) return { department: rules.defaultDepartment };
    throw rejected(`${message} (line "${line.name}", ${what})`, notes);
  };
  if (nature) {
    if (line.taxCents !== undefined && Math.abs(line.taxCents) > 1) {
      throw rejected(
        `Line "${line.name}" is ${nature} but carries VAT`,
        lawNotes.natureWithVat(line.name, nature),
      );
    }
    const department = natureDepartment(nature, rules.departments);
    if (department !== undefined) return { department, nature };
    return fallback(
      `nature ${nature}`,
      'No department for a nature',
      lawNotes.noDepartmentNature(line.name, nature),
    );
  }
  const rate =
    rateOfCodes(line.name, line.taxCodes, rules) ??
    (line.netCents !== undefined && line.taxCents !== undefined
      ? rateOfAmounts(line.name, line.netCents, line.taxCents, rules.departments)
      : undefined);
  const described = `codes ${line.taxCodes.join(', ') || 'none'}, net ${line.netCents ?? '?'}, tax ${line.taxCents ?? '?'} cents`;
  if (rate === undefined || (rate === 0 && rateDepartment(0, rules.departments) === undefined)) {
    return fallback(described, 'Line without VAT rate or nature', lawNotes.unclassifiable(line.name));
  }
  const department = rateDepartment(rate, rules.departments);
  if (department !== undefined) return { department, rate };
  return fallback(described, `No department for VAT ${rate} %`, lawNotes.noDepartmentRate(line.name, rate));
}
