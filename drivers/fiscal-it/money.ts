import { AgentError } from '../../src/errors.js';
import { type AmountOwner, amountOutOfRange, ownerForLog } from './messages.js';

/**
 * Money, the fiscal core's one rule set. The platform sends amounts as JSON numbers in euro; each
 * is turned, once and at the boundary, into an integer of **ten-thousandths of a euro** ("units":
 * 1 cent = 100 units), which keeps the half cents and quarter cents a platform may carry without
 * binary-float noise. From there on everything is integer arithmetic:
 *
 * - a receipt line is rounded **once**, to the cent, half away from zero — what an RT does with
 *   `quantity × unitPrice` — and the receipt's total is the sum of its rounded lines;
 * - each payment is rounded to the cent the same way;
 * - when the payments then miss the total by a rounding difference only (the bill balances
 *   exactly before rounding), the difference goes onto the largest payment (the first of equals),
 *   so the document always closes on the total the printer computes. Any other difference is a
 *   real one and the bill is refused.
 *
 * Every amount is range-checked: an RT's amount fields hold nine digits of cents (the Epson
 * last-document record, fiskaltrust `scu-it` `Models/LastEmittedDocStatus.cs`: TOTAL DOC AMOUNT,
 * 9 bytes), so no amount, line or total may exceed 9,999,999.99. A family whose printer takes
 * less checks its own limit when it renders.
 */

/** 9,999,999.99: the largest amount nine-digit fields can carry. */
export const MAX_CENTS = 999_999_999;
export const UNITS_PER_CENT = 100;
/** The largest quantity a line may carry (RTs take up to three decimals). */
export const MAX_QUANTITY = 99_999;

function outOfRange(owner: AmountOwner, shown: string): AgentError {
  return new AgentError('FISCAL_REJECTED', `Amount of ${ownerForLog(owner)} out of range (${shown})`, {
    notes: amountOutOfRange(owner, shown),
  });
}

/**
 * A platform amount in euro as integer units (1/10,000 euro). Rejects with FISCAL_REJECTED, naming
 * `what`, an amount that is not a finite number or exceeds ±9,999,999.99.
 */
export function toUnits(euro: unknown, what: AmountOwner): number {
  if (typeof euro !== 'number' || !Number.isFinite(euro)) throw outOfRange(what, String(euro));
  const units = Math.round(euro * 10_000);
  if (Math.abs(units) > MAX_CENTS * UNITS_PER_CENT) throw outOfRange(what, String(euro));
  return units === 0 ? 0 : units;
}

/** Units to cents, rounded half away from zero (the printer's rounding). */
export function unitsToCents(units: number): number {
  const cents = Math.sign(units) * Math.round(Math.abs(units) / UNITS_PER_CENT);
  return cents === 0 ? 0 : cents;
}

/** A euro amount straight to cents, range-checked (see `toUnits`). */
export function toCents(euro: unknown, what: AmountOwner = { kind: 'line' }): number {
  return unitsToCents(toUnits(euro, what));
}

/** `quantity × unitCents` rounded half up, as an RT computes a line (quantity in 1/1000). */
export function lineCents(quantityMilli: number, unitCents: number): number {
  return Math.floor((quantityMilli * unitCents + 500) / 1000);
}

/** Integer cents as the log and English error messages show them: "123.45", "-5.00". */
export function centsText(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new AgentError('INTERNAL', `not an amount in cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Makes the payments close on `totalCents`: unchanged when they already do; when they miss it by
 * a rounding difference only (`balancedExactly`), the difference goes onto the largest payment.
 * Returns undefined when the difference is real (the caller refuses the bill).
 */
export function settlePayments(
  payments: readonly number[],
  totalCents: number,
  balancedExactly: boolean,
): number[] | undefined {
  const paid = payments.reduce((a, b) => a + b, 0);
  if (paid === totalCents) return [...payments];
  if (!balancedExactly || payments.length === 0) return undefined;
  let largest = 0;
  payments.forEach((p, i) => {
    if (p > (payments[largest] ?? 0)) largest = i;
  });
  const adjusted = [...payments];
  adjusted[largest] = (adjusted[largest] ?? 0) + totalCents - paid;
  return (adjusted[largest] ?? 0) > 0 ? adjusted : undefined;
}
