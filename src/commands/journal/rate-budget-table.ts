import type Database from 'better-sqlite3';
import type { RateBudgetStore, SavedRateBlock, SavedRateBudget } from '../../connector/budget-store.js';

/** Not `schema.ts`'s: the migration lives here, and schema.ts imports it. */
type Db = Database.Database;
type Guard = <T>(what: string, fn: () => T) => T;

/**
 * The rate budget's memory across restarts (`RateBudgetStore`, issue 26.1), in two small tables
 * of the journal (migration 4 in `schema.ts`): `rate_slots`, one row per request inside the
 * platform's sliding window (the time it counts from, and whether its answer came back), and
 * `rate_block`, the one running block after a 429. A grant is one INSERT and an answer one UPDATE,
 * each committed before the budget goes on (WAL, `synchronous = NORMAL`: no fsync on the event
 * loop); rows the window has left behind are deleted as new ones come, so the table holds at most
 * a window's worth (200 rows by default).
 */
export class JournalRateBudget implements RateBudgetStore {
  constructor(
    private readonly db: Db,
    private readonly guard: Guard,
  ) {}

  load(now: number, windowMs: number): SavedRateBudget {
    return this.guard('rate budget read', () =>
      this.db.transaction((): SavedRateBudget => {
        this.db.prepare('DELETE FROM rate_slots WHERE at <= ?').run(now - windowMs);
        // The previous process never saw these answered: the platform counted them before it died.
        this.db.prepare('UPDATE rate_slots SET at = MAX(at, ?), open = 0 WHERE open = 1').run(now);
        const slots = this.db.prepare('SELECT at FROM rate_slots ORDER BY at, id').pluck().all() as number[];
        const row = this.db.prepare('SELECT block_json FROM rate_block WHERE id = 1').pluck().get() as
          | string
          | undefined;
        const block = row === undefined ? undefined : readBlock(row);
        return block ? { slots, block } : { slots };
      })(),
    );
  }

  granted(at: number, windowMs: number): number {
    return this.guard('rate budget write', () => {
      this.db.prepare('DELETE FROM rate_slots WHERE at <= ? AND open = 0').run(at - windowMs);
      return Number(
        this.db.prepare('INSERT INTO rate_slots (at, open) VALUES (?, 1)').run(at).lastInsertRowid,
      );
    });
  }

  settled(key: number, at: number): void {
    this.guard('rate budget write', () => {
      this.db.prepare('UPDATE rate_slots SET at = ?, open = 0 WHERE id = ?').run(at, key);
    });
  }

  blocked(block: SavedRateBlock | undefined): void {
    this.guard('rate budget write', () => {
      if (!block) {
        this.db.prepare('DELETE FROM rate_block').run();
        return;
      }
      this.db
        .prepare(
          `INSERT INTO rate_block (id, block_json) VALUES (1, ?)
             ON CONFLICT (id) DO UPDATE SET block_json = excluded.block_json`,
        )
        .run(JSON.stringify(block));
    });
  }
}

/** The saved block, or none when it cannot be read (then the budget starts unblocked, as before). */
function readBlock(text: string): SavedRateBlock | undefined {
  try {
    const value = JSON.parse(text) as Partial<SavedRateBlock>;
    if (typeof value.until !== 'number' || typeof value.count !== 'number') return undefined;
    return value as SavedRateBlock;
  } catch {
    return undefined;
  }
}

/** Migration 3: the rate budget's tables. */
export function addRateBudgetTables(db: Db): void {
  db.exec(`
    CREATE TABLE rate_slots (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, open INTEGER NOT NULL);
    CREATE INDEX rate_slots_at ON rate_slots (at);
    CREATE TABLE rate_block (id INTEGER PRIMARY KEY CHECK (id = 1), block_json TEXT NOT NULL);
  `);
}
