import {
  OrderItemSchema,
  PaymentSchema,
  type WireOrderItem,
  type WirePayment,
} from '../../src/connector/wire.js';
import { wireOrderItem, wirePayment } from '../../src/platform-simulator/bill-wire.js';
import type { Ledger, SimBill } from '../../src/platform-simulator/bills.js';
import type { Rng } from '../../src/platform-simulator/rng.js';
import type { SimReservation } from '../../src/platform-simulator/world.js';

/**
 * What every RT family's fiscal suite (`test/drivers/<family>/fiscal-suite.test.ts`) takes from the
 * platform simulator: its bills — mixed VAT rates, the city tax, exempt items, tips, deposits,
 * vouchers, unpaid amounts — published as the agent reads them (`orderItems/getAll`,
 * `payments/getAll`), and the bill's own figures a printed document is held to.
 */

export const SUITE_ENTERPRISE = 'e0000000-0000-4000-8000-000000000001';
export const SUITE_START = Date.UTC(2026, 10, 21, 8, 0);

/** The n-th guest's stay, ending at `SUITE_START`. */
export function suiteReservation(n: number): SimReservation {
  return {
    id: `res-${n}`,
    number: `R${n}`,
    enterpriseId: SUITE_ENTERPRISE,
    guest: { lastName: 'Rossi', firstName: 'Maria', customerId: `cust-${n}` },
    rooms: [String(100 + n)],
    lockIds: [`lock-${n}`],
    startUtc: SUITE_START - 3 * 86_400_000,
    endUtc: SUITE_START,
    nights: 1 + (n % 4),
  } as SimReservation;
}

/**
 * A fiscal suite's n-th sale: a minute after the one before, varied (exempt items, tips, deposits,
 * vouchers, unpaid amounts), every fourth without a stay (a walk-in's bill).
 */
export function suiteSale(ledger: Ledger, rng: Rng, n: number): SimBill {
  const stay = n % 4 === 3 ? undefined : suiteReservation(n);
  return ledger.createSale(rng, SUITE_ENTERPRISE, SUITE_START + n * 60_000, stay, { variety: true });
}

/** The platform's bill as the driver's context serves it: `publish` replaces it. */
export function platformBill(ledger: Ledger) {
  const items: WireOrderItem[] = [];
  const payments: WirePayment[] = [];
  return {
    items,
    payments,
    publish(bill: SimBill): void {
      items.splice(
        0,
        items.length,
        ...bill.items.map((i) => OrderItemSchema.parse(wireOrderItem(i, ledger))),
      );
      payments.splice(0, payments.length, ...bill.payments.map((p) => PaymentSchema.parse(wirePayment(p))));
    },
  };
}

export const cents = (euro: number) => Math.round(euro * 100);

/** The VAT class of an order item as the bill states it: its nature (`N1` …), else its rate (`22%`). */
export function billClass(item: WireOrderItem): string {
  const exemption = /^IT_(N\d)/.exec(item.TaxExemptionReason ?? '');
  if (exemption) return exemption[1] as string;
  if (item.Type === 'CityTax') return 'N1';
  const net = item.Amount.NetValue ?? 0;
  const tax = (item.Amount.TaxValues ?? []).reduce((s, t) => s + t.Value, 0);
  return `${Math.round((tax / net) * 100)}%`;
}

/** Cents summed by key. */
export function breakdown<K extends string | number>(
  lines: Array<{ key: K; cents: number }>,
): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const l of lines) out[l.key] = (out[l.key] ?? 0) + l.cents;
  return out;
}

/** The bill's gross and the deposits already receipted that its receipt takes off, in cents. */
export function billFigures(items: readonly WireOrderItem[], payments: readonly WirePayment[]) {
  const gross = items.reduce((s, i) => s + cents(i.Amount.GrossValue ?? 0), 0);
  const deposits = payments
    .filter((p) => p.Data?.External?.Type?.startsWith('Deposit'))
    .reduce((s, p) => s - cents(p.Amount.GrossValue ?? 0), 0);
  return { gross, deposits };
}
