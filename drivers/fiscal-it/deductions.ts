import { AgentError } from '../../src/errors.js';
import { type LineRules, rateOfAmounts, rateOfCodes } from './lines.js';
import { lawNotes } from './messages.js';
import type { DocumentDeduction, DocumentDiscount, DocumentLine } from './model.js';
import { rateDepartment } from './natures.js';
import type { DeductionKind, TaxShare } from './payments.js';

/**
 * Deductions: an amount already certified that a sale takes off its total — a deposit (acconto)
 * or a single-use voucher (buono monouso).
 *
 * An acconto is taxable when it is paid (art. 6 c. 4 DPR 633/72; AdE Circ. 3/E of 21-2-2020: the
 * commercial document is issued at the payment, total or partial), so its own receipt carried
 * the VAT of the service it prepaid; the saldo must take off exactly that amount **at the same
 * rate**, or VAT is charged twice at one rate and never at another. Public drivers name the
 * deposit's department explicitly (721377/procassa `lib/epsonxml.js` `itemAcconto`); none spreads
 * a deposit over the receipt by size. So each deduction is taken, per rate, from the platform's
 * own record of its VAT — the payment's `Amount.Breakdown` (or its single tax code) — off the
 * department of that rate. When the platform does not say, or the receipt carries less at that
 * rate than the deduction, the bill is refused with FISCAL_REJECTED and Notes naming it, before
 * anything prints: never a guess.
 */

export interface DeductionRequest {
  kind: DeductionKind;
  description: string;
  cents: number;
  taxShares: readonly TaxShare[];
}

export interface DeductionContext {
  rules: LineRules;
  /** The bill's number (or id) for the Notes. */
  bill: string;
  currency: string;
}

type Rated = { rate: number; cents: number };

function what(kind: DeductionKind): 'deposit' | 'voucher' {
  return kind === 'deposit' ? 'deposit' : 'voucher';
}

/** The deduction's amount per VAT rate, from its tax shares; undefined when they cannot tell. */
function perRate(request: DeductionRequest, rules: LineRules): Rated[] | undefined {
  if (request.taxShares.length === 0) return undefined;
  const rated: Rated[] = [];
  for (const share of request.taxShares) {
    const net = Math.abs(share.netCents);
    const tax = Math.abs(share.taxCents);
    // An untaxed share has a nature no field names: which, the platform does not say.
    if (share.code === undefined && tax === 0) return undefined;
    const rate =
      rateOfCodes(request.description, share.code ? [share.code] : [], rules) ??
      rateOfAmounts(request.description, net, tax, rules.departments);
    if (rate === undefined) return undefined;
    const entry = rated.find((r) => r.rate === rate);
    if (entry) entry.cents += net + tax;
    else rated.push({ rate, cents: net + tax });
  }
  const sum = rated.reduce((s, r) => s + r.cents, 0);
  const difference = request.cents - sum;
  // The shares must make the payment, up to a cent of rounding per share.
  if (Math.abs(difference) > request.taxShares.length) return undefined;
  const largest = rated.reduce((a, b) => (b.cents > a.cents ? b : a));
  largest.cents += difference;
  return rated.filter((r) => r.cents > 0);
}

/**
 * Turns deductions into document deductions, each on the department of its own VAT rate.
 * Rejects with FISCAL_REJECTED (Notes naming the bill) a deduction whose rate the platform does
 * not give, and one larger than what the receipt carries at its rate.
 */
export function deductionsByRate(
  lines: readonly DocumentLine[],
  discounts: readonly DocumentDiscount[],
  requests: readonly DeductionRequest[],
  ctx: DeductionContext,
): DocumentDeduction[] {
  const carried = new Map<number, number>();
  for (const line of lines)
    carried.set(line.department, (carried.get(line.department) ?? 0) + line.totalCents);
  for (const d of discounts) carried.set(d.department, (carried.get(d.department) ?? 0) - d.cents);
  const out: DocumentDeduction[] = [];
  for (const request of requests) {
    const rated = perRate(request, ctx.rules);
    if (!rated) {
      throw new AgentError(
        'FISCAL_REJECTED',
        `Bill ${ctx.bill}: the ${what(request.kind)} "${request.description}" has no VAT rate the platform gives`,
        { notes: lawNotes.deductionRateUnknown(ctx.bill, what(request.kind)) },
      );
    }
    for (const { rate, cents } of rated) {
      const department = rateDepartment(rate, ctx.rules.departments);
      const left = department === undefined ? 0 : (carried.get(department) ?? 0);
      if (department === undefined || cents > left) {
        throw new AgentError(
          'FISCAL_REJECTED',
          `Bill ${ctx.bill}: the ${what(request.kind)} of ${cents} cents at VAT ${rate} % exceeds the ${left} cents the receipt carries at that rate`,
          { notes: lawNotes.deductionTooLarge(ctx.bill, what(request.kind), cents, ctx.currency, rate) },
        );
      }
      carried.set(department, left - cents);
      out.push({ kind: request.kind, description: request.description, cents, department, rate });
    }
  }
  return out;
}
