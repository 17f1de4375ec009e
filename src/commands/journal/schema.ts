import Database from 'better-sqlite3';
import { AgentError } from '../../errors.js';
import { separateDocuments } from './documents.js';
import { addRateBudgetTables } from './rate-budget-table.js';

/**
 * The journal's SQLite file: opening, pragmas, integrity check and schema migrations. The schema
 * version lives in `PRAGMA user_version`; `MIGRATIONS[n]` moves a file from version n to n+1 inside
 * one transaction, so a crash mid-migration leaves the old version intact.
 *
 * Deleted means gone (issue 27): `secure_delete` is on before any migration runs, so a deleted
 * row, a row's old version and a freed page are overwritten with zeros, not left in free space;
 * temporary data stays in memory (`temp_store`), never in a temporary file; a file from before
 * this (schema version 1 or 2) is rewritten once by `VACUUM` (`scrubOnce`). What the WAL still
 * holds of a deleted row goes at the next truncating checkpoint (`Journal.truncateWal`).
 */

export type Db = Database.Database;

export const MIGRATIONS: ReadonlyArray<(db: Db) => void> = [
  (db) => {
    db.exec(`
      CREATE TABLE commands (
        id TEXT PRIMARY KEY,
        device_id TEXT NOT NULL,
        device_name TEXT NOT NULL,
        device_type TEXT NOT NULL,
        kind TEXT NOT NULL,
        source TEXT,
        command_json TEXT,
        phase TEXT NOT NULL,
        state TEXT NOT NULL,
        outcome TEXT,
        attempt INTEGER NOT NULL DEFAULT 0,
        created_utc TEXT,
        seen_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER,
        updated_at INTEGER NOT NULL,
        pickup_ms INTEGER,
        progress REAL,
        checkpoint_json TEXT,
        result_json TEXT,
        error_json TEXT,
        notes TEXT,
        timeline_json TEXT NOT NULL
      );
      CREATE INDEX commands_phase ON commands (phase, seen_at);
      CREATE INDEX commands_seen ON commands (seen_at);
      CREATE INDEX commands_finished ON commands (finished_at);
      CREATE TABLE outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        command_id TEXT NOT NULL,
        state TEXT NOT NULL,
        progress REAL,
        notes TEXT,
        progress_only INTEGER NOT NULL DEFAULT 0,
        milestone INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX outbox_command ON outbox (command_id, seq);
      CREATE TABLE device_kv (
        device_id TEXT NOT NULL,
        key TEXT NOT NULL,
        value_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (device_id, key)
      ) WITHOUT ROWID;
      CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
    `);
  },
  // Documents apart, and closed commands without personal data (`documents.ts`).
  separateDocuments,
  // Nothing to change in the schema: an older file is rewritten by `scrubOnce` before this commits.
  () => undefined,
  // The rate budget's window and its block after a 429, across restarts (`rate-budget-table.ts`).
  addRateBudgetTables,
];

/** The first version whose file never held freed data: older files are vacuumed once to reach it. */
const SCRUBBED_VERSION = 3;

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * A list of the engine's own names (phases, states) as an SQL `IN (…)` list. The names are
 * constants from `rules/phases.ts` and `src/connector/wire.ts`, never input; anything but letters is refused so a
 * statement can never be built from something else.
 */
export function sqlList(values: readonly string[]): string {
  for (const value of values) {
    if (!/^[A-Za-z]+$/.test(value)) throw new Error(`not a name for an SQL list: ${value}`);
  }
  return values.map((value) => `'${value}'`).join(', ');
}

function journalError(path: string, what: string, cause: unknown): AgentError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new AgentError('JOURNAL_ERROR', `Journal ${path}: ${what}: ${detail}`, {
    cause,
    details: { path, ...(isSqliteError(cause) ? { sqlite: cause.code } : {}) },
  });
}

function isSqliteError(value: unknown): value is Error & { code: string } {
  return value instanceof Error && typeof (value as { code?: unknown }).code === 'string';
}

/** Wraps anything SQLite throws into JOURNAL_ERROR naming the file; AgentErrors pass through. */
export function wrapJournalError(path: string, what: string, cause: unknown): AgentError {
  return cause instanceof AgentError ? cause : journalError(path, what, cause);
}

