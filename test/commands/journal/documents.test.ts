import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { keptAfterClose } from '../../../src/commands/journal/command-data.js';
import { type Journal, openJournal } from '../../../src/commands/journal/journal.js';
import { MIGRATIONS } from '../../../src/commands/journal/schema.js';
import type { MachineState } from '../../../src/commands/rules/phases.js';
import {
  normalizeCommand,
  normalizeFiscalMachineCommand,
  type PlatformCommand,
} from '../../../src/connector/model.js';
import type { JobResult } from '../../../src/drivers-api/types.js';
import { textMessage } from '../../../src/messages/message.js';
import { tempFolderEachTest } from '../../helpers/temp-dir.js';
import {
  command,
  journaledCommand,
  wireFiscalCommand,
  wireKeyCommand,
  wirePrinterCommand,
} from '../helpers/commands.js';
import { FakePlatform } from '../helpers/fake-platform.js';
import { harness, T0 } from '../helpers/harness.js';
import { gate } from '../helpers/scripted-driver.js';

/**
 * The journal keeps a command's document once, apart from the JSON every step reads, and keeps
 * guests' data only while the command is open (issue 13, "Data minimisation"; issue 15, memory).
 */

const T = Date.parse('2026-01-01T00:00:10Z');
const PDF = Buffer.from('%PDF-1.4 a document about Maria Rossi').toString('base64');

const tempPath = tempFolderEachTest('journal-docs-');

const m = (phase: MachineState['phase'], state: MachineState['state'], attempt = 0): MachineState => ({
  phase,
  state,
  attempt,
});

function printCommand(id: string, fileData = PDF): PlatformCommand {
  const wire = wirePrinterCommand({ id });
  (wire.Data as Record<string, unknown>).FileData = fileData;
  return command(normalizeCommand(wire));
}

function guestKeyCommand(id: string): PlatformCommand {
  const wire = wireKeyCommand({ id });
  Object.assign(wire.Data as object, {
    Telephone: '+39 347 555 0192',
    Email: 'maria.rossi@esempio.it',
    NormalizedFirstName: 'Maria',
    NormalizedLastName: 'Rossi',
    ReservationNumber: '4711',
  });
  return command(normalizeCommand(wire));
}

function payloadFiscalCommand(id: string): PlatformCommand {
  const wire = wireFiscalCommand({ id });
  Object.assign(wire, {
    TaxIdentifier: 'RSSMRA80A01H501U',
    Creator: { FirstName: 'Anna', LastName: 'Staff' },
    CommandData: {
      Discriminator: 'ItalianFiscalMachinePayload',
      ItalianFiscalMachinePayload: { Payload: Buffer.from('<printerFiscalReceipt/>').toString('base64') },
    },
  });
  Object.assign(wire.Bill as object, { Name: 'Ricevuta – Maria Rossi' });
  return command(normalizeFiscalMachineCommand(wire));
}

function accept(journal: Journal, c: PlatformCommand): void {
  journal.insert(journaledCommand(c, T), {
    machine: m('accepted', 'Received'),
    at: T,
    reported: ['Received'],
  });
}

/** A journal in a file of the test's folder (so its raw rows can be read), with `c` accepted in it. */
function acceptedOnDisk(c: PlatformCommand): { path: string; journal: Journal } {
  const path = tempPath('j.db');
  const journal = openJournal(path);
  accept(journal, c);
  return { path, journal };
}

function finish(journal: Journal, id: string): void {
  journal.update(id, {
    machine: m('finished', 'Processed', 1),
    at: T + 5000,
    reported: ['Processed'],
    outcome: 'Processed',
    finishedAt: T + 5000,
    result: {
      notes: textMessage('Receipt 0001-0002 on RT 99MEY123456, total 12.00 EUR'),
      details: { receipt: '0001-0002' },
    },
    notes: textMessage('Receipt 0001-0002 on RT 99MEY123456, total 12.00 EUR'),
  });
}

function rawRow(path: string, id: string): { command_json: string | null; documents: number } {
  const db = new Database(path, { readonly: true });
  try {
    const row = db.prepare('SELECT command_json FROM commands WHERE id = ?').get(id) as {
      command_json: string | null;
    };
    const docs = db.prepare('SELECT COUNT(*) AS n FROM command_documents WHERE command_id = ?').get(id) as {
      n: number;
    };
    return { command_json: row.command_json, documents: docs.n };
  } finally {
    db.close();
  }
}

