import { describe, expect, it } from 'vitest';
import {
  MAX_CENTS,
  settlePayments,
  toCents,
  toUnits,
  unitsToCents,
} from '../../../drivers/fiscal-it/money.js';
import { english, messageRenderer } from '../../../src/messages/render.js';
import { thrownBy } from '../../helpers/rejection.js';

describe('amounts: integer cents inside the fiscal core', () => {
  it('converts euro to cents without binary-float noise', () => {
    expect([0.1 + 0.2, 1.005, 19.99, 123.45, -3700, 0].map((e) => toCents(e))).toEqual([
      30, 101, 1999, 12345, -370000, 0,
    ]);
  });

  it('keeps half and quarter cents exactly until a line is rounded, half away from zero', () => {
    expect([0.005, 0.0025, -0.005, 12.345, 1e-5].map((e) => toUnits(e, { kind: 'line' }))).toEqual([
      50, 25, -50, 123450, 0,
    ]);
    expect([50, 49, -50, -49, 150].map(unitsToCents)).toEqual([1, 0, -1, 0, 2]);
  });
});

describe('amounts are range-checked (issue 13: 1e21 printed unitPrice="999999999999999900000.92")', () => {
  it.each([1e21, -1e21, 10_000_000, Number.NaN, Number.POSITIVE_INFINITY, '12' as unknown as number])(
    'refuses %s with FISCAL_REJECTED naming what it was',
    (amount) => {
      const error = thrownBy(() => toUnits(amount, { kind: 'item', name: 'Suite' }));
      expect(error.code).toBe('FISCAL_REJECTED');
      expect(english(error.notes)).toContain('The amount of the item "Suite"');
      expect(english(error.notes)).toContain('nothing was printed');
      expect(messageRenderer('it').render(error.notes)).toContain('L’importo dell’articolo "Suite"');
    },
  );

  it('takes the printer’s largest amount, 9,999,999.99', () => {
    expect(toCents(9_999_999.99)).toBe(MAX_CENTS);
    expect(thrownBy(() => toCents(10_000_000)).code).toBe('FISCAL_REJECTED');
  });
});

describe('payments close on the printer’s total', () => {
  it('leaves payments that already match alone', () => {
    expect(settlePayments([1000, 500], 1500, false)).toEqual([1000, 500]);
  });

  it('puts a rounding difference onto the largest payment when the bill balances exactly', () => {
    expect(settlePayments([1000, 2001], 3002, true)).toEqual([1000, 2002]);
    expect(settlePayments([1500, 1500], 2999, true)).toEqual([1499, 1500]);
  });

  it('refuses a real difference, and a difference with nothing to put it on', () => {
    expect(settlePayments([1000], 1001, false)).toBeUndefined();
    expect(settlePayments([], 100, true)).toBeUndefined();
    expect(settlePayments([1], 0, true)).toBeUndefined();
  });
});
