/**
 * The printer's own check of the customer's code printed with `fixedLines pitch="B"` (XML p.55):
 * 3rd and 5th generation devices check the codice fiscale or partita IVA at once and, when it is
 * invalid, print the commercial document *without* the customer data and without an error (DIO
 * 3010 note, p.124). The checks are the tax agency's published algorithms: the partita IVA's
 * Luhn-style 11th digit and the codice fiscale's check letter (odd/even tables, modulo 26).
 */

export function validPartitaIva(text: string): boolean {
  if (!/^\d{11}$/.test(text) || /^0{11}$/.test(text)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const d = Number(text[i]);
    sum += i % 2 === 0 ? d : d * 2 > 9 ? d * 2 - 9 : d * 2;
  }
  return (10 - (sum % 10)) % 10 === Number(text[10]);
}

/** Odd-position values for 0–9 then A–Z (the agency's table). */
const ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

export function validCodiceFiscale(text: string): boolean {
  if (!/^[A-Z0-9]{15}[A-Z]$/.test(text)) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = text.charCodeAt(i);
    const rank = c <= 57 ? c - 48 : c - 65;
    sum += i % 2 === 0 ? (ODD[rank] ?? 0) : rank;
  }
  return text.charCodeAt(15) - 65 === sum % 26;
}

/** The code as the printer keeps it, or undefined when it would be dropped silently. */
export function customerCode(description: string): string | undefined {
  const code = description.trim().toUpperCase();
  return validCodiceFiscale(code) || validPartitaIva(code) ? code : undefined;
}
