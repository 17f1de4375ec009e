import { AgentError } from '../../src/errors.js';
import { MAX_CENTS } from '../fiscal-it/money.js';

/**
 * Amounts in Fiscal ePOS-Print XML. The fiscal core keeps money in integer cents
 * (`drivers/fiscal-it/money.ts`); here they become the printer's text and back.
 *
 * **A decimal comma**, as Epson's own input samples write amounts (EpsonFpSuite 2.2.0
 * `Italy/TxtExamples/ScoDocCommPayCash.txt`, 4.3.0 `InputFileSamples/TxtExamples/
 * ScoNotaDiCredito.txt`: `21,61`, `5,50`, quantities `1,234`), as the printer writes its own
 * answers (`fiscalReceiptAmount`, which OCA l10n-italy parses with `replace(",", ".")`) and as
 * fiskaltrust `scu-it` (`Utilities/EpsonFormatters.cs`: `NumberDecimalSeparator = ","`) and
 * 721377/procassa (`number_format(…, 2, ",", "")`) send them. OCA and Microsoft's sample send a
 * dot, so printers take both; Epson's own text on the attribute was not found, its samples were.
 */

/** Integer cents to the XML form: decimal comma, two places ("123,45", "5,00"). */
export function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new AgentError('INTERNAL', `not an amount in cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Parses an amount as the printer writes it in its answers: decimal comma ("123,45"), at most
 * two decimals; undefined when malformed or beyond nine digits of cents.
 */
export function parseCommaAmount(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^\s*(-?)(\d{1,9})(?:,(\d{1,2}))?\s*$/.exec(text);
  if (!m) return undefined;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '0').padEnd(2, '0'));
  if (cents > MAX_CENTS) return undefined;
  return m[1] === '-' && cents !== 0 ? -cents : cents;
}
