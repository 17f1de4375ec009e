import { AgentError } from '../../src/errors.js';
import { type AmountOwner, amountOutOfRange, ownerForLog } from './messages-refusals.js';

/**
 * Money, the driver's one rule set. The platform sends amounts as JSON numbers in euro; each is
 * turned, once and at the boundary, into an integer of **ten-thousandths of a euro** ("units":
 * 1 cent = 100 units), which keeps the half cents and quarter cents a platform may carry without
 * binary-float noise. From there on everything is integer arithmetic:
 *
 * - a receipt line is rounded **once**, to the cent, half away from zero — what the printer does
 *   with `quantity × unitPrice` — and the receipt's total is the sum of its rounded lines;
 * - each payment is rounded to the cent the same way;
 * - when the payments then miss the total by a rounding difference only (the bill balances
 *   exactly before rounding), the difference goes onto the largest payment (the first of equals),
 *   so the receipt always closes on the total the printer computes. Any other difference is a
 *   real one and the bill is refused.
 *
 * Every amount is range-checked: the printer's amount fields hold nine digits of cents
 * (fiskaltrust `scu-it` `Models/LastEmittedDocStatus.cs`: TOTAL DOC AMOUNT, 9 bytes), so no
 * amount, line or total may exceed 9,999,999.99.
 */

/** 9,999,999.99: the largest amount the printer's nine-digit fields can carry. */
export const MAX_CENTS = 999_999_999;
export const UNITS_PER_CENT = 100;
/** The largest quantity a line may carry (the printer takes up to three decimals). */
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

/** Integer cents to the XML form: dot decimal, two places ("123.45", "-5.00"). */
export function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new AgentError('INTERNAL', `not an amount in cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Integer cents to the human form used in Notes ("123.45"). */
export function formatEuro(cents: number): string {
  return formatAmount(cents);
}

/**
 * Parses an amount as printers write it: decimal comma ("123,45") in their answers; the simulator
 * also takes a dot. At most two decimals; undefined when malformed or beyond `MAX_CENTS`.
 */
export function parseDecimalCents(
  text: string | undefined,
  separators: ',' | ',.' = ',',
): number | undefined {
  if (text === undefined) return undefined;
  const pattern =
    separators === ',' ? /^\s*(-?)(\d{1,9})(?:,(\d{1,2}))?\s*$/ : /^\s*(-?)(\d{1,9})(?:[,.](\d{1,2}))?\s*$/;
  const m = pattern.exec(text);
  if (!m) return undefined;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '0').padEnd(2, '0'));
  if (cents > MAX_CENTS) return undefined;
  return m[1] === '-' && cents !== 0 ? -cents : cents;
}

/** Parses a response amount, which uses a decimal comma ("123,45"); undefined when malformed. */
export function parseCommaAmount(text: string | undefined): number | undefined {
  return parseDecimalCents(text, ',');
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
