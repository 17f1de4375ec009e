import type { VatRate } from './money.js';
import type { Rng } from './rng.js';

/**
 * What the simulated hotel sells besides the room: Italian descriptions (they end up on
 * receipts), at 22, 10 and 4 % VAT, prices on a 10-cent grid.
 */

export interface CatalogEntry {
  description: string;
  type: 'ProductOrder';
  revenueType: 'Product';
  rate: VatRate;
  minCents: number;
  maxCents: number;
  category: string;
}

export const CATALOG: readonly CatalogEntry[] = [
  {
    description: 'Colazione',
    type: 'ProductOrder',
    revenueType: 'Product',
    rate: 10,
    minCents: 1200,
    maxCents: 1800,
    category: 'food',
  },
  {
    description: 'Minibar',
    type: 'ProductOrder',
    revenueType: 'Product',
    rate: 22,
    minCents: 350,
    maxCents: 900,
    category: 'minibar',
  },
  {
    description: 'Quotidiano',
    type: 'ProductOrder',
    revenueType: 'Product',
    rate: 4,
    minCents: 150,
    maxCents: 300,
    category: 'press',
  },
  {
    description: 'Ingresso spa',
    type: 'ProductOrder',
    revenueType: 'Product',
    rate: 22,
    minCents: 2500,
    maxCents: 4500,
    category: 'spa',
  },
  {
    description: 'Parcheggio',
    type: 'ProductOrder',
    revenueType: 'Product',
    rate: 22,
    minCents: 1500,
    maxCents: 2500,
    category: 'parking',
  },
];

/** Rounds to whole 10 cents: prices on a hotel's list look like 14.50, not 14.37. */
export function price(rng: Rng, min: number, max: number): number {
  return Math.round(rng.int(min, max) / 10) * 10;
}

/**
 * Lines without VAT an Italian hotel's bill may carry besides the city tax, each with the
 * platform's `TaxExemptionReason` (MewsSystems/open-api-docs `orderitems.md`): a museum ticket
 * sold at the desk (exempt, art. 10: N4) and a tip (not subject to VAT: N2.2; fiskaltrust prints
 * tips in its non-subject department).
 */
export interface FiscalExtra {
  description: string;
  exemption: 'IT_N4' | 'IT_N2_2';
  minCents: number;
  maxCents: number;
  category: string;
  /** How often a varied bill carries it. */
  chance: number;
}

export const FISCAL_EXTRAS: readonly FiscalExtra[] = [
  {
    description: 'Biglietto museo',
    exemption: 'IT_N4',
    minCents: 800,
    maxCents: 1500,
    category: 'tickets',
    chance: 0.35,
  },
  {
    description: 'Mancia',
    exemption: 'IT_N2_2',
    minCents: 200,
    maxCents: 1000,
    category: 'tips',
    chance: 0.3,
  },
];
