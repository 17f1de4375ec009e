import { describe, expect, it } from 'vitest';
import { formatAmount, parseCommaAmount } from '../../../drivers/epson-fpmate/money.js';
import { MAX_CENTS } from '../../../drivers/fiscal-it/money.js';
import { AgentError } from '../../../src/errors.js';

/**
 * Amounts in Fiscal ePOS-Print XML carry a decimal comma, as Epson's own input samples write them
 * (EpsonFpSuite 2.2.0 `Italy/TxtExamples/ScoDocCommPayCash.txt`: `21,61`, `5,50`) and as
 * fiskaltrust/middleware scu-it `Utilities/EpsonFormatters.cs` (`NumberDecimalSeparator = ","`)
 * sends them; the printer's answers use one too (OCA/l10n-italy fiscal_epos_print
 * `epson_epos_print.js` parses `fiscalReceiptAmount` with `replace(",", ".")`).
 */
describe('amounts in the fpmate XML: a decimal comma both ways', () => {
  it('formats cents with a comma and two decimals', () => {
    expect([12345, 5, 100, 0, -500, 100000001].map(formatAmount)).toEqual([
      '123,45',
      '0,05',
      '1,00',
      '0,00',
      '-5,00',
      '1000000,01',
    ]);
    expect(formatAmount(MAX_CENTS)).toBe('9999999,99');
  });

  it('parses answer amounts with a decimal comma and refuses a dot or garbage', () => {
    expect(parseCommaAmount('123,45')).toBe(12345);
    expect(parseCommaAmount('7,5')).toBe(750);
    expect(parseCommaAmount('80')).toBe(8000);
    expect(parseCommaAmount('-1,00')).toBe(-100);
    expect(parseCommaAmount('123.45')).toBeUndefined();
    expect(parseCommaAmount('')).toBeUndefined();
    expect(parseCommaAmount(undefined)).toBeUndefined();
    expect(parseCommaAmount('99999999999,99')).toBeUndefined();
  });

  it('never formats something that is not an integer number of cents', () => {
    expect(() => formatAmount(1e21)).toThrow(AgentError);
    expect(() => formatAmount(0.5)).toThrow(AgentError);
  });
});
