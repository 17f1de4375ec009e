import type { Rng } from './rng.js';

/**
 * Valid Italian customer tax codes for the simulator's bills: a partita IVA (11 digits, the last
 * a Luhn-style check digit) and a codice fiscale (16 characters, the last a check letter), so
 * the agent's validation and the RT's (status 30 on a bad check character) accept them. The
 * check rules are the Agenzia delle Entrate's, as the public drivers' test data shows
 * (fiskaltrust/middleware: scu-it tests use `01606720215` and `RSSMRA80A01H501U`).
 */

/** The check digit of the first ten digits of a partita IVA. */
export function partitaIvaCheckDigit(first10: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const d = Number(first10[i]);
    if (i % 2 === 0) sum += d;
    else sum += d * 2 > 9 ? d * 2 - 9 : d * 2;
  }
  return (10 - (sum % 10)) % 10;
}

const ODD_VALUES: Readonly<Record<string, number>> = {
  '0': 1,
  '1': 0,
  '2': 5,
  '3': 7,
  '4': 9,
  '5': 13,
  '6': 15,
  '7': 17,
  '8': 19,
  '9': 21,
  A: 1,
  B: 0,
  C: 5,
  D: 7,
  E: 9,
  F: 13,
  G: 15,
  H: 17,
  I: 19,
  J: 21,
  K: 2,
  L: 4,
  M: 18,
  N: 20,
  O: 11,
  P: 3,
  Q: 6,
  R: 8,
  S: 12,
  T: 14,
  U: 16,
  V: 10,
  W: 22,
  X: 25,
  Y: 24,
  Z: 23,
};

/** The check letter of the first fifteen characters of a codice fiscale. */
export function codiceFiscaleCheckLetter(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = first15[i] as string;
    // Positions are counted from 1: the odd ones (index 0, 2 …) use the odd table.
    if (i % 2 === 0) sum += ODD_VALUES[c] ?? 0;
    else sum += c >= '0' && c <= '9' ? Number(c) : c.charCodeAt(0) - 65;
  }
  return String.fromCharCode(65 + (sum % 26));
}

const CONSONANTS = 'BCDFGHJKLMNPQRSTVWXZ';
const MONTHS = 'ABCDEHLMPRST';
/** Codici catastali of a few comuni (Rome, Milan, Turin, Naples, Florence, Venice). */
const COMUNI = ['H501', 'F205', 'L219', 'F839', 'D612', 'L736'];

export function partitaIva(rng: Rng): string {
  let first10 = '';
  for (let i = 0; i < 7; i++) first10 += String(rng.int(0, 9));
  first10 += String(rng.int(1, 100)).padStart(3, '0'); // the provincial office code
  return first10 + String(partitaIvaCheckDigit(first10));
}

export function codiceFiscale(rng: Rng): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += rng.pick([...CONSONANTS]);
  code += String(rng.int(40, 99));
  code += rng.pick([...MONTHS]);
  code += String(rng.int(1, 28) + (rng.chance(0.5) ? 40 : 0)).padStart(2, '0');
  code += rng.pick(COMUNI);
  return code + codiceFiscaleCheckLetter(code);
}

/**
 * The `TaxIdentifier` a fiscal command carries for its bill: the customer's code when the guest
 * or company asked for it on the receipt (about one bill in four: a partita IVA for a company,
 * a codice fiscale for a person), none otherwise. Drawn from the bill's own stream.
 */
export function customerTaxIdentifier(rng: Rng): string | undefined {
  if (!rng.chance(0.25)) return undefined;
  return rng.chance(0.4) ? partitaIva(rng) : codiceFiscale(rng);
}
