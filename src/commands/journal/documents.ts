import type Database from 'better-sqlite3';
import type { PlatformCommand } from '../../connector/model.js';
import { keptAfterClose, type StoredDocument, splitDocument } from './command-data.js';

/**
 * The journal's `command_documents` table: each open command's document (see `command-data.ts`),
 * written once when the command is journaled, read only for a driver call, deleted when the
 * command gets its outcome. Crash safety is the journal's: the document is on disk with the
 * command, so after a restart an accepted command still runs and a started one still reconciles.
 *
 * Base64 text is one row (`field` = `fileData` or `payload`). A document the connector decoded as
 * it arrived (`PrintJobData.document`) is kept as its parts, never joined: a row `fileData#` with
 * the number of parts (or `invalid`: the text was not Base64), then one BLOB row per part,
 * `fileData#0`, `fileData#1` … (SQLite keeps a BLOB as a BLOB in any column). Each part is bound
 * on its own, so storing a 20 MB PDF copies at most a part at a time.
 */

type Db = Database.Database;
type Guard = <T>(what: string, fn: () => T) => T;

export const DOCUMENTS_TABLE = `
  CREATE TABLE command_documents (
    command_id TEXT NOT NULL,
    field TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (command_id, field)
  );`;

export class JournalDocuments {
  constructor(
    private readonly db: Db,
    private readonly guard: Guard,
  ) {}

  /**
   * The command's JSON as the journal stores it; its document goes to the table (the first copy
   * is kept: a re-read brings the same document again).
   */
  store(commandId: string, command: PlatformCommand): string {
    const { stored, document } = splitDocument(command);
    if (document) {
      this.guard('document', () => {
        // Asked first: binding a large document only to have it ignored would copy it for nothing.
        const kept = this.db
          .prepare('SELECT 1 FROM command_documents WHERE command_id = ? AND (field = ? OR field = ?)')
          .get(commandId, document.field, `${document.field}#`);
        if (kept) return;
        const insert = this.db.prepare(
          'INSERT INTO command_documents (command_id, field, text) VALUES (?, ?, ?)',
        );
        if (typeof document.text === 'string') {
          insert.run(commandId, document.field, document.text);
          return;
        }
        const { parts, bytes, valid } = document.text;
        let count = 0;
        if (valid) for (const part of parts) insert.run(commandId, `${document.field}#${count++}`, part);
        insert.run(commandId, `${document.field}#`, valid ? `${count}:${bytes}` : 'invalid');
      });
    }
    return JSON.stringify(stored);
  }

  /**
   * The command's documents by field (empty once it closed, or when it had none). A decoded
   * document's parts are read from the journal one at a time as they are iterated (the IPP
   * request takes them as its socket drains), so the driver never holds the whole document.
   */
  read(commandId: string): Map<string, StoredDocument> {
    return this.guard('document', () => {
      const rows = this.db
        .prepare("SELECT field, text FROM command_documents WHERE command_id = ? AND field NOT GLOB '*#?*'")
        .all(commandId) as Array<{ field: string; text: string }>;
      const out = new Map<string, StoredDocument>();
      for (const row of rows) {
        if (!row.field.endsWith('#')) {
          out.set(row.field, row.text);
          continue;
        }
        const field = row.field.slice(0, -1);
        const [count, bytes] = String(row.text).split(':').map(Number);
        if (row.text === 'invalid' || count === undefined || bytes === undefined) {
          out.set(field, { parts: [], bytes: 0, valid: false });
          continue;
        }
        out.set(field, { parts: this.lazyParts(commandId, field, count), bytes, valid: true });
      }
      return out;
    });
  }

  private lazyParts(commandId: string, field: string, count: number): Iterable<Buffer> {
    const read = (i: number) =>
      this.guard('document', () => {
        const row = this.db
          .prepare('SELECT text FROM command_documents WHERE command_id = ? AND field = ?')
          .get(commandId, `${field}#${i}`) as { text: Buffer } | undefined;
        if (!row || !Buffer.isBuffer(row.text)) throw new Error(`part ${i} of the document is missing`);
        return row.text;
      });
    return {
      *[Symbol.iterator]() {
        for (let i = 0; i < count; i++) yield read(i);
      },
    };
  }

  /** The command closed: its document goes, and its JSON keeps only `keptAfterClose`. */
  close(commandId: string): void {
    this.guard('close', () => closeRow(this.db, commandId));
  }
}

function closeRow(db: Db, commandId: string): void {
  db.prepare('DELETE FROM command_documents WHERE command_id = ?').run(commandId);
  const row = db.prepare('SELECT command_json FROM commands WHERE id = ?').get(commandId) as
    | { command_json: string | null }
    | undefined;
  if (!row?.command_json) return;
  let kept: string | null;
  try {
    kept = JSON.stringify(keptAfterClose(JSON.parse(row.command_json) as PlatformCommand));
  } catch {
    // Unreadable: nothing of it is needed any more, and nothing of it may stay.
    kept = null;
  }
  db.prepare('UPDATE commands SET command_json = ? WHERE id = ?').run(kept, commandId);
}

/**
 * Schema step for journals written before documents were kept apart: documents of open commands
 * move to their table, and commands that have their outcome keep only `keptAfterClose`, as if
 * they had closed under this version.
 */
export function separateDocuments(db: Db): void {
  db.exec(DOCUMENTS_TABLE);
  const rows = db
    .prepare('SELECT id, outcome, command_json FROM commands WHERE command_json IS NOT NULL')
    .all() as Array<{ id: string; outcome: string | null; command_json: string }>;
  const insert = db.prepare(
    'INSERT OR IGNORE INTO command_documents (command_id, field, text) VALUES (?, ?, ?)',
  );
  const write = db.prepare('UPDATE commands SET command_json = ? WHERE id = ?');
  for (const row of rows) {
    if (row.outcome !== null) {
      closeRow(db, row.id);
      continue;
    }
    let command: PlatformCommand;
    try {
      command = JSON.parse(row.command_json) as PlatformCommand;
    } catch {
      continue; // left as it was: reading it fails as it did before
    }
    const { stored, document } = splitDocument(command);
    if (!document || typeof document.text !== 'string') continue;
    insert.run(row.id, document.field, document.text);
    write.run(JSON.stringify(stored), row.id);
  }
}
