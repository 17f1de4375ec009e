import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { lawNotes } from './messages.js';

/**
 * The customer's code on a receipt ("scontrino parlante"): with the buyer's codice fiscale or
 * partita IVA the commercial document has fiscal value — deductions, a deferred invoice (DM 7
 * December 2016, GU 303/2016). Read from the command's `TaxIdentifier`, normalised (spaces
 * dropped, upper case) and told apart by form, each form checked with its published algorithm
 * (fiskaltrust `scu-it` `Abstraction/Validation/ItalyValidationHelpers.cs`):
 *
 * - **partita IVA** (DPR 605/1973): 11 digits, an `IT` prefix dropped; the Luhn-like check digit;
 *   all zeros is a placeholder, not a number. A company's codice fiscale has the same form.
 * - **codice fiscale** (DM 23/12/1976): 16 characters; the check letter from the odd and even
 *   position tables, omocodia letters allowed in the digit positions.
 *
 * An **Italian-shaped** code (16 characters, or 11 digits with an optional `IT`) whose check
 * fails is refused before anything prints (`invalidTaxId: refuse`, the printer would refuse it
 * with status 30 "CHECKSUM ERRATO", fiskaltrust `Models/ErrorInfoFactory.cs`), or printed without
 * it (`print-without`) with a Notes sentence. **Anything else** — a foreign VAT number
 * (`DE123456789`, `ESB12345678`) — is no Italian code: no text allows it on a commercial document
 * and the printer checks the Italian algorithms, so the receipt prints without it and Notes say a
 * foreign business needs an invoice (fiscal-law research §2; fiskaltrust refuses the whole receipt
 * instead, `CustomerTaxIdValidation.cs`, a choice no law asks for).
 */

export type CustomerCode = { kind: 'partita-iva' | 'codice-fiscale'; id: string };

const ODD: Record<string, number> = {
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

function evenValue(c: string): number {
  return /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65;
}

/** A codice fiscale's check letter (the 16th) is right; `cf` is upper case. */
export function isValidCodiceFiscale(cf: string): boolean {
  if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(cf))
    return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = cf.charAt(i);
    sum += i % 2 === 0 ? (ODD[c] as number) : evenValue(c);
  }
  return String.fromCharCode(65 + (sum % 26)) === cf.charAt(15);
}

/** A partita IVA's check digit (the 11th) is right. */
export function isValidPartitaIva(piva: string): boolean {
  if (!/^\d{11}$/.test(piva) || /^0{11}$/.test(piva)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const d = Number(piva.charAt(i));
    if (i % 2 === 0) sum += d;
    else sum += d * 2 > 9 ? d * 2 - 9 : d * 2;
  }
  return (10 - (sum % 10)) % 10 === Number(piva.charAt(10));
}

export interface CustomerCodeRules {
  /** Print the customer's code at all. */
  customerTaxId: boolean;
  /** An Italian-shaped code failing its check: refuse the command, or print without the code. */
  invalidTaxId: 'refuse' | 'print-without';
}

/** What becomes of the command's `TaxIdentifier`: the code to print, and a sentence for Notes. */
export interface CustomerCodeDecision {
  customer?: CustomerCode;
  notes?: Message;
}

/**
 * The code to print for `taxIdentifier`. Rejects with COMMAND_INVALID — before anything is
 * printed — an Italian-shaped code failing its check when `invalidTaxId` is `refuse`; any other
 * code that is not one to print comes back with a sentence for the Notes instead.
 */
export function customerCode(
  taxIdentifier: string | undefined,
  rules: CustomerCodeRules,
): CustomerCodeDecision {
  if (!rules.customerTaxId) return {};
  const raw = taxIdentifier?.replace(/\s+/g, '').toUpperCase() ?? '';
  if (!raw) return {};
  const piva = raw.replace(/^IT(?=\d{11}$)/, '');
  const italian = /^\d{11}$/.test(piva)
    ? { kind: 'partita-iva' as const, id: piva, valid: isValidPartitaIva(piva) }
    : raw.length === 16
      ? { kind: 'codice-fiscale' as const, id: raw, valid: isValidCodiceFiscale(raw) }
      : undefined;
  if (!italian) return { notes: lawNotes.foreignTaxIdLeftOff() };
  if (italian.valid) return { customer: { kind: italian.kind, id: italian.id } };
  if (rules.invalidTaxId === 'print-without') return { notes: lawNotes.taxIdLeftOff() };
  throw new AgentError('COMMAND_INVALID', `TaxIdentifier: ${italian.kind} check character`, {
    notes: lawNotes.badTaxIdentifier(),
  });
}
