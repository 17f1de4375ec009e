import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { keptAfterClose, openJournal } from '../../src/commands/journal/index.js';
import { MIGRATIONS } from '../../src/commands/journal/schema.js';
import { normalizeCommand, type PlatformCommand } from '../../src/connector/model.js';
import { wireKeyCommand, wirePrinterCommand } from '../commands/helpers/commands.js';
import { harness } from '../commands/helpers/harness.js';
import { tempFolderEachTest } from '../helpers/temp-dir.js';

/**
 * Issue 27, finding 6: deleted guest data stayed on disk. SQLite's `secure_delete` was never on:
 * after a command closed (the UPDATE that keeps only `keptAfterClose`, the DELETE of its
 * document) and even a truncating checkpoint, the file still held a guest's surname and the
 * deleted document's bytes in free space, and the WAL held every version of the row until SQLite
 * happened to overwrite it. Someone who copies the disk reads them.
 *
 * Now: `secure_delete` is on before the migrations, an older journal is vacuumed once when it is
 * opened, and the engine empties the WAL (`wal_checkpoint(TRUNCATE)`) every
 * `walTruncateEveryMs` when anything was written. These tests read the raw bytes of the database
 * file and its WAL, as someone with the disk would.
 */

const SURNAME = 'Quarantotti';
const FIRST_NAME = 'Zebedeo';
const PHONE = '+39 347 555 0192';
const EMAIL = 'zebedeo.quarantotti@esempio.it';
/** A document large enough to spill onto overflow pages, each line telling where it came from. */
const DOCUMENT = `%PDF-1.4\n${Array.from({ length: 600 }, (_, i) => `riga ${i} del contratto di ${SURNAME}`).join('\n')}`;
const DOCUMENT_BASE64 = Buffer.from(DOCUMENT).toString('base64');
/** Slices of the Base64 text from the start, the middle and the end of the document. */
const DOCUMENT_PIECES = [0, 0.5, 0.9].map((at) => {
  const from = Math.floor((DOCUMENT_BASE64.length * at) / 4) * 4;
  return DOCUMENT_BASE64.slice(from, from + 40);
});
const GUEST_STRINGS = [SURNAME, FIRST_NAME, PHONE, EMAIL, ...DOCUMENT_PIECES];

const tempPath = tempFolderEachTest('deleted-data-');

/** The database file and its WAL as someone with the disk reads them. */
function diskBytes(path: string): string {
  const read = (file: string) => (existsSync(file) ? readFileSync(file).toString('latin1') : '');
  return read(path) + read(`${path}-wal`);
}

function found(bytes: string): string[] {
  return GUEST_STRINGS.filter((text) => bytes.includes(text));
}

function guestKeyWire(id: string): Record<string, unknown> {
  const wire = wireKeyCommand({ id });
  Object.assign(wire.Data as object, {
    FirstName: FIRST_NAME,
    LastName: SURNAME,
    NormalizedFirstName: FIRST_NAME,
    NormalizedLastName: SURNAME,
    Telephone: PHONE,
    Email: EMAIL,
  });
  return wire;
}

function documentWire(id: string): Record<string, unknown> {
  const wire = wirePrinterCommand({ id });
  (wire.Data as Record<string, unknown>).FileData = DOCUMENT_BASE64;
  return wire;
}

describe('deleted means gone: the journal’s file and WAL', () => {
  it('after a key and a print command close, neither the file nor the WAL holds a guest’s name or a byte of the document', async () => {
    const path = tempPath('journal.db');
    const h = harness({ journalPath: path, tuning: { walTruncateEveryMs: 60_000 } });
    h.platform.add({ wire: guestKeyWire('k1') });
    h.platform.add({ wire: documentWire('p1') });
    await h.engine.start();
    await h.until(
      () => h.journal.get('k1')?.phase === 'closed' && h.journal.get('p1')?.phase === 'closed',
      'both commands closed',
    );
    // While the WAL still holds the rows as they were, the names are there: the test reads the
    // bytes that matter.
    expect(found(diskBytes(path))).toContain(SURNAME);

    await h.advance(60_000, 1000);
    expect(found(diskBytes(path))).toEqual([]);
    // The journal still works and keeps what it should.
    expect(h.journal.get('k1')?.command?.data).toMatchObject({ kind: 'keys', keys: { lockIds: ['101'] } });
    await h.engine.stop(1000);
    expect(found(diskBytes(path))).toEqual([]);
  });

  it('a journal written before secure_delete is cleaned once when the agent opens it', () => {
    const path = tempPath('old.db');
    writeOldJournalWithResidue(path);
    // The residue an older agent left: the closed command's names and document in free space.
    expect(found(diskBytes(path)).length).toBeGreaterThan(0);

    const journal = openJournal(path);
    expect(found(diskBytes(path))).toEqual([]);
    expect(journal.get('k-old')?.outcome).toBe('Processed');
    journal.close();
    expect(found(diskBytes(path))).toEqual([]);
  });
});

/**
 * A schema-version-2 journal as the previous agent wrote it (no secure_delete): a key command
 * and a print command journaled, then closed as that agent closed them, then checkpointed.
 */
function writeOldJournalWithResidue(path: string): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('secure_delete = OFF');
  db.transaction(() => {
    for (const step of MIGRATIONS.slice(0, 2)) step(db);
    db.pragma('user_version = 2');
  })();
  const insert = db.prepare(
    `INSERT INTO commands (id, device_id, device_name, device_type, kind, command_json, phase, state,
       seen_at, updated_at, timeline_json) VALUES (?, 'dev', 'Device', ?, ?, ?, 'accepted', 'Received', 1, 1, '[]')`,
  );
  const key = normalizeCommand(guestKeyWire('k-old'));
  const print = normalizeCommand(documentWire('p-old'));
  if (!key.ok || !print.ok) throw new Error('test commands must normalise');
  insert.run('k-old', 'KeyCutter', 'keys', JSON.stringify(key.command));
  insert.run('p-old', 'Printer', 'print', '{}');
  db.prepare("INSERT INTO command_documents (command_id, field, text) VALUES ('p-old', 'fileData', ?)").run(
    DOCUMENT_BASE64,
  );
  db.pragma('wal_checkpoint(TRUNCATE)');
  // The close, as the previous agent did it.
  const kept = JSON.stringify(keptAfterClose(key.command as PlatformCommand));
  db.prepare(
    "UPDATE commands SET command_json = ?, phase = 'closed', state = 'Processed', outcome = 'Processed' WHERE id = 'k-old'",
  ).run(kept);
  db.prepare("DELETE FROM command_documents WHERE command_id = 'p-old'").run();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
