import type { PlatformCommand } from '../../connector/model.js';
import type { CommandState } from '../../connector/wire.js';
import type { DeviceStore } from '../../drivers-api/types.js';
import { AgentError } from '../../errors.js';
import type { CommandHead, CommandPatch, CommandRecord, NewCommand } from '../rules/index.js';
import { INITIAL_STATE, type MachineState, type Phase, UNFINISHED_PHASES } from '../rules/index.js';
import { withDocument } from './command-data.js';
import { createDeviceStore, DeviceStoreCache } from './device-store.js';
import { JournalDocuments } from './documents.js';
import { type FlushOptions, JournalDurability } from './durability.js';
import { JournalOutbox } from './outbox-table.js';
import { JournalRateBudget } from './rate-budget-table.js';
import { type CommandRow, rowToRecord } from './rows.js';
import { type Db, JOURNAL_BUSY_TIMEOUT_MS, openDatabase, sqlList, wrapJournalError } from './schema.js';
import { type Prepare, statementCache } from './statements.js';
import { JournalStats } from './stats.js';

export type { CommandHead, CommandPatch, CommandRecord, NewCommand, Outcome } from '../rules/index.js';

/**
 * The crash-safe journal: the single source of truth about every command of ours, its outbox of
 * platform updates, the drivers' per-device key-value store and the page's statistics. One
 * SQLite file (WAL, `synchronous=NORMAL`): when a write method returns, the data is committed and
 * survives a killed process; `flush()` resolves when it would survive a power cut too (group
 * commit, off the event loop: `durability.ts`, which also says who flushes and why).
 * Every multi-row change is one transaction. Every method rejects with JOURNAL_ERROR when SQLite
 * fails or the file holds data it cannot read.
 */

export interface JournalOptions {
  /** Epoch ms for bookkeeping stamps (device store); the engine passes its clock. */
  now?: () => number;
}

const json = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(v));
const UNFINISHED = sqlList(UNFINISHED_PHASES);

export class Journal {
  readonly path: string;
  readonly outbox: JournalOutbox;
  readonly stats: JournalStats;
  /** The rate budget's window and block across restarts (`RateBudgetStore`). */
  readonly rateBudget: JournalRateBudget;
  private readonly documents: JournalDocuments;
  private readonly durability: JournalDurability;
  private readonly db: Db;
  /** The journal's statements, each compiled once (`statementCache`). */
  private readonly sql: Prepare;
  private readonly now: () => number;
  private readonly deviceValues = new DeviceStoreCache();
  private readonly totalChanges: () => number;
  /**
   * Runs its argument in a transaction (a savepoint when nested): better-sqlite3's wrapper made
   * once, since making one builds four functions for every call.
   */
  private readonly inTransaction: (fn: () => unknown) => unknown;
  /** `total_changes()` when the WAL was last emptied. */
  private truncatedAt = 0;
  private isClosed = false;

