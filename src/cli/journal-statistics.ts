import { statSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Figures about a journal file, read on a read-only connection (safe beside the running agent:
 * the journal is in WAL mode, so a reader never blocks it). Only counts and times: no command
 * content, no notes, no guest data — this goes into support bundles.
 */
export interface JournalStatistics {
  path: string;
  /** `PRAGMA quick_check`: "ok", or the first problems it found. */
  quickCheck: string;
  schemaVersion: number;
  fileBytes: number;
  walBytes: number;
  commands: {
    total: number;
    inFlight: number;
    byPhase: Record<string, number>;
    byState: Record<string, number>;
    byKind: Record<string, number>;
    byDevice: Record<string, number>;
    oldestSeenAt?: string;
    newestSeenAt?: string;
  };
  outbox: { pending: number; oldestAgeSeconds?: number };
  counters: Record<string, number>;
}

const IN_FLIGHT = ['accepted', 'received', 'starting', 'running', 'cancelling', 'reconciling'];

function size(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Reads the figures; throws when the file cannot be opened as a database at all. */
export function readJournalStatistics(path: string, now = Date.now()): JournalStatistics {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('quick_check(5)') as Array<{ quick_check: string }>;
    const quickCheck = rows.map((r) => r.quick_check).join('; ') || 'no answer';
    const grouped = (column: string): Record<string, number> => {
      try {
        const result: Record<string, number> = {};
        for (const row of db
          .prepare(`SELECT ${column} AS k, COUNT(*) AS n FROM commands GROUP BY ${column} ORDER BY n DESC`)
          .all() as Array<{ k: string | null; n: number }>)
          result[row.k ?? '(none)'] = row.n;
        return result;
      } catch {
        return {};
      }
    };
    const one = <T>(sql: string, fallback: T): T => {
      try {
        return (db.prepare(sql).get() as T | undefined) ?? fallback;
      } catch {
        return fallback;
      }
    };
    const byPhase = grouped('phase');
    const span = one<{ oldest: number | null; newest: number | null }>(
      'SELECT MIN(seen_at) AS oldest, MAX(seen_at) AS newest FROM commands',
      { oldest: null, newest: null },
    );
    const outbox = one<{ n: number; oldest: number | null }>(
      'SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox',
      { n: 0, oldest: null },
    );
    let counters: Record<string, number> = {};
    try {
      counters = Object.fromEntries(
        (db.prepare('SELECT name, value FROM counters').all() as Array<{ name: string; value: number }>).map(
          (r) => [r.name, r.value],
        ),
      );
    } catch {
      // an older or empty file
    }
    const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());
    const oldestSeenAt = iso(span.oldest);
    const newestSeenAt = iso(span.newest);
    return {
      path,
      quickCheck,
      schemaVersion: Number(db.pragma('user_version', { simple: true })),
      fileBytes: size(path),
      walBytes: size(`${path}-wal`),
      commands: {
        total: Object.values(byPhase).reduce((a, b) => a + b, 0),
        inFlight: IN_FLIGHT.reduce((sum, phase) => sum + (byPhase[phase] ?? 0), 0),
        byPhase,
        byState: grouped('state'),
        byKind: grouped('kind'),
        byDevice: grouped('device_id'),
        ...(oldestSeenAt ? { oldestSeenAt } : {}),
        ...(newestSeenAt ? { newestSeenAt } : {}),
      },
      outbox: {
        pending: outbox.n,
        ...(outbox.oldest === null
          ? {}
          : { oldestAgeSeconds: Math.max(0, Math.round((now - outbox.oldest) / 1000)) }),
      },
      counters,
    };
  } finally {
    db.close();
  }
}
