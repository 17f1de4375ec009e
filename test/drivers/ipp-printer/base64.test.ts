import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBase64Text, prepareDocument } from '../../../drivers/ipp-printer/document.js';
import { AgentError } from '../../../src/errors.js';

/**
 * The print document's Base64 check (issue 13, "the Base64 checks cannot overflow"): linear in
 * the text, whatever it holds. The regular expression it replaced backtracked quadratically on a
 * run of line breaks; the check must still accept and refuse exactly what that pattern did.
 */

const FORMER = /^[A-Za-z0-9+/\r\n]*={0,2}[\r\n]*$/;
const LIMITS = { maxFileBytes: 32 * 1024 * 1024, maxCopies: 20 };

describe('isBase64Text', () => {
  it('agrees with the former pattern on any short text made of Base64’s characters and a few others', () => {
    const char = fc.constantFrom(...'AZaz09+/=\r\n!- \t'.split(''));
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        return isBase64Text(text) === FORMER.test(text);
      }),
      { seed: 0x13b64, numRuns: 5000 },
    );
  });

  it('refuses about 40 MB of line breaks ending in a bad character (the former pattern never finished)', () => {
    const text = `${'\n'.repeat(40 * 1024 * 1024)}!`;
    expect(isBase64Text(text)).toBe(false);
    let error: unknown;
    try {
      prepareDocument(
        { copyCount: 1, fileType: 'application/pdf', fileData: text, printerName: 'P' },
        LIMITS,
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('COMMAND_INVALID');
  });

  it('accepts 40 MB of real Base64 with line breaks', () => {
    const line = `${'QUJD'.repeat(19)}\r\n`;
    expect(isBase64Text(line.repeat(Math.floor((40 * 1024 * 1024) / line.length)))).toBe(true);
  });
});
