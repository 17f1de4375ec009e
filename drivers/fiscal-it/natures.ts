/**
 * VAT rates and natures, and the printer departments they print in.
 *
 * An Italian RT prints every sale line in a *department* (reparto) programmed with one VAT rate,
 * or — for lines without VAT — with one *nature* (natura) of the tax agency's list:
 *
 * | nature | on the receipt | meaning                                              | example        |
 * |--------|----------------|------------------------------------------------------|----------------|
 * | N1     | EE             | escluse ex art. 15 (outside the scope of VAT)         | city tax       |
 * | N2     | NS             | non soggette (N2.1, N2.2)                            | tips           |
 * | N3     | NI             | non imponibili (N3.1 … N3.6)                         | exports        |
 * | N4     | ES             | esenti (art. 10)                                     | museum tickets |
 * | N5     | RM             | regime del margine                                   | second-hand    |
 * | N6     | AL             | other operations without VAT                         |                |
 *
 * The default table is the programming public drivers assume (fiskaltrust `scu-it`
 * `EpsonRTPrinter/Utilities/EpsonCommandFactory.cs` `GetVatGroup`/`GetVatInfo`): departments 1–4
 * carry 22, 10, 4 and 5 % VAT, departments 10–15 the natures EE, NS, NI, ES, RM, AL; fiskaltrust
 * prints tips and multi-use vouchers in department 11 (NS). The platform names natures with
 * `TaxExemptionReason` on order items (`IT_N1`, `IT_N2_1`, `IT_N2_2`, `IT_N3_4`, `IT_N3_5`,
 * `IT_N4`, `IT_N5`: MewsSystems/open-api-docs `connector-api/operations/orderitems.md`).
 */

/** A nature, with its sub-nature when there is one: `N1`, `N2.2`, `N3.5`. */
export type Nature = string;

export const NATURE_PATTERN = /^N[1-6](\.[1-6])?$/;

/** Department per VAT rate (percent) or nature, as public drivers expect a printer programmed. */
export const DEFAULT_DEPARTMENTS: Readonly<Record<string, number>> = Object.freeze({
  '22': 1,
  '10': 2,
  '4': 3,
  '5': 4,
  N1: 10,
  N2: 11,
  N3: 12,
  N4: 13,
  N5: 14,
  N6: 15,
});

/**
 * Natures of order items by their type or accounting category when the item itself names none:
 * the city tax (imposta di soggiorno) is outside the scope of VAT (N1).
 */
export const DEFAULT_ITEM_NATURES: Readonly<Record<string, Nature>> = Object.freeze({
  CityTax: 'N1',
  CityTaxDiscount: 'N1',
});

/** The nature a platform `TaxExemptionReason` names (`IT_N2_2` → `N2.2`); undefined otherwise. */
export function natureOfExemption(reason: string | undefined | null): Nature | undefined {
  const m = /^IT_N([1-6])(?:_([1-6]))?$/.exec(reason?.trim() ?? '');
  if (!m) return undefined;
  return m[2] ? `N${m[1]}.${m[2]}` : `N${m[1]}`;
}

/** `N2.2` → `N2`; a top-level nature is its own parent. */
export function parentNature(nature: Nature): Nature {
  return nature.split('.')[0] as Nature;
}

/** The department of a nature: the sub-nature's own entry, else its parent's. */
export function natureDepartment(
  nature: Nature,
  departments: Readonly<Record<string, number>>,
): number | undefined {
  return departments[nature] ?? departments[parentNature(nature)];
}

/** The department of a VAT rate (percent), matching keys numerically ("5" and "5.0"). */
export function rateDepartment(
  rate: number,
  departments: Readonly<Record<string, number>>,
): number | undefined {
  for (const [key, department] of Object.entries(departments)) {
    if (!NATURE_PATTERN.test(key) && Number(key) === rate) return department;
  }
  return undefined;
}

/** The VAT rates (percent) the table knows, for deriving a line's rate from its amounts. */
export function tableRates(departments: Readonly<Record<string, number>>): number[] {
  return Object.keys(departments)
    .filter((key) => !NATURE_PATTERN.test(key))
    .map(Number)
    .filter((rate) => Number.isFinite(rate));
}

/** The rate a tax code names at its end (`AT-2020-21%` → 21), as the platform's codes read. */
export function rateOfTaxCode(code: string): number | undefined {
  const m = /(\d{1,2}(?:[.,]\d{1,2})?)\s*%$/.exec(code.trim());
  return m ? Number((m[1] as string).replace(',', '.')) : undefined;
}
