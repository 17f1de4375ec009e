import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesOf, EpsonFpmateOptionsSchema as Schema } from '../../../drivers/epson-fpmate/config.js';
import { buildFiscalDocument } from '../../../drivers/fiscal-it/build.js';
import { POINTS_DESCRIPTION, spread } from '../../../drivers/fiscal-it/loyalty.js';
import type { FiscalDocumentModel } from '../../../drivers/fiscal-it/model.js';
import { PaymentSchema, type WireOrderItem, type WirePayment } from '../../../src/connector/wire.js';
import { orderItem } from '../epson-fpmate/helpers.js';

/**
 * Loyalty points as a discount (issue 39 item 2, `drivers/fiscal-it/loyalty.ts`; sources: art. 13
 * c. 1 DPR 633/72, Ris. AdE 152/E — see the law suite's `loyalty-points.test.ts`): whatever the
 * bill, the receipt still totals it to the cent — the points are spread over the VAT-rate lines
 * exactly, never over a nature line, and the payments cover the rest. Seeded properties.
 */
const SEED = 0x10a1739;
const RUNS = 300;

function pay(id: string, type: string, cents: number): WirePayment {
  const [base, sub] = type.split(':') as [string, string | undefined];
  return PaymentSchema.parse({
    Id: id,
    Type: base,
    State: 'Charged',
    Amount: { Currency: 'EUR', GrossValue: -cents / 100, NetValue: -cents / 100 },
    Data: sub ? { Discriminator: 'External', External: { Type: sub } } : null,
  });
}

async function build(items: WireOrderItem[], payments: WirePayment[]): Promise<FiscalDocumentModel> {
  return buildFiscalDocument(
    {
      machineSettings: { value: {} },
      bill: { id: 'bill-7', number: '7' },
      document: { type: 'data', isRefund: false },
    },
    rulesOf(Schema.parse({ url: 'http://192.0.2.10' })),
    {
      platform: { orderItems: async () => items, payments: async () => payments },
      signal: new AbortController().signal,
      timeZone: 'Europe/Rome',
      now: Date.UTC(2026, 10, 21, 12),
    },
  );
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('spreading the points to the cent', () => {
  it('shares sum to the total, each within a cent of its exact proportion, none on a zero weight', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.integer({ min: 0, max: 500_000 }), { minLength: 1, maxLength: 6 }),
        (total, weights) => {
          const shares = spread(total, weights);
          const all = sum(weights);
          if (all === 0) return shares.every((s) => s === 0);
          return (
            sum(shares) === total &&
            shares.every((s, i) => Math.abs(s - (total * (weights[i] ?? 0)) / all) < 1) &&
            shares.every((s, i) => weights[i] !== 0 || s === 0)
          );
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('a bill paid partly with loyalty points still totals to the cent', () => {
  const rated = fc.record({
    cents: fc.integer({ min: 1_000, max: 200_000 }),
    rate: fc.constantFrom(22, 10, 5, 4),
  });

  it('lines less discounts is the total; the points are exactly the discounts, all on VAT-rate departments; the city tax keeps its amount', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rated, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 1_000 }),
        fc.double({ min: 0.0001, max: 1, noNaN: true }),
        async (lines, cityTax, share) => {
          const items = lines.map((l, i) => orderItem(`i${i}`, { unitGross: l.cents / 100, rate: l.rate }));
          if (cityTax > 0)
            items.push(orderItem('tax', { unitGross: cityTax / 100, rate: 0, type: 'CityTax' }));
          const ratedCents = sum(lines.map((l) => l.cents));
          const points = Math.max(1, Math.floor(ratedCents * share));
          const gross = ratedCents + cityTax;
          const model = await build(items, [
            pay('pts', 'ExternalPayment:LoyaltyPoints', points),
            pay('card', 'CreditCardPayment', gross - points),
          ]);
          const pointDiscounts = model.discounts.filter((d) => d.description === POINTS_DESCRIPTION);
          expect(sum(pointDiscounts.map((d) => d.cents))).toBe(points);
          expect(pointDiscounts.every((d) => d.rate !== undefined && d.nature === undefined)).toBe(true);
          for (const d of pointDiscounts) {
            const carried = sum(
              model.lines.filter((l) => l.department === d.department).map((l) => l.totalCents),
            );
            expect(d.cents).toBeLessThanOrEqual(carried);
          }
          expect(model.lines.find((l) => l.nature === 'N1')?.totalCents ?? 0).toBe(cityTax);
          const printed =
            sum(model.lines.map((l) => l.totalCents)) - sum(model.discounts.map((d) => d.cents));
          expect(printed).toBe(model.totalCents);
          expect(model.totalCents).toBe(gross - points);
          expect(sum(model.payments.map((p) => p.cents))).toBe(model.totalCents);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
