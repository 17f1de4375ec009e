import { describe, expect, it } from 'vitest';
import { JOURNAL_CACHE_SIZE, openDatabase } from '../../../src/commands/journal/schema.js';
import { tempFolderEachTest } from '../../helpers/temp-dir.js';

const tempPath = tempFolderEachTest('journal-cache-');

describe('journal page cache', () => {
  it('is capped at SQLite’s stock 2 MB, not the 16 MB better-sqlite3 builds SQLite with', () => {
    const db = openDatabase(tempPath('journal.db'));
    try {
      expect(JOURNAL_CACHE_SIZE).toBe(-2000);
      expect(db.pragma('cache_size', { simple: true })).toBe(-2000);
    } finally {
      db.close();
    }
  });
});
