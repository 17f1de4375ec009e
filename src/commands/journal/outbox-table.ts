import { type CommandState, TERMINAL_STATES } from '../../connector/wire.js';
import { type Db, sqlList } from './schema.js';

/**
 * The outbox table: platform updates waiting to be delivered, ordered per command by `seq`.
 * Rows are written in the same transaction as the command's state (see `Journal.update`), and
 * deleted only once the platform took them (or they can never be delivered).
 */

export interface OutboxItem {
  seq: number;
  commandId: string;
  state: CommandState;
  /** Fraction 0..1; only with Processing. */
  progress?: number;
  notes?: string;
  /** A progress-only Processing update: a newer update of the same command supersedes it … */
  progressOnly: boolean;
  /** … unless it is a milestone (each key card), which is always sent. */
  milestone: boolean;
  createdAt: number;
  /** Failed delivery attempts so far. */
  attempts: number;
}

export interface NewUpdate {
  commandId: string;
  state: CommandState;
  progress?: number;
  notes?: string;
  progressOnly?: boolean;
  milestone?: boolean;
}

interface OutboxRow {
  seq: number;
  command_id: string;
  state: CommandState;
  progress: number | null;
  notes: string | null;
  progress_only: number;
  milestone: number;
  created_at: number;
  attempts: number;
}

type Guard = <T>(what: string, fn: () => T) => T;

function toItem(row: OutboxRow): OutboxItem {
  const item: OutboxItem = {
    seq: row.seq,
    commandId: row.command_id,
    state: row.state,
    progressOnly: row.progress_only === 1,
    milestone: row.milestone === 1,
    createdAt: row.created_at,
    attempts: row.attempts,
  };
  if (row.progress !== null) item.progress = row.progress;
  if (row.notes !== null) item.notes = row.notes;
  return item;
}

/** Results (the terminal states): they supersede progress and are delivered first. */
const RESULTS = sqlList(TERMINAL_STATES);

export class JournalOutbox {
  constructor(
    private readonly db: Db,
    private readonly guard: Guard,
  ) {}

  /**
   * Appends an update. Pending progress-only updates of the same command that are not being sent
   * right now (`inFlight` seqs) are superseded and deleted: by any update when they are not
   * milestones, and by a result (Processed, Error, Cancelled) even when they are — the platform
   * reads Progress only in Processing, so a milestone still unsent when the result is ready would
   * be a request that shows nothing. Returns the new item's seq.
   */
  add(update: NewUpdate, at: number, inFlight: ReadonlySet<number> = new Set()): number {
    const result = TERMINAL_STATES.includes(update.state);
    return this.guard('outbox add', () =>
      this.db.transaction(() => {
        this.db
          .prepare(
            `DELETE FROM outbox WHERE command_id = ? AND progress_only = 1 AND (milestone = 0 OR ?)
               AND seq NOT IN (SELECT value FROM json_each(?))`,
          )
          .run(update.commandId, result ? 1 : 0, JSON.stringify([...inFlight]));
        const info = this.db
          .prepare(
            `INSERT INTO outbox (command_id, state, progress, notes, progress_only, milestone, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            update.commandId,
            update.state,
            update.progress ?? null,
            update.notes ?? null,
            update.progressOnly ? 1 : 0,
            update.milestone ? 1 : 0,
            at,
          );
        return Number(info.lastInsertRowid);
      })(),
    );
  }

  /**
   * The first pending update of each command (its order is kept), the commands ranked by the most
   * urgent update they have pending: a result (Processed, Error, Cancelled) first, then progress
   * (Processing), then the rest (Received); oldest first within a rank. So a result waiting behind
   * its own Processing goes before a queue of Received, and a started command's Processing before
   * the Received of commands still waiting. Commands in `exclude` (being delivered) are left out.
   */
  heads(limit: number, exclude: ReadonlySet<string> = new Set()): OutboxItem[] {
    return this.guard('outbox read', () =>
      (
        this.db
          .prepare(
            `SELECT o.* FROM outbox o JOIN (
               SELECT MIN(seq) AS head,
                 MIN(CASE WHEN state IN (${RESULTS}) THEN 0 WHEN state = 'Processing' THEN 1 ELSE 2 END)
                   AS urgency
               FROM outbox WHERE command_id NOT IN (SELECT value FROM json_each(?))
               GROUP BY command_id) h ON o.seq = h.head
             ORDER BY h.urgency, o.seq
             LIMIT ?`,
          )
          .all(JSON.stringify([...exclude]), limit) as OutboxRow[]
      ).map(toItem),
    );
  }

  /** Every pending update of one command, in order. */
  pendingFor(commandId: string): OutboxItem[] {
    return this.guard('outbox read', () =>
      (
        this.db
          .prepare('SELECT * FROM outbox WHERE command_id = ? ORDER BY seq')
          .all(commandId) as OutboxRow[]
      ).map(toItem),
    );
  }

  /** Removes a delivered (or undeliverable) update. Idempotent. */
  remove(seq: number): void {
    this.guard('outbox remove', () => this.db.prepare('DELETE FROM outbox WHERE seq = ?').run(seq));
  }

  /** Drops every pending update of a command; returns how many. */
  dropCommand(commandId: string): number {
    return this.guard(
      'outbox drop',
      () => this.db.prepare('DELETE FROM outbox WHERE command_id = ?').run(commandId).changes,
    );
  }

  markAttempt(seq: number): void {
    this.guard('outbox attempt', () =>
      this.db.prepare('UPDATE outbox SET attempts = attempts + 1 WHERE seq = ?').run(seq),
    );
  }

  /** How many updates wait, and since when the oldest one does. */
  state(): { pending: number; oldestAt?: number } {
    return this.guard('outbox read', () => {
      const row = this.db.prepare('SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox').get() as {
        n: number;
        oldest: number | null;
      };
      return row.oldest === null ? { pending: row.n } : { pending: row.n, oldestAt: row.oldest };
    });
  }
}
