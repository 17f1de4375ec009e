import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEDGER_MEMORY, openLedger } from '../../../drivers/stand-ins/ledger.js';
import type { DeviceStore } from '../../../src/drivers-api/types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const unusedStore = {} as DeviceStore;
const entry = (i: number) => ({
  commandId: `cmd-${i}`,
  action: i % 3 === 0 ? 'receipt' : 'card',
  facts: { i },
  at: i,
});

describe('simulated device ledger (file)', () => {
  it('keeps only its recent entries in memory, counts every action and writes everything to the file', () => {
    const path = join(dir, 'ledger.jsonl');
    const ledger = openLedger(path, unusedStore);
    const total = 5 * LEDGER_MEMORY;
    for (let i = 0; i < total; i++) ledger.append(entry(i));

    expect(ledger.count('receipt') + ledger.count('card')).toBe(total);
    expect(ledger.count('receipt')).toBe(Math.ceil(total / 3));
    expect(ledger.entriesFor(`cmd-${total - 1}`)).toEqual([entry(total - 1)]);
    expect(ledger.entriesFor(`cmd-${total - LEDGER_MEMORY}`)).toHaveLength(1);
    // Long past: the device no longer holds it in memory (a device runs one job at a time, so
    // reconciliation only ever asks about the last one).
    expect(ledger.entriesFor('cmd-0')).toEqual([]);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(total);

    const reopened = openLedger(path, unusedStore);
    expect(reopened.count('receipt')).toBe(ledger.count('receipt'));
    expect(reopened.count('card')).toBe(ledger.count('card'));
    expect(reopened.entriesFor(`cmd-${total - 1}`)).toEqual([entry(total - 1)]);
  });
});
