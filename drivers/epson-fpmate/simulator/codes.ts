/**
 * The printer's own checks of the customer's codes (status 30 when they fail), written apart from
 * the driver's so that the two are tested against the public examples, not against each other:
 * the partita IVA's Luhn-style check digit (11 digits) and the codice fiscale's check letter
 * (odd and even position tables, modulo 26), both the Italian tax agency's published algorithms;
 * fiskaltrust `UnitTest/CustomerTaxIdDirectIOTests.cs` uses `01606720215` and `RSSMRA80A01H501U`.
 */

export function checkPartitaIva(text: string): boolean {
  if (!/^\d{11}$/.test(text)) return false;
  const digits = [...text].map(Number);
  const weighted = digits
    .slice(0, 10)
    .map((d, i) => (i % 2 === 1 ? ((d * 2) % 10) + Math.floor((d * 2) / 10) : d));
  const sum = weighted.reduce((a, b) => a + b, 0);
  return (10 - (sum % 10)) % 10 === digits[10] && sum > 0;
}

/** Values of characters in odd positions (1st, 3rd …), digits and letters alike by rank 0–9 / A–Z. */
const ODD_VALUES = [
  1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
];

function rank(c: string): number {
  const code = c.charCodeAt(0);
  return code <= 57 ? code - 48 : code - 65;
}

export function checkCodiceFiscale(text: string): boolean {
  if (!/^[A-Z0-9]{15}[A-Z]$/.test(text)) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const r = rank(text.charAt(i));
    sum += i % 2 === 0 ? (ODD_VALUES[r] as number) : r;
  }
  return text.charCodeAt(15) - 65 === sum % 26;
}

/** A lottery code: 8 letters and digits. */
export function checkLotteryCode(text: string): boolean {
  return /^[A-Z0-9]{8}$/.test(text);
}
