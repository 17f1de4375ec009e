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
