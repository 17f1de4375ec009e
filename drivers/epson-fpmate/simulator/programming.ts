/**
 * The simulated printer's programming and its day's totals.
 *
 * Departments: an RT's departments are programmed each with one VAT rate or one nature (EE, NS,
 * NI, ES, RM, AL for N1 … N6). The simulator is programmed as public drivers assume a printer is
 * (fiskaltrust `scu-it` `EpsonRTPrinter/Utilities/EpsonCommandFactory.cs`, `GetVatGroup` and
 * `GetVatInfo`): 1 = 22 %, 2 = 10 %, 3 = 4 %, 4 = 5 %, 10 = EE (N1), 11 = NS (N2), 12 = NI (N3),
 * 13 = ES (N4), 14 = RM (N5), 15 = AL (N6) — department numbers; the VAT group each department
 * record reports is `native-reads.ts`'s. A department it does not know prints without a VAT
 * class (as a printer with an unprogrammed department would misfile it), so a test can see it.
 *
 * Totals: what an X report shows and a Z report closes — per department (rate or nature), the
 * gross sales, refunds and voids, the deductions (deposits, vouchers), per payment type, and the
 * number of documents — plus the grand total over every Z.
 */

/**
 * A department's class; `group` is the VAT group its record reports (directIO 4202) when a test
 * programs it otherwise than `native-reads.ts` numbers groups (a printer the JavaPOS driver
 * programmed, a group no source explains).
 */
export type DepartmentClass = { rate: number; group?: number } | { nature: string; group?: number };

export const SIM_DEPARTMENTS: Readonly<Record<number, DepartmentClass>> = Object.freeze({
  1: { rate: 22 },
  2: { rate: 10 },
  3: { rate: 4 },
  4: { rate: 5 },
  10: { nature: 'N1' },
  11: { nature: 'N2' },
  12: { nature: 'N3' },
  13: { nature: 'N4' },
  14: { nature: 'N5' },
  15: { nature: 'N6' },
});

/** "22%", "N1" or "unprogrammed": the key of a department's class in totals. */
export function classKey(cls: DepartmentClass | undefined): string {
  if (!cls) return 'unprogrammed';
  return 'rate' in cls ? `${cls.rate}%` : cls.nature;
}

export interface DayTotals {
  /** Per class key: net effect of sale lines and adjustments (cents). */
  sales: Record<string, number>;
  refunds: Record<string, number>;
  /** Deposits (10), free of charge (11) and single-use vouchers (12) by adjustment type. */
  deductions: Record<string, number>;
  voids: number;
  /** Per "paymentType/index". */
  payments: Record<string, number>;
  documents: number;
}

export function emptyTotals(): DayTotals {
  return { sales: {}, refunds: {}, deductions: {}, voids: 0, payments: {}, documents: 0 };
}

export function add(map: Record<string, number>, key: string, cents: number): void {
  map[key] = (map[key] ?? 0) + cents;
}

/** Sum of a totals map. */
export function total(map: Record<string, number>): number {
  return Object.values(map).reduce((a, b) => a + b, 0);
}