/**
 * The page cache per connection, in `PRAGMA cache_size` units (negative = KiB): SQLite's stock
 * 2 MB. better-sqlite3 builds SQLite with 16 MB, which the daemon slowly filled with the whole
 * journal and kept resident (see bench/RESULTS.md, Memory). The hot rows (recent commands, the
 * outbox) fit in 2 MB, and the OS caches the file besides.
 */
export const JOURNAL_CACHE_SIZE = -2000;

/** How long a statement waits for another connection's lock (doctor reads beside the agent). */
export const JOURNAL_BUSY_TIMEOUT_MS = 5000;

/**
 * The most the WAL file keeps after a checkpoint rewinds it (`PRAGMA journal_size_limit`): 4 MiB,
 * the size at which SQLite checkpoints by itself (1,000 pages of 4 KiB). The steady state does not
 * change; a burst that grew the WAL beyond it (a backlog, a large print document) does not leave
 * its frames, guests' names among them, at the end of the file.
 */
export const JOURNAL_WAL_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * Opens (creating when missing) and migrates a journal file. `':memory:'` gives a private
 * in-memory journal. Rejects with JOURNAL_ERROR when the file is not a database, is corrupt, was
 * written by a newer schema, or cannot be written.
 */
export function openDatabase(path: string): Db {
  let db: Db;
  try {
    db = new Database(path);
  } catch (e) {
    throw journalError(path, 'cannot open', e);
  }
  cacheStatements(db);
  try {
    const mode = String(db.pragma('journal_mode = WAL', { simple: true }));
    if (path !== ':memory:' && mode !== 'wal') throw new Error(`journal_mode is ${mode}, expected wal`);
    // Migrations commit with SQLite's own sync; from then on `durability.ts` syncs.
    db.pragma('synchronous = FULL');
    db.pragma(`busy_timeout = ${JOURNAL_BUSY_TIMEOUT_MS}`);
    db.pragma(`cache_size = ${JOURNAL_CACHE_SIZE}`);
    // Before the migrations: what they delete is overwritten too.
    db.pragma('secure_delete = ON');
    db.pragma('temp_store = MEMORY');
    db.pragma(`journal_size_limit = ${JOURNAL_WAL_LIMIT_BYTES}`);
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`integrity check failed: ${String(check)}`);
    migrate(db);
    db.pragma('synchronous = NORMAL');
    return db;
  } catch (e) {
    db.close();
    throw wrapJournalError(path, 'unusable', e);
  }
}

/**
 * Makes `db.prepare` return one compiled statement per SQL text: the journal's statements are a
 * small fixed set, and compiling them on every call dominated the cost of a write. Only
 * `run`/`get`/`all` are used, never `iterate`, so sharing a statement is safe.
 */
function cacheStatements(db: Db): void {
  const compile = db.prepare.bind(db);
  const cache = new Map<string, ReturnType<Db['prepare']>>();
  db.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = compile(source);
      cache.set(source, statement);
    }
    return statement;
  }) as Db['prepare'];
}

function migrate(db: Db): void {
  const version = Number(db.pragma('user_version', { simple: true }));
  if (version > SCHEMA_VERSION) {
    throw new Error(`schema version ${version} is newer than this agent's ${SCHEMA_VERSION}`);
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    const step = MIGRATIONS[v];
    if (!step) break;
    // A new file (version 0) never held anything; an older one is cleaned before it is marked so.
    if (v + 1 === SCRUBBED_VERSION && version > 0) scrubOnce(db);
    db.transaction(() => {
      step(db);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/**
 * Rewrites a journal written before `secure_delete` was on: `VACUUM` builds the file anew (in
 * memory: `temp_store`) without its free pages and the free space inside pages, where deleted
 * guests' names and documents stayed, and the truncating checkpoint writes it over the old file
 * and empties the WAL. A crash meanwhile leaves the version below `SCRUBBED_VERSION`, so the next
 * start does it again. Once per file: it costs a rewrite of the whole journal.
 */
function scrubOnce(db: Db): void {
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
}
