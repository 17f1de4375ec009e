import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  MAX_CENTS,
  parseCommaAmount,
  parseDecimalCents,
  settlePayments,
  toCents,
  toUnits,
  unitsToCents,
} from '../../../drivers/epson-fpmate/money.js';
import { AgentError } from '../../../src/errors.js';
import { english, messageRenderer } from '../../../src/messages/render.js';
import { thrownBy } from '../../helpers/rejection.js';

describe('amounts: dot in the XML, comma in answers, integer cents inside', () => {
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

  it('formats cents with a dot and two decimals', () => {
    expect([12345, 5, 100, 0, -500, 100000001].map(formatAmount)).toEqual([
      '123.45',
      '0.05',
      '1.00',
      '0.00',
      '-5.00',
      '1000000.01',
    ]);
  });

  it('parses response amounts with a decimal comma and refuses a dot or garbage', () => {
    expect(parseCommaAmount('123,45')).toBe(12345);
    expect(parseCommaAmount('7,5')).toBe(750);
    expect(parseCommaAmount('80')).toBe(8000);
    expect(parseCommaAmount('-1,00')).toBe(-100);
    expect(parseCommaAmount('123.45')).toBeUndefined();
    expect(parseCommaAmount('')).toBeUndefined();
    expect(parseCommaAmount(undefined)).toBeUndefined();
    expect(parseCommaAmount('99999999999,99')).toBeUndefined();
    expect(parseDecimalCents('4.50', ',.')).toBe(450);
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
    expect(formatAmount(MAX_CENTS)).toBe('9999999.99');
  });

  it('never formats something that is not an integer number of cents', () => {
    expect(() => formatAmount(1e21)).toThrow(AgentError);
    expect(() => formatAmount(0.5)).toThrow(AgentError);
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
