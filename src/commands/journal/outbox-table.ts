import { type CommandState, TERMINAL_STATES } from '../../connector/wire.js';
import { HeadIndex, urgencyOf } from './outbox-heads.js';
import type { Db } from './schema.js';
import { type Prepare, statementCache } from './statements.js';

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

export class JournalOutbox {
  private readonly sql: Prepare;
  /**
   * Each command's pending seqs and urgencies, so `heads()` needs no `GROUP BY` over the table on
   * every doorbell. Only an index: the table stays the truth. Built from the table on first use,
   * kept in step by this class's writes, and dropped (rebuilt on next use) whenever a transaction
   * around them rolls back (`forgetIndex`, called by `Journal.transaction`).
   */
  private index: HeadIndex | undefined;
  /** Runs its argument in a transaction (a savepoint when nested); made once, see `Journal`. */
  private readonly inTransaction: <T>(fn: () => T) => T;

  constructor(
    db: Db,
    private readonly guard: Guard,
  ) {
    this.sql = statementCache(db);
    const run = db.transaction((fn: () => unknown) => fn());
    this.inTransaction = <T>(fn: () => T) => run(fn) as T;
  }

  /**
   * Appends an update. Pending progress-only updates of the same command that are not being sent
   * right now (`inFlight` seqs) are superseded and deleted: by any update when they are not
   * milestones, and by a result (Processed, Error, Cancelled) even when they are — the platform
   * reads Progress only in Processing, so a milestone still unsent when the result is ready would
   * be a request that shows nothing. Returns the new item's seq.
   */
  add(update: NewUpdate, at: number, inFlight: ReadonlySet<number> = new Set()): number {
    const result = TERMINAL_STATES.includes(update.state);
    const index = this.indexed();
    const { seq, superseded } = this.guard('outbox add', () =>
      this.changing(() =>
        this.inTransaction(() => {
          const gone = this.sql(
            `DELETE FROM outbox WHERE command_id = ? AND progress_only = 1 AND (milestone = 0 OR ?)
               AND seq NOT IN (SELECT value FROM json_each(?)) RETURNING seq`,
          )
            .pluck()
            .all(update.commandId, result ? 1 : 0, JSON.stringify([...inFlight])) as number[];
          const info = this.sql(
            `INSERT INTO outbox (command_id, state, progress, notes, progress_only, milestone, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
          ).run(
            update.commandId,
            update.state,
            update.progress ?? null,
            update.notes ?? null,
            update.progressOnly ? 1 : 0,
            update.milestone ? 1 : 0,
            at,
          );
          return { seq: Number(info.lastInsertRowid), superseded: gone };
        }),
      ),
    );
    for (const gone of superseded) index.remove(update.commandId, gone);
    index.add(update.commandId, seq, urgencyOf(update.state));
    return seq;
  }

  /**
   * The first pending update of each command (its order is kept), the commands ranked by the most
   * urgent update they have pending: a result (Processed, Error, Cancelled) first, then progress
   * (Processing), then the rest (Received); oldest first within a rank. So a result waiting behind
   * its own Processing goes before a queue of Received, and a started command's Processing before
   * the Received of commands still waiting. Commands in `exclude` (being delivered) are left out.
   * The ranking is the in-memory index's (`outbox-heads.ts`); the rows are read from the table.
   */
  heads(limit: number, exclude: ReadonlySet<string> = new Set()): OutboxItem[] {
    return this.guard('outbox read', () => {
      const read = this.sql('SELECT * FROM outbox WHERE seq = ?');
      for (let attempt = 0; ; attempt++) {
        const rows = this.indexed()
          .heads(limit, exclude)
          .map((seq) => read.get(seq) as OutboxRow | undefined);
        if (rows.every((row) => row !== undefined) || attempt > 0) {
          return rows.filter((row): row is OutboxRow => row !== undefined).map(toItem);
        }
        // The table changed behind the index (it never should): read it again, once.
        this.forgetIndex();
      }
    });
  }

  /** Every pending update of one command, in order. */
  pendingFor(commandId: string): OutboxItem[] {
    return this.guard('outbox read', () =>
      (this.sql('SELECT * FROM outbox WHERE command_id = ? ORDER BY seq').all(commandId) as OutboxRow[]).map(
        toItem,
      ),
    );
  }

  /** Removes a delivered (or undeliverable) update. Idempotent. */
  remove(seq: number): void {
    const index = this.indexed();
    const commandId = this.guard('outbox remove', () =>
      this.changing(
        () =>
          this.sql('DELETE FROM outbox WHERE seq = ? RETURNING command_id').pluck().get(seq) as
            | string
            | undefined,
      ),
    );
    if (commandId !== undefined) index.remove(commandId, seq);
  }

  /** Drops every pending update of a command; returns how many. */
  dropCommand(commandId: string): number {
    const index = this.indexed();
    const changes = this.guard('outbox drop', () =>
      this.changing(() => this.sql('DELETE FROM outbox WHERE command_id = ?').run(commandId).changes),
    );
    index.drop(commandId);
    return changes;
  }

  markAttempt(seq: number): void {
    this.guard('outbox attempt', () =>
      this.sql('UPDATE outbox SET attempts = attempts + 1 WHERE seq = ?').run(seq),
    );
  }

  /** How many updates wait, and since when the oldest one does. */
  state(): { pending: number; oldestAt?: number } {
    return this.guard('outbox read', () => {
      const row = this.sql('SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox').get() as {
        n: number;
        oldest: number | null;
      };
      return row.oldest === null ? { pending: row.n } : { pending: row.n, oldestAt: row.oldest };
    });
  }

  /**
   * Drops the in-memory index; the next use reads it from the table again. For a transaction that
   * rolled back after this class's writes inside it had updated the index.
   */
  forgetIndex(): void {
    this.index = undefined;
  }

  private indexed(): HeadIndex {
    if (!this.index) {
      const rows = this.guard(
        'outbox read',
        () =>
          this.sql('SELECT seq, command_id, state FROM outbox ORDER BY seq').all() as Pick<
            OutboxRow,
            'seq' | 'command_id' | 'state'
          >[],
      );
      const index = new HeadIndex();
      for (const row of rows) index.add(row.command_id, row.seq, urgencyOf(row.state));
      this.index = index;
    }
    return this.index;
  }

  /** Runs a write; when it throws, what it did is unknown to the index, so the index goes. */
  private changing<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      this.forgetIndex();
      throw error;
    }
  }
}
