import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOURNAL_CACHE_SIZE, openDatabase } from '../../../src/commands/journal/schema.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-cache-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('journal page cache', () => {
  it('is capped at SQLite’s stock 2 MB, not the 16 MB better-sqlite3 builds SQLite with', () => {
    const db = openDatabase(join(dir, 'journal.db'));
    try {
      expect(JOURNAL_CACHE_SIZE).toBe(-2000);
      expect(db.pragma('cache_size', { simple: true })).toBe(-2000);
    } finally {
      db.close();
    }
  });
});
