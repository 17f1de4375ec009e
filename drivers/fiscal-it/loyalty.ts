import { AgentError } from '../../src/errors.js';
import { quantityText } from './lines.js';
import { lawNotes } from './messages.js';
import type { DocumentDeduction, DocumentDiscount, DocumentLine } from './model.js';

/**
 * Loyalty points (issue 39 item 2). Points the hotel itself funds are an unconditional discount:
 * the guest owes less, so the taxable amount is the price less the points — the VAT base is the
 * consideration due under the contract (art. 13 c. 1 DPR 633/72), and a discount granted on each
 * purchase by agreement is "incondizionato" and must show on the receipt of that sale, lowering
 * its base (Ris. AdE 152/E, 11 June, as FiscoOggi reports it: "Sconto incondizionato per abbonati.
 * Va indicato nello scontrino fiscale"); the project's own law suite says the same of hotel-funded
 * points (`test/fiscal-law/deposits-payments-refunds.test.ts`, [AdE341]). €50 of points on a €200
 * room at 10 %: VAT on €150, €13.64, not €18.18.
 *
 * Points a third party funds (a partner's programme that pays the hotel for each point redeemed)
 * are not a discount: the hotel receives the whole price, part of it from the third party, and
 * amounts due from others that are directly connected with the price belong to the base (art. 13
 * c. 1: "aumentato delle integrazioni direttamente connesse con i corrispettivi dovuti da altri
 * soggetti"); such a property sets `loyaltyPoints: payment` and the points print as a payment
 * (sconto a pagare). Which one applies is the accountant's to say (README.md, "Loyalty points").
 *
 * As a discount, the points are spread over the receipt's **VAT-rate** lines in proportion to what
 * each department still carries after its discounts and deductions (a deposit deducted at its own
 * rate: deductions.ts), to the cent by largest remainders; never over a nature line — the city tax
 * (N1, excluded art. 15) is the municipality's, not a price the hotel can discount. A refund takes
 * the points off its refunded lines the same way (it refunds what was paid). Points larger than
 * what the receipt carries at a VAT rate refuse the bill, before anything prints.
 */

/** The platform's loyalty payment types (MewsSystems open-api-docs external payment types). */
export const LOYALTY_KEYS: ReadonlySet<string> = new Set([
  'ExternalPayment:LoyaltyPoints',
  'ExternalPayment:LoyaltyCard',
  'ExternalPayment:PosDiningAndSpaReward',
]);

export const LOYALTY_TREATMENTS = ['discount', 'payment'] as const;
export type LoyaltyTreatment = (typeof LOYALTY_TREATMENTS)[number];

/** What the discount prints as. */
export const POINTS_DESCRIPTION = 'SCONTO PUNTI FEDELTA';

/**
 * Whether a payment the built-in map picked by `key` is points that lower the price: a loyalty
 * key the configuration does not map itself, with `loyaltyPoints: discount`.
 */
export function isPointsDiscount(
  key: string,
  configured: Readonly<Record<string, unknown>>,
  treatment: LoyaltyTreatment,
): boolean {
  return treatment === 'discount' && LOYALTY_KEYS.has(key) && configured[key] === undefined;
}

/**
 * `total` split over `weights` (non-negative) in proportion, to the cent: each share rounded down,
 * the cents left over to the largest remainders (the first of equals). The shares sum to `total`.
 */
export function spread(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map(() => 0);
  const shares = weights.map((w) => Math.floor((total * w) / sum));
  const order = weights
    .map((w, i) => ({ i, rest: (total * w) % sum }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  let left = total - shares.reduce((a, b) => a + b, 0);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i] = (shares[i] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

export interface PointsContext {
  /** The bill's number (or id) for the Notes. */
  bill: string;
  currency: string;
}

function tooLarge(cents: number, carried: number, ctx: PointsContext): AgentError {
  return new AgentError(
    'FISCAL_REJECTED',
    `Bill ${ctx.bill}: ${cents} cents of loyalty points exceed the ${carried} cents it carries at a VAT rate`,
    { notes: lawNotes.pointsTooLarge(ctx.bill, cents, ctx.currency) },
  );
}

/**
 * A sale's points as discounts on the departments of its VAT-rate lines, in proportion to what
 * each department still carries after `discounts` and `deductions`. Rejects (FISCAL_REJECTED)
 * points above what the receipt carries at a VAT rate.
 */
export function pointsDiscounts(
  lines: readonly DocumentLine[],
  discounts: readonly DocumentDiscount[],
  deductions: readonly DocumentDeduction[],
  cents: number,
  ctx: PointsContext,
): DocumentDiscount[] {
  const carried = new Map<number, { cents: number; rate: number }>();
  for (const line of lines) {
    if (line.rate === undefined || line.nature !== undefined) continue;
    const entry = carried.get(line.department) ?? { cents: 0, rate: line.rate };
    entry.cents += line.totalCents;
    carried.set(line.department, entry);
  }
  for (const taken of [...discounts, ...deductions]) {
    const entry = carried.get(taken.department);
    if (entry) entry.cents -= taken.cents;
  }
  const departments = [...carried.entries()].filter(([, e]) => e.cents > 0);
  const available = departments.reduce((s, [, e]) => s + e.cents, 0);
  if (cents > available) throw tooLarge(cents, available, ctx);
  const shares = spread(
    cents,
    departments.map(([, e]) => e.cents),
  );
  return departments
    .map(([department, e], i) => ({
      description: POINTS_DESCRIPTION,
      cents: shares[i] ?? 0,
      department,
      rate: e.rate,
    }))
    .filter((d) => d.cents > 0);
}

/**
 * A refund's points taken off its VAT-rate lines in proportion to their amounts: a line that loses
 * part of its amount prints as one line of its new total (its quantity in the description), a line
 * that loses all of it is left out. Rejects points above the refunded VAT-rate lines.
 */
export function pointsOffRefundLines(
  lines: readonly DocumentLine[],
  cents: number,
  ctx: PointsContext,
): DocumentLine[] {
  const rated = lines.map((l) => (l.rate !== undefined && l.nature === undefined ? l.totalCents : 0));
  const available = rated.reduce((a, b) => a + b, 0);
  if (cents > available) throw tooLarge(cents, available, ctx);
  const shares = spread(cents, rated);
  return lines
    .map((line, i) => {
      const by = shares[i] ?? 0;
      if (by === 0) return line;
      const total = line.totalCents - by;
      const description =
        line.quantity === 1 ? line.description : `${quantityText(line.quantity)} x ${line.description}`;
      return { ...line, description, quantity: 1, unitCents: total, totalCents: total };
    })
    .filter((line) => line.totalCents > 0);
}
