import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode, errorCodeNote } from '../../src/errors.js';
import { english } from '../../src/messages/render.js';

const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'error-codes.md'), 'utf8');

/** The rows between the page's markers: code → its cells. */
function tableRows(): Map<string, string[]> {
  const table = page.slice(
    page.indexOf('<!-- error-codes:start -->'),
    page.indexOf('<!-- error-codes:end -->'),
  );
  const rows = new Map<string, string[]>();
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const code = /^`([A-Z_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (code) rows.set(code, cells.slice(1, -1));
  }
  return rows;
}

describe('docs/error-codes.md', () => {
  const rows = tableRows();
  const codes = Object.keys(ERROR_CODES) as ErrorCode[];

  it('has one row for every code of src/errors.ts and none for a code it lacks', () => {
    expect([...rows.keys()].sort()).toEqual([...codes].sort());
  });

  it('says of each code whether the agent retries it, as the code does', () => {
    const said = codes.map((code) => [code, rows.get(code)?.[1]]);
    expect(said).toEqual(codes.map((code) => [code, ERROR_CODES[code].retryable ? 'yes' : 'no']));
  });

  it('quotes what the receptionist reads from the catalogue, word for word', () => {
    const quoted = codes.map((code) => [code, rows.get(code)?.[3]]);
    expect(quoted).toEqual(codes.map((code) => [code, english(errorCodeNote(code))]));
  });
});
