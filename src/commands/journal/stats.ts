import type { AgentSnapshot, CommandSummary } from '../../status-model.js';
import type { CommandRecord, Outcome } from '../rules/index.js';
import { ACTIVE_PHASES, TERMINAL_PHASES } from '../rules/index.js';
import { type Db, sqlList } from './schema.js';

/**
 * What the status page needs from the journal, computed by SQL on demand so that nothing but
 * the file grows with the history: recent commands with timelines, all-time totals (kept in a
 * counters table that survives pruning), per-minute counts and pickup latency, and pruning.
 */

type Guard = <T>(what: string, fn: () => T) => T;
type Totals = AgentSnapshot['totals'];
type MinuteBucket = AgentSnapshot['perMinute'][number];

const MINUTE = 60_000;
const IN_FLIGHT = sqlList(ACTIVE_PHASES);
const TERMINAL = sqlList(TERMINAL_PHASES);
const COUNTER: Record<Outcome, keyof Omit<Totals, 'inFlight'>> = {
  Processed: 'processed',
  Error: 'failed',
  Cancelled: 'cancelled',
};

export class JournalStats {
  constructor(
    private readonly db: Db,
    private readonly guard: Guard,
    private readonly parse: (row: unknown) => CommandRecord,
  ) {}

  /** Counts one outcome (called inside the transition's transaction). */
  count(outcome: Outcome): void {
    this.guard('counters', () =>
      this.db
        .prepare(
          `INSERT INTO counters (name, value) VALUES (?, 1)
           ON CONFLICT (name) DO UPDATE SET value = value + 1`,
        )
        .run(COUNTER[outcome]),
    );
  }

  /** All-time outcome counters, and the commands still waiting for or using a device. */
  totals(): Totals {
    return this.guard('totals', () => {
      const totals: Totals = { processed: 0, failed: 0, cancelled: 0, inFlight: 0 };
      for (const row of this.db.prepare('SELECT name, value FROM counters').all() as Array<{
        name: keyof Totals;
        value: number;
      }>) {
        if (row.name in totals) totals[row.name] = row.value;
      }
      const inFlight = this.db
        .prepare(
          `SELECT COUNT(*) AS n FROM commands
           WHERE phase IN (${IN_FLIGHT})`,
        )
        .get() as { n: number };
      totals.inFlight = inFlight.n;
      return totals;
    });
  }

  /** The newest commands first, as the page shows them. */
  recent(limit: number): CommandSummary[] {
    return this.guard('recent', () =>
      this.db
        .prepare('SELECT * FROM commands ORDER BY seen_at DESC, rowid DESC LIMIT ?')
        .all(Math.max(0, Math.floor(limit)))
        .map((row) => toSummary(this.parse(row))),
    );
  }

  /**
   * One bucket per minute for the `minutes` minutes up to and including the one holding `now`,
   * oldest first: outcomes by the minute they became known, pickup latency (median) by the minute
   * the command was seen.
   */
  perMinute(now: number, minutes = 60): MinuteBucket[] {
    return this.guard('per-minute', () => {
      const last = Math.floor(now / MINUTE) * MINUTE;
      const first = last - (minutes - 1) * MINUTE;
      const buckets = new Map<number, MinuteBucket>();
      for (let m = first; m <= last; m += MINUTE) buckets.set(m, { minute: m, processed: 0, failed: 0 });
      const outcomes = this.db
        .prepare(
          `SELECT (finished_at / ${MINUTE}) * ${MINUTE} AS minute,
             SUM(outcome = 'Processed') AS processed, SUM(outcome = 'Error') AS failed
           FROM commands WHERE finished_at >= ? AND outcome IS NOT NULL GROUP BY minute`,
        )
        .all(first) as Array<{ minute: number; processed: number; failed: number }>;
      for (const row of outcomes) {
        const bucket = buckets.get(row.minute);
        if (bucket) Object.assign(bucket, { processed: row.processed, failed: row.failed });
      }
      const pickups = this.db
        .prepare(
          `SELECT (seen_at / ${MINUTE}) * ${MINUTE} AS minute, pickup_ms AS ms FROM commands
           WHERE seen_at >= ? AND pickup_ms IS NOT NULL ORDER BY minute, pickup_ms`,
        )
        .all(first) as Array<{ minute: number; ms: number }>;
      const byMinute = new Map<number, number[]>();
      for (const row of pickups) {
        const list = byMinute.get(row.minute) ?? [];
        list.push(row.ms);
        byMinute.set(row.minute, list);
      }
      for (const [minute, list] of byMinute) {
        const bucket = buckets.get(minute);
        const median = list[Math.floor((list.length - 1) / 2)];
        if (bucket && median !== undefined) bucket.pickupP50Ms = median;
      }
      return [...buckets.values()];
    });
  }

  /**
   * Deletes terminal commands whose outcome is older than `before` (epoch ms) and that have no
   * pending update. Returns how many went. Counters are kept.
   */
  prune(before: number): number {
    return this.guard(
      'prune',
      () =>
        this.db
          .prepare(
            `DELETE FROM commands WHERE phase IN (${TERMINAL})
               AND COALESCE(finished_at, updated_at) < ?
               AND NOT EXISTS (SELECT 1 FROM outbox WHERE outbox.command_id = commands.id)`,
          )
          .run(before).changes,
    );
  }
}

export function toSummary(record: CommandRecord): CommandSummary {
  const summary: CommandSummary = {
    id: record.id,
    deviceId: record.deviceId,
    deviceName: record.deviceName,
    kind: record.kind,
    state: record.state,
    seenAt: record.seenAt,
    timeline: record.timeline,
  };
  if (record.createdUtc !== undefined) summary.createdUtc = record.createdUtc;
  if (record.finishedAt !== undefined) summary.finishedAt = record.finishedAt;
  if (record.progress !== undefined) summary.progress = record.progress;
  if (record.notes !== undefined) summary.notes = record.notes;
  if (record.error !== undefined) summary.error = record.error;
  if (record.result?.details !== undefined) summary.result = record.result.details;
  return summary;
}
