import { CustomRefusal, ST } from './types.js';

/**
 * Attribute readers with the manual's ranges. Money is an integer with no decimal or thousands
 * separator, 0.00–9 999 999.99 (XML p.89 and every price field): integer cents, the only reading
 * under which the manual's example adds up (p.119: 350 + 450 + 50 paid 600 + 400). A value
 * that is not digits is an invalid value (3); a price out of range is a wrong amount (11).
 */

export const MAX_CENTS = 999_999_999;
/** 65 535.99 units in thousandths: error 118 above it (XML-SG, research §2.2). */
export const MAX_QUANTITY_MILLI = 65_535_990;

export function digits(value: string | undefined, min: number, max: number, status: number = ST.invalid) {
  if (value === undefined || !/^\d{1,10}$/.test(value.trim())) throw new CustomRefusal(ST.invalid);
  const n = Number(value.trim());
  if (n < min || n > max) throw new CustomRefusal(status);
  return n;
}

export function optionalDigits(value: string | undefined, min: number, max: number, status?: number) {
  return value === undefined || value.trim() === '' ? undefined : digits(value, min, max, status);
}

export function cents(value: string | undefined): number {
  return digits(value, 0, MAX_CENTS, ST.wrongAmount);
}

/** Descriptions longer than the field are truncated, not refused (XML p.89). */
export function description(value: string | undefined, max = 22): string {
  return (value ?? '').slice(0, max);
}

/** A DDMMYY date that exists (docDate, XML pp.36–39). */
export function ddmmyy(value: string | undefined): string {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(value ?? '');
  if (!m) throw new CustomRefusal(ST.invalid);
  const [day, month, year] = [Number(m[1]), Number(m[2]), 2000 + Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCDate() !== day || d.getUTCMonth() !== month - 1) throw new CustomRefusal(ST.invalid);
  return value as string;
}

/** `IdCmd`: at most 36 alphanumeric bytes (XML p.25). */
export function idCmdOf(attrs: Record<string, string>): string | undefined {
  const id = attrs.IdCmd;
  if (id === undefined) return undefined;
  if (!/^[A-Za-z0-9]{1,36}$/.test(id)) throw new CustomRefusal(ST.invalid);
  return id;
}
