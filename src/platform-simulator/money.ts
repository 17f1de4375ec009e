/**
 * Money of the simulated property: EUR, Italian VAT (22, 10, 4 and 0 %). Every amount is kept in
 * integer cents and split so that gross = net + tax exactly, to the cent; the wire gets euros as
 * JSON numbers (93.46), like the platform.
 */

export const VAT_RATES = [22, 10, 4, 0] as const;
export type VatRate = (typeof VAT_RATES)[number];

/**
 * Tax rate codes the simulator puts on order items, per VAT rate. The platform's real Italian
 * codes come from `taxations/getAll`; these follow the pattern of the docs' samples
 * (`DE-2020-1-L`) and a scenario can replace them (`taxCodes:`). The rate can always be derived
 * from the amounts too (TaxValue / NetValue).
 */
export const DEFAULT_TAX_CODES: Readonly<Record<VatRate, string>> = {
  22: 'IT-2018-1-S',
  10: 'IT-2018-1-R',
  4: 'IT-2018-1-SR',
  0: 'IT-2018-1-Z',
};

/** Epson RT department per VAT rate, as most Italian installations configure them. */
/**
 * The departments of the common RT programming (fiskaltrust/middleware scu-it
 * `EpsonCommandFactory.GetVatGroup`): 22 %, 10 %, 4 % in 1–3 (4 is 5 % VAT); the simulator's 0 %
 * lines are the city tax, outside the VAT's field (nature N1), in department 10.
 */
export const DEFAULT_DEPARTMENTS: Readonly<Record<VatRate, number>> = { 22: 1, 10: 2, 4: 3, 0: 10 };

export interface SplitAmount {
  grossCents: number;
  netCents: number;
  taxCents: number;
  rate: VatRate;
}

/** Splits a gross amount (cents, may be negative) into net and tax; gross = net + tax exactly. */
export function splitGross(grossCents: number, rate: VatRate): SplitAmount {
  const sign = grossCents < 0 ? -1 : 1;
  const abs = Math.abs(grossCents);
  const net = Math.round((abs * 100) / (100 + rate));
  return { grossCents, netCents: sign * net, taxCents: sign * (abs - net), rate };
}

/** Cents to the platform's euro number (two decimals, no float noise). */
export function euros(cents: number): number {
  return Math.round(cents) / 100;
}

/** Cents to the fpmate XML notation: dot, two decimals, no sign (`1234` → `12.34`). */
export function xmlAmount(cents: number): string {
  const abs = Math.abs(Math.round(cents));
  return `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A `CurrencyValue` of the platform with its tax breakdown, as in the docs' order items. */
export interface WireAmount {
  Currency: string;
  NetValue: number;
  GrossValue: number;
  TaxValues: Array<{ Code: string | null; Value: number }>;
  Breakdown: { Items: Array<{ TaxRateCode: string | null; NetValue: number; TaxValue: number }> };
}

export function wireAmount(split: SplitAmount, taxCode: string | null): WireAmount {
  return {
    Currency: 'EUR',
    NetValue: euros(split.netCents),
    GrossValue: euros(split.grossCents),
    TaxValues: taxCode === null ? [] : [{ Code: taxCode, Value: euros(split.taxCents) }],
    Breakdown: {
      Items: [{ TaxRateCode: taxCode, NetValue: euros(split.netCents), TaxValue: euros(split.taxCents) }],
    },
  };
}