  constructor(path: string, options: JournalOptions = {}) {
    this.path = path;
    this.now = options.now ?? Date.now;
    this.db = openDatabase(path);
    this.sql = statementCache(this.db);
    this.inTransaction = this.db.transaction((fn: () => unknown) => fn());
    const changes = this.db.prepare('SELECT total_changes()').pluck();
    this.totalChanges = () => Number(changes.get());
    try {
      this.durability = new JournalDurability(path, this.totalChanges, () => this.db.inTransaction);
    } catch (e) {
      this.db.close();
      throw wrapJournalError(path, 'unusable', e);
    }
    const guard = <T>(what: string, fn: () => T) => this.guard(what, fn);
    this.outbox = new JournalOutbox(this.db, guard);
    this.documents = new JournalDocuments(this.db, guard);
    this.rateBudget = new JournalRateBudget(this.db, guard);
    this.stats = new JournalStats(this.db, guard, (row) => rowToRecord(row as CommandRow, this.parseJson));
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * Resolves when every write made before the call is on disk (it survives a power cut, not only
   * a killed process). One sync serves every caller waiting at that moment and runs off the event
   * loop. Await it before a side effect that depends on what was written; `{grouped: true}` when
   * no device waits on it (see `FlushOptions`). Rejects with JOURNAL_ERROR when the journal is
   * closed or the disk refused to sync.
   */
  flush(options?: FlushOptions): Promise<void> {
    return this.durability.flush(options);
  }

  /** Settles once every sync started so far is over (`JournalDurability.syncsSettled`). */
  syncsSettled(): Promise<void> {
    return this.durability.syncsSettled();
  }

  /** Runs `fn` in one transaction (a savepoint when nested). */
  transaction<T>(fn: () => T): T {
    return this.guard('transaction', () => {
      try {
        return this.inTransaction(fn) as T;
      } catch (error) {
        // Rolled back: the outbox's index and the device stores' values may hold writes that are
        // no longer there.
        this.outbox.forgetIndex();
        this.deviceValues.clear();
        throw error;
      }
    });
  }

  has(id: string): boolean {
    return this.guard('read', () => this.sql('SELECT 1 FROM commands WHERE id = ?').get(id) !== undefined);
  }

  get(id: string): CommandRecord | undefined {
    return this.guard('read', () => {
      const row = this.sql('SELECT * FROM commands WHERE id = ?').get(id) as CommandRow | undefined;
      return row ? rowToRecord(row, this.parseJson) : undefined;
    });
  }

  machineState(id: string): MachineState | undefined {
    const head = this.head(id);
    return head ? { phase: head.phase, attempt: head.attempt, state: head.state } : undefined;
  }

  /** The machine state and identity of a command, without parsing any stored JSON. */
  head(id: string): CommandHead | undefined {
    return this.guard('read', () => {
      const row = this.sql(
        `SELECT phase, attempt, state, device_id AS deviceId, device_type AS deviceType, kind,
             created_utc AS createdUtc, source FROM commands WHERE id = ?`,
      ).get(id) as
        | (Omit<CommandHead, 'createdUtc' | 'source'> & {
            createdUtc: string | null;
            source: CommandHead['source'] | null;
          })
        | undefined;
      if (!row) return undefined;
      const { createdUtc, source, ...rest } = row;
      const head: CommandHead = createdUtc === null ? rest : { ...rest, createdUtc };
      if (source !== null) head.source = source;
      return head;
    });
  }

  /** Journals a new command in its first state. Rejects with JOURNAL_ERROR on a duplicate id. */
  insert(command: NewCommand, patch: CommandPatch): void {
    this.guard('insert', () => {
      this.sql(
        `INSERT INTO commands (id, device_id, device_name, device_type, kind, source, command_json, phase,
             state, attempt, created_utc, seen_at, updated_at, timeline_json)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        command.id,
        command.deviceId,
        command.deviceName,
        command.deviceType,
        command.kind,
        command.source ?? null,
        command.command ? this.documents.store(command.id, command.command) : null,
        INITIAL_STATE.phase,
        INITIAL_STATE.state,
        INITIAL_STATE.attempt,
        command.createdUtc ?? null,
        command.seenAt,
        command.seenAt,
        JSON.stringify(initialTimeline(command)),
      );
      this.update(command.id, patch);
    });
  }

  /**
   * Writes a transition. The timeline gets every state in `patch.reported`, and the new state
   * when it differs from the stored one. The timeline is appended in SQL (`json_insert`), so a
   * transition is one statement: reading and rewriting it was a read, two JSON passes and a write
   * for each of a receipt's six transitions (issue 26).
   */
  update(id: string, patch: CommandPatch): void {
    this.guard('update', () => {
      const reported = patch.reported ?? [];
      const newState = patch.machine.state;
      const lastReported = reported.at(-1) ?? null;
      const step = (state: CommandState) => JSON.stringify({ state, at: patch.at });
      let appended = 'timeline_json';
      for (let i = 0; i < reported.length; i++) appended = `json_insert(${appended}, '$[#]', json(?))`;
      const info = this.sql(
        `UPDATE commands SET
             timeline_json = CASE WHEN state IS NOT ? AND ? IS NOT ?
               THEN json_insert(${appended}, '$[#]', json(?)) ELSE ${appended} END,
             phase = ?, state = ?, attempt = ?, updated_at = ?,
             command_json = COALESCE(?, command_json), started_at = COALESCE(?, started_at),
             finished_at = COALESCE(?, finished_at), outcome = COALESCE(?, outcome),
             pickup_ms = COALESCE(?, pickup_ms), progress = COALESCE(?, progress),
             result_json = COALESCE(?, result_json), error_json = COALESCE(?, error_json),
             notes = COALESCE(?, notes)
           WHERE id = ?`,
      ).run(
        newState,
        lastReported,
        newState,
        ...reported.map(step),
        step(newState),
        ...reported.map(step),
        patch.machine.phase,
        newState,
        patch.machine.attempt,
        patch.at,
        patch.command ? this.documents.store(id, patch.command) : null,
        patch.startedAt ?? null,
        patch.finishedAt ?? null,
        patch.outcome ?? null,
        patch.pickupMs ?? null,
        patch.progress ?? null,
        json(patch.result),
        json(patch.error),
        json(patch.notes),
        id,
      );
      if (info.changes !== 1)
        throw new AgentError('JOURNAL_ERROR', `Journal ${this.path}: no command ${id} to update`);
      if (patch.outcome) {
        this.stats.count(patch.outcome);
        this.documents.close(id);
      }
    });
  }

  /**
   * The command as its driver needs it: the journaled command with its document put back (the
   * document is kept apart and read only here; see `command-data.ts`). Undefined when the command
   * or its data is not journaled.
   */
  commandForDriver(record: CommandRecord): PlatformCommand | undefined {
    if (!record.command) return undefined;
    return withDocument(record.command, this.documents.read(record.id));
  }

  /** Stores a driver checkpoint, as JSON (committed when this returns; `flush()` puts it on disk). */
  setCheckpoint(id: string, value: unknown): void {
    this.guard('checkpoint', () => {
      const text = JSON.stringify(value ?? null);
      const info = this.sql('UPDATE commands SET checkpoint_json = ? WHERE id = ?').run(text, id);
      if (info.changes !== 1) throw new AgentError('JOURNAL_ERROR', `Journal ${this.path}: no command ${id}`);
    });
  }

  /** Last progress fraction, kept for the page; not a transition. */
  setProgress(id: string, fraction: number): void {
    this.guard('progress', () => this.sql('UPDATE commands SET progress = ? WHERE id = ?').run(fraction, id));
  }

  /** Commands that still need work after a restart, oldest first: ids and phases only. */
  unfinished(): Array<{ id: string; deviceId: string; phase: Phase }> {
    return this.guard('read', () =>
      this.sql(
        `SELECT id, device_id AS deviceId, phase FROM commands
           WHERE phase IN (${UNFINISHED})
           ORDER BY seen_at, rowid`,
      ).all(),
    ) as Array<{ id: string; deviceId: string; phase: Phase }>;
  }

  /** The drivers' durable key-value store for one device. Values are JSON. */
  deviceStore(deviceId: string): DeviceStore {
    return createDeviceStore(
      this.sql,
      (what, fn) => this.guard(what, fn),
      this.deviceValues,
      deviceId,
      this.now,
      () => this.flush(),
    );
  }

  /** The file's settings as SQLite reports them (diagnostics, tests). */
  settings(): {
    journalMode: string;
    synchronous: 'off' | 'normal' | 'full' | 'extra';
    schemaVersion: number;
  } {
    return this.guard('settings', () => {
      const levels = ['off', 'normal', 'full', 'extra'] as const;
      return {
        journalMode: String(this.db.pragma('journal_mode', { simple: true })),
        synchronous: levels[Number(this.db.pragma('synchronous', { simple: true }))] ?? 'off',
        schemaVersion: Number(this.db.pragma('user_version', { simple: true })),
      };
    });
  }

  /**
   * Empties the WAL when anything was committed since the last time: every frame is copied into
   * the database file (where `secure_delete` has overwritten what was deleted) and the WAL file is
   * cut to zero bytes, so the older versions of closed commands' rows — guests' names, documents —
   * are no longer on disk. A reader elsewhere (doctor, a support bundle) keeps its snapshot: then
   * nothing waits (no busy timeout on the event loop) and it returns false, to be tried again.
   *
   * Durability (`durability.ts`) is kept: SQLite syncs the WAL before copying and the
   * database file after, and cuts the WAL only once every frame is in the synced database, so a
   * commit a pending flush covers is on disk in one file or the other. The WAL's handle stays
   * valid: the file is cut, not replaced. Costs one sync of the database file on the event loop,
   * as SQLite's own checkpoints do.
   */
  truncateWal(): boolean {
    return this.guard('checkpoint', () => {
      const changes = this.totalChanges();
      if (changes === this.truncatedAt) return false;
      this.db.pragma('busy_timeout = 0');
      try {
        const [row] = this.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
        if (row?.busy !== 0) return false;
      } finally {
        this.db.pragma(`busy_timeout = ${JOURNAL_BUSY_TIMEOUT_MS}`);
      }
      this.truncatedAt = changes;
      return true;
    });
  }

  /** Closes the file (checkpointing the WAL). Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.durability.close();
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      this.db.close();
    }
  }

  private guard<T>(what: string, fn: () => T): T {
    if (this.isClosed) throw new AgentError('JOURNAL_ERROR', `Journal ${this.path} is closed (${what})`);
    try {
      return fn();
    } catch (e) {
      throw wrapJournalError(this.path, what, e);
    }
  }

  private readonly parseJson = (text: string, what: string): unknown => {
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new AgentError('JOURNAL_ERROR', `Journal ${this.path}: unreadable ${what}`, { cause: e });
    }
  };
}

function initialTimeline(command: NewCommand): CommandRecord['timeline'] {
  const created = command.createdUtc ? Date.parse(command.createdUtc) : Number.NaN;
  return Number.isFinite(created) ? [{ state: 'Pending', at: created }] : [];
}

/**
 * Opens (creating when missing) the journal at `path`, or a private in-memory one for
 * `':memory:'`. Rejects with JOURNAL_ERROR when the file is corrupt, not a database, from a newer
 * agent, or cannot be created.
 */
export function openJournal(path: string, options: JournalOptions = {}): Journal {
  return new Journal(path, options);
}
