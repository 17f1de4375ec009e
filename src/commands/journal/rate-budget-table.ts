import type Database from 'better-sqlite3';
import type { RateBudgetStore, SavedRateBlock, SavedRateBudget } from '../../connector/budget-store.js';
import { type Prepare, statementCache } from './statements.js';

/** Not `schema.ts`'s: the migration lives here, and schema.ts imports it. */
type Db = Database.Database;
type Guard = <T>(what: string, fn: () => T) => T;

/** Grants between two prunings of the slots the window has left behind. */
const PRUNE_EVERY = 64;

/**
 * The rate budget's memory across restarts (`RateBudgetStore`, issue 26.1), in two small tables
 * of the journal (migration 4 in `schema.ts`): `rate_slots`, one row per request inside the
 * platform's sliding window (the time it counts from, and whether its answer came back), and
 * `rate_block`, the one running block after a 429.
 *
 * A grant is one INSERT and an answer one UPDATE, each committed before the budget goes on (WAL,
 * `synchronous = NORMAL`: no fsync on the event loop); the answer's time must be in the journal
 * when it comes, or a restart counts the slot from the new start and a crash loop pushes the
 * window ahead at every start. Rows the window has left behind are deleted every `PRUNE_EVERY`
 * grants (and at `load`), not on every grant as before (issue 26.3: three statements per request
 * were 0.5 s of a 300-receipt burst), so the table holds at most a window's worth plus that many.
 * Statements are prepared once (`statementCache`).
 */
export class JournalRateBudget implements RateBudgetStore {
  private readonly sql: Prepare;
  private grantsSincePrune = 0;

  constructor(
    private readonly db: Db,
    private readonly guard: Guard,
  ) {
    this.sql = statementCache(db);
  }

  load(now: number, windowMs: number): SavedRateBudget {
    return this.guard('rate budget read', () =>
      this.db.transaction((): SavedRateBudget => {
        this.sql('DELETE FROM rate_slots WHERE at <= ?').run(now - windowMs);
        // The previous process never saw these answered: the platform counted them before it died.
        this.sql('UPDATE rate_slots SET at = MAX(at, ?), open = 0 WHERE open = 1').run(now);
        const slots = this.sql('SELECT at FROM rate_slots ORDER BY at, id')
          .all()
          .map((row) => (row as { at: number }).at);
        const row = this.sql('SELECT block_json FROM rate_block WHERE id = 1').get() as
          | { block_json: string }
          | undefined;
        const block = row === undefined ? undefined : readBlock(row.block_json);
        return block ? { slots, block } : { slots };
      })(),
    );
  }

  granted(at: number, windowMs: number): number {
    return this.guard('rate budget write', () => {
      if (++this.grantsSincePrune >= PRUNE_EVERY) {
        this.grantsSincePrune = 0;
        this.sql('DELETE FROM rate_slots WHERE at <= ? AND open = 0').run(at - windowMs);
      }
      return Number(this.sql('INSERT INTO rate_slots (at, open) VALUES (?, 1)').run(at).lastInsertRowid);
    });
  }

  settled(key: number, at: number): void {
    this.guard('rate budget write', () => {
      this.sql('UPDATE rate_slots SET at = ?, open = 0 WHERE id = ?').run(at, key);
    });
  }

  blocked(block: SavedRateBlock | undefined): void {
    this.guard('rate budget write', () => {
      if (!block) {
        this.sql('DELETE FROM rate_block').run();
        return;
      }
      this.sql(
        `INSERT INTO rate_block (id, block_json) VALUES (1, ?)
           ON CONFLICT (id) DO UPDATE SET block_json = excluded.block_json`,
      ).run(JSON.stringify(block));
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