describe('journal: documents apart', () => {
  it('stores a print job’s FileData once, outside the JSON each step reads, and hands it to the driver', () => {
    const c = printCommand('p1');
    const { path, journal } = acceptedOnDisk(c);
    const record = journal.get('p1');
    expect(record?.command?.data).toMatchObject({ kind: 'print', print: { fileData: '', copyCount: 1 } });
    expect(journal.commandForDriver(record as NonNullable<typeof record>)?.data).toEqual(c.data);

    // A re-read brings the whole command again: the JSON is rewritten, the document is not doubled.
    journal.update('p1', { machine: m('starting', 'Received'), at: T + 1, command: printCommand('p1') });
    // A sighting's copy comes without its document (`StartCheck` keeps none): the journal keeps it.
    journal.update('p1', { machine: m('starting', 'Received'), at: T + 2, command: printCommand('p1', '') });
    const afterSighting = journal.get('p1');
    expect(afterSighting && journal.commandForDriver(afterSighting)?.data).toEqual(c.data);
    journal.close();
    const raw = rawRow(path, 'p1');
    expect(raw.command_json).not.toContain(PDF);
    expect(raw.documents).toBe(1);

    // Crash safety: the document is on disk with the command; after a restart the driver gets it.
    const reopened = openJournal(path);
    const again = reopened.get('p1');
    expect(again && reopened.commandForDriver(again)?.data).toEqual(c.data);
    reopened.close();
  });

  it('keeps a fiscal payload apart too', () => {
    const journal = openJournal(':memory:');
    const c = payloadFiscalCommand('f1');
    accept(journal, c);
    const record = journal.get('f1');
    expect(record?.command?.data).toMatchObject({ fiscal: { document: { type: 'payload', base64: '' } } });
    expect(record && journal.commandForDriver(record)?.data).toEqual(c.data);
    journal.close();
  });
});

describe('journal: personal data only while a command is open', () => {
  it('a key command keeps its guest while open; once closed only rooms, count, stay and ids', () => {
    const c = guestKeyCommand('k1');
    const { path, journal } = acceptedOnDisk(c);
    expect(journal.get('k1')?.command).toEqual(c);
    finish(journal, 'k1');
    const kept = journal.get('k1');
    expect(kept?.command).toEqual({
      id: 'k1',
      state: 'Pending',
      createdUtc: '2026-01-01T00:00:00Z',
      device: { id: 'dev-keys-1', type: 'KeyCutter', name: 'Front desk encoder' },
      source: 'commands',
      data: {
        kind: 'keys',
        keys: {
          keyCount: 2,
          lockIds: ['101'],
          startUtc: '2026-01-01T14:00:00Z',
          endUtc: '2026-01-03T10:00:00Z',
          guest: { lastName: '' },
          reservationId: 'res-1',
          keyCutterId: 'ENC1',
          settings: { value: {} },
        },
      },
    });
    expect(kept?.result?.details).toEqual({ receipt: '0001-0002' });
    journal.close();
    const raw = JSON.stringify(rawRow(path, 'k1'));
    for (const word of ['Maria', 'Rossi', 'esempio', '0192', 'Sample', '4711'])
      expect(raw).not.toContain(word);
  });

  it('a fiscal command keeps the bill’s id and number and the document kind; no tax id, bill name, creator, payload', () => {
    const { path, journal } = acceptedOnDisk(payloadFiscalCommand('f1'));
    finish(journal, 'f1');
    expect(journal.get('f1')?.command?.data).toEqual({
      kind: 'fiscal',
      fiscal: {
        fiscalMachineId: 'FM-001',
        machineSettings: { value: {} },
        bill: { id: 'bill-f1', number: '1001' },
        document: { type: 'payload', base64: '' },
      },
    });
    journal.close();
    const raw = rawRow(path, 'f1');
    expect(raw.documents).toBe(0);
    for (const word of ['RSSMRA', 'Rossi', 'Anna', 'Staff', 'printerPort'])
      expect(raw.command_json).not.toContain(word);
  });

  it('a print command loses its document at its outcome, whatever the outcome', () => {
    const journal = openJournal(':memory:');
    accept(journal, printCommand('p1'));
    journal.update('p1', {
      machine: m('skipped', 'Cancelled'),
      at: T + 1,
      outcome: 'Cancelled',
      finishedAt: T + 1,
    });
    const record = journal.get('p1');
    expect(record && journal.commandForDriver(record)?.data).toEqual({
      kind: 'print',
      print: { copyCount: 1, fileType: 'application/pdf', fileData: '', printerName: 'Printer' },
    });
    journal.close();
  });
});

