import { describe, expect, it } from 'vitest';
import { splitGross, VAT_RATES, wireAmount, xmlAmount } from '../../src/platform-simulator/money.js';

describe('money', () => {
  it('splits every gross amount so that gross = net + tax exactly, for every rate and sign', () => {
    for (const rate of VAT_RATES) {
      for (let gross = -5000; gross <= 5000; gross += 7) {
        const split = splitGross(gross, rate);
        expect(split.netCents + split.taxCents).toBe(gross);
        expect(Number.isInteger(split.netCents) && Number.isInteger(split.taxCents)).toBe(true);
        if (gross !== 0)
          expect(Math.abs(split.taxCents - (split.netCents * rate) / 100)).toBeLessThanOrEqual(
            0.5 + rate / 100,
          );
      }
    }
    expect(splitGross(12200, 22)).toEqual({ grossCents: 12200, netCents: 10000, taxCents: 2200, rate: 22 });
    expect(splitGross(-1100, 10)).toEqual({ grossCents: -1100, netCents: -1000, taxCents: -100, rate: 10 });
  });

  it('writes fpmate amounts with a dot and two decimals', () => {
    expect(xmlAmount(0)).toBe('0.00');
    expect(xmlAmount(5)).toBe('0.05');
    expect(xmlAmount(12345)).toBe('123.45');
    expect(xmlAmount(-250)).toBe('2.50');
  });

  it('renders a platform amount with its tax breakdown; no tax code means no TaxValues', () => {
    expect(wireAmount(splitGross(10000, 22), 'IT-2018-1-S')).toEqual({
      Currency: 'EUR',
      NetValue: 81.97,
      GrossValue: 100,
      TaxValues: [{ Code: 'IT-2018-1-S', Value: 18.03 }],
      Breakdown: { Items: [{ TaxRateCode: 'IT-2018-1-S', NetValue: 81.97, TaxValue: 18.03 }] },
    });
    expect(wireAmount(splitGross(-300, 0), null).TaxValues).toEqual([]);
  });
});
