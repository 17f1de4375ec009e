import { fdatasync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * The least a journal could do for one receipt, written straight on better-sqlite3 with the same
 * pragmas as ours (WAL, `synchronous = NORMAL`, `secure_delete`): the command row with its 2 KB
 * document, three state changes each with its outbox row, each outbox row deleted once delivered,
 * a rate-budget slot granted and settled per update, and two syncs of the WAL (the checkpoint
 * before the printer acts, the result before it is reported). No timeline, no scrub at close, no
 * checks, no cache: a reference for what our journal's own code costs above SQLite
 * (`required-work.ts`), not a design to adopt.
 */
export class MinimalJournal {
  private readonly db: Database.Database;
  private readonly wal: number;
  private readonly sql: Record<string, Database.Statement>;

  constructor(dir: string) {
    this.db = new Database(join(dir, 'minimal.db'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('secure_delete = ON');
    this.db.exec(`
      CREATE TABLE commands (id TEXT PRIMARY KEY, document TEXT, state TEXT NOT NULL, result TEXT);
      CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, command_id TEXT NOT NULL, state TEXT NOT NULL);
      CREATE TABLE slots (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, open INTEGER NOT NULL);
    `);
    this.wal = openSync(join(dir, 'minimal.db-wal'), 'r+');
    this.sql = {
      insert: this.db.prepare('INSERT INTO commands (id, document, state) VALUES (?, ?, ?)'),
      state: this.db.prepare('UPDATE commands SET state = ?, result = ? WHERE id = ?'),
      queue: this.db.prepare('INSERT INTO outbox (command_id, state) VALUES (?, ?)'),
      delivered: this.db.prepare('DELETE FROM outbox WHERE seq = ?'),
      grant: this.db.prepare('INSERT INTO slots (at, open) VALUES (?, 1)'),
      settle: this.db.prepare('UPDATE slots SET at = ?, open = 0 WHERE id = ?'),
    };
  }

  /** One receipt from intake to close. */
  async receipt(id: string, document: string): Promise<void> {
    const { sql, db } = this;
    const report = (state: string, result: string | null, before?: () => void): number | bigint =>
      db.transaction(() => {
        before?.();
        (sql.state as Database.Statement).run(state, result, id);
        return (sql.queue as Database.Statement).run(id, state).lastInsertRowid;
      })();
    const deliver = (seq: number | bigint) => {
      const slot = (sql.grant as Database.Statement).run(Date.now()).lastInsertRowid;
      (sql.delivered as Database.Statement).run(seq);
      (sql.settle as Database.Statement).run(Date.now(), slot);
    };
    const received = report('Received', null, () =>
      (sql.insert as Database.Statement).run(id, document, 'Pending'),
    );
    deliver(received);
    const processing = report('Processing', '{"checkpoint":{"z":12,"doc":34}}');
    await this.sync();
    deliver(processing);
    const processed = report('Processed', '{"receipt":"0012-0034","notes":"Receipt 0012-0034"}');
    await this.sync();
    deliver(processed);
  }

  close(): void {
    this.db.close();
  }

  private sync(): Promise<void> {
    return new Promise((resolve, reject) =>
      fdatasync(this.wal, (error) => (error ? reject(error) : resolve())),
    );
  }
}
