import { describe, expect, it } from 'vitest';
import { base64Length } from '../../src/transport/base64.js';

describe('base64Length', () => {
  it('counts the Base64 characters, padding included, skipping what it is told to', () => {
    expect(base64Length('aGVsbG8=', 'line-breaks')).toBe(8);
    expect(base64Length('aGVs\r\nbG8=\n', 'line-breaks')).toBe(8);
    expect(base64Length('aGVs bG8=\t', 'whitespace')).toBe(8);
    expect(base64Length('', 'whitespace')).toBe(0);
  });

  it('refuses characters outside the alphabet, spaces where only line breaks may be skipped, and misplaced padding', () => {
    expect(base64Length('aGVs bG8=', 'line-breaks')).toBeUndefined();
    expect(base64Length('aGV*bG8=', 'whitespace')).toBeUndefined();
    expect(base64Length('aG=sbG8=', 'whitespace')).toBeUndefined();
    expect(base64Length('aGVsbG===', 'whitespace')).toBeUndefined();
  });

  it('reads a long run of line breaks before the data (the input that once stalled a regular expression)', () => {
    const text = `${'\n'.repeat(5_000_000)}QQ==`;
    expect(base64Length(text, 'line-breaks')).toBe(4);
  });
});