describe('journal: a journal written before documents were kept apart', () => {
  it('is migrated on open: open commands’ documents move out, closed commands lose personal data', () => {
    const path = tempPath('old.db');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    MIGRATIONS[0]?.(db);
    db.pragma('user_version = 1');
    const insert = db.prepare(
      `INSERT INTO commands (id, device_id, device_name, device_type, kind, source, command_json, phase, state,
         outcome, attempt, seen_at, updated_at, timeline_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, '[]')`,
    );
    const open = printCommand('p-open');
    const closed = guestKeyCommand('k-closed');
    const broken = '{"not json';
    insert.run(
      'p-open',
      'dev-printer-1',
      'P',
      'Printer',
      'print',
      'commands',
      JSON.stringify(open),
      'accepted',
      'Received',
      null,
      T,
      T,
    );
    insert.run(
      'k-closed',
      'dev-keys-1',
      'K',
      'KeyCutter',
      'keys',
      'commands',
      JSON.stringify(closed),
      'closed',
      'Processed',
      'Processed',
      T,
      T,
    );
    insert.run(
      'k-broken',
      'dev-keys-1',
      'K',
      'KeyCutter',
      'keys',
      'commands',
      broken,
      'closed',
      'Error',
      'Error',
      T,
      T,
    );
    db.close();

    const journal = openJournal(path);
    expect(journal.settings().schemaVersion).toBe(MIGRATIONS.length);
    const p = journal.get('p-open');
    expect(p?.command?.data).toMatchObject({ print: { fileData: '' } });
    expect(p && journal.commandForDriver(p)?.data).toEqual(open.data);
    expect(journal.get('k-closed')?.command).toEqual(keptAfterClose(closed));
    journal.close();
    expect(rawRow(path, 'k-closed').command_json).not.toContain('Rossi');
    expect(rawRow(path, 'k-broken').command_json).toBeNull();
  });
});

describe('engine: a print job’s document through a crash', () => {
  it('runs with its document, reconciles with it after a restart, and drops it once closed', async () => {
    const path = tempPath('journal.db');
    let clock = new ManualClock(T0);
    const platform = new FakePlatform(() => clock.now());
    const wire = wirePrinterCommand({ id: 'p1' });
    (wire.Data as Record<string, unknown>).FileData = PDF;
    platform.add({ wire });
    const first = harness({ journalPath: path, platform, clock });
    first.drivers.printer.next(async (job, ctx) => {
      expect(job.data).toMatchObject({ kind: 'print', print: { fileData: PDF } });
      ctx.checkpoint({ sent: true });
      return gate<JobResult>().promise;
    });
    await first.engine.start();
    await first.until(() => first.journal.get('p1')?.phase === 'running', 'p1 running');
    expect(rawRow(path, 'p1').documents).toBe(1);

    // The first agent is abandoned mid-job; a second one starts on the same file.
    clock = new ManualClock(clock.now() + 30_000);
    const second = harness({ journalPath: path, platform, clock });
    second.drivers.printer.nextReconcile({ outcome: 'not-done' });
    await second.engine.start();
    await second.until(() => platform.state('p1') === 'Processed', 'p1 processed');
    expect(second.drivers.printer.reconciled[0]?.data).toMatchObject({ print: { fileData: PDF } });
    expect(second.drivers.printer.executed[0]?.data).toMatchObject({ print: { fileData: PDF } });
    await second.until(() => second.journal.get('p1')?.phase === 'closed', 'p1 closed');
    await second.engine.stop(1000);
    expect(rawRow(path, 'p1')).toMatchObject({ documents: 0 });
    expect(rawRow(path, 'p1').command_json).not.toContain(PDF);
  });
});
