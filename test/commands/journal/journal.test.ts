import { statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  type CommandPatch,
  type Journal,
  type NewCommand,
  openJournal,
} from '../../../src/commands/journal/journal.js';
import { SCHEMA_VERSION } from '../../../src/commands/journal/schema.js';
import type { MachineState } from '../../../src/commands/rules/machine.js';
import { engineMessages } from '../../../src/commands/rules/messages.js';
import { AgentError } from '../../../src/errors.js';
import { readMessage, textMessage } from '../../../src/messages/message.js';
import { english, messageRenderer } from '../../../src/messages/render.js';
import { tempFolderEachTest } from '../../helpers/temp-dir.js';
import { keyCommand } from '../helpers/commands.js';

const MIN = 60_000;
const T = Date.parse('2026-01-01T00:00:10Z');

const tempPath = tempFolderEachTest('journal-');

function newCommand(id: string, seenAt = T): NewCommand {
  const command = keyCommand({ id });
  return {
    id,
    deviceId: command.device.id,
    deviceName: 'Front desk encoder',
    deviceType: 'KeyCutter',
    kind: command.data.kind,
    source: command.source,
    command,
    createdUtc: command.createdUtc,
    seenAt,
  };
}

const m = (phase: MachineState['phase'], state: MachineState['state'], attempt = 0): MachineState => ({
  phase,
  state,
  attempt,
});

function accept(journal: Journal, id: string, at = T): void {
  journal.insert(newCommand(id, at), {
    machine: m('accepted', 'Received'),
    at,
    reported: ['Received'],
    pickupMs: 10_000,
  });
}

function finish(
  journal: Journal,
  id: string,
  at: number,
  outcome: 'Processed' | 'Error' = 'Processed',
): void {
  const patch: CommandPatch = {
    machine: m('closed', outcome, 1),
    at,
    reported: [outcome],
    outcome,
    finishedAt: at,
    notes: textMessage(outcome === 'Processed' ? 'Two keys written' : 'No card in the encoder.'),
  };
  if (outcome === 'Processed')
    patch.result = { notes: textMessage('Two keys written'), details: { cards: 2 } };
  else patch.error = new AgentError('NO_CARD', 'no card').toJSON();
  journal.update(id, patch);
}

describe('journal', () => {
  it('uses WAL with synchronous=NORMAL (flushed by group commit) and records its schema version', () => {
    const journal = openJournal(tempPath('j.db'));
    expect(journal.settings()).toEqual({
      journalMode: 'wal',
      synchronous: 'normal',
      schemaVersion: SCHEMA_VERSION,
    });
    journal.close();
  });

  it('keeps commands, timelines, checkpoints, outbox and device store across a reopen', () => {
    const path = tempPath('j.db');
    const first = openJournal(path, { now: () => T });
    accept(first, 'c1');
    first.outbox.add({ commandId: 'c1', state: 'Received' }, T);
    first.update('c1', {
      machine: m('running', 'Processing', 1),
      at: T + 1000,
      reported: ['Processing'],
      startedAt: T + 1000,
    });
    const checkpoint = { phase: 'card-written', cards: [{ n: 1, serial: 'A1' }], at: '2026-01-01T00:00:11Z' };
    first.setCheckpoint('c1', checkpoint);
    first.deviceStore('fiscal-1').set('baseline', { z: 12, doc: 34 });
    first.close();

    const again = openJournal(path);
    const record = again.get('c1');
    expect(record).toMatchObject({
      phase: 'running',
      state: 'Processing',
      attempt: 1,
      checkpoint,
      seenAt: T,
      startedAt: T + 1000,
      pickupMs: 10_000,
      kind: 'keys',
      source: 'commands',
    });
    expect(record?.command?.data).toMatchObject({ kind: 'keys', keys: { keyCount: 2, lockIds: ['101'] } });
    expect(record?.timeline).toEqual([
      { state: 'Pending', at: Date.parse('2026-01-01T00:00:00Z') },
      { state: 'Received', at: T },
      { state: 'Processing', at: T + 1000 },
    ]);
    expect(again.outbox.pendingFor('c1').map((i) => i.state)).toEqual(['Received']);
    expect(again.deviceStore('fiscal-1').get('baseline')).toEqual({ z: 12, doc: 34 });
    expect(again.unfinished()).toEqual([{ id: 'c1', deviceId: 'dev-keys-1', phase: 'running' }]);
    again.close();
  });

  it('keeps device stores apart and deletes a key set to undefined', () => {
    const journal = openJournal(':memory:');
    const a = journal.deviceStore('a');
    const b = journal.deviceStore('b');
    a.set('k', [1, 2]);
    b.set('k', 'other');
    expect([a.get('k'), b.get('k'), a.get('missing')]).toEqual([[1, 2], 'other', undefined]);
    a.set('k', undefined);
    expect(a.get('k')).toBeUndefined();
    expect(b.get('k')).toBe('other');
    journal.close();
  });

  it('device store reads come from memory, give fresh objects, and forget a rolled-back write', () => {
    const journal = openJournal(':memory:');
    const store = journal.deviceStore('a');
    store.set('counters', { z: 1, doc: 2 });
    const read = store.get('counters') as { z: number };
    read.z = 99;
    expect(store.get('counters')).toEqual({ z: 1, doc: 2 });
    expect(() =>
      journal.transaction(() => {
        store.set('counters', { z: 5, doc: 6 });
        store.set('fresh', true);
        throw new Error('rolled back');
      }),
    ).toThrow();
    expect(store.get('counters')).toEqual({ z: 1, doc: 2 });
    expect(store.get('fresh')).toBeUndefined();
    // A second store object for the same device (a driver re-created) sees the same values.
    store.set('counters', { z: 3, doc: 4 });
    expect(journal.deviceStore('a').get('counters')).toEqual({ z: 3, doc: 4 });
    journal.close();
  });

  it('supersedes pending progress-only updates, a milestone only by the result, never one being sent', () => {
    const journal = openJournal(':memory:');
    accept(journal, 'c1');
    const add = (update: Parameters<Journal['outbox']['add']>[0], inFlight = new Set<number>()) =>
      journal.outbox.add(update, T, inFlight);
    add({ commandId: 'c1', state: 'Processing', progress: 0 });
    const sending = new Set([
      add({ commandId: 'c1', state: 'Processing', progress: 0.2, progressOnly: true }),
    ]);
    add(
      { commandId: 'c1', state: 'Processing', progress: 0.3, progressOnly: true, milestone: true },
      sending,
    );
    add({ commandId: 'c1', state: 'Processing', progress: 0.4, progressOnly: true }, sending);
    add({ commandId: 'c1', state: 'Processing', progress: 0.6, progressOnly: true }, sending);
    const pending = () => journal.outbox.pendingFor('c1').map((i) => `${i.state}:${i.progress ?? '-'}`);
    expect(pending()).toEqual(['Processing:0', 'Processing:0.2', 'Processing:0.3', 'Processing:0.6']);
    add({ commandId: 'c1', state: 'Processed', notes: 'ok' }, sending);
    // The result says it all: unsent progress, milestones included, would show nothing.
    expect(pending()).toEqual(['Processing:0', 'Processing:0.2', 'Processed:-']);
    journal.close();
  });

  it('orders outbox heads per command, results first, skipping commands being delivered', () => {
    const journal = openJournal(':memory:');
    for (const id of ['a', 'b', 'c']) accept(journal, id);
    journal.outbox.add({ commandId: 'a', state: 'Received' }, T);
    journal.outbox.add({ commandId: 'b', state: 'Received' }, T);
    journal.outbox.add({ commandId: 'a', state: 'Processing', progress: 0 }, T);
    journal.outbox.add({ commandId: 'c', state: 'Error', notes: 'x' }, T);
    expect(journal.outbox.heads(10).map((i) => `${i.commandId}:${i.state}`)).toEqual([
      'c:Error',
      'a:Received',
      'b:Received',
    ]);
    expect(journal.outbox.heads(10, new Set(['a', 'c'])).map((i) => i.commandId)).toEqual(['b']);
    expect(journal.outbox.state()).toEqual({ pending: 4, oldestAt: T });
    journal.close();
  });

  it('ranks a command by its most urgent pending update: a result behind its own Received beats a queue of Received', () => {
    const journal = openJournal(':memory:');
    for (const id of ['waiting1', 'waiting2', 'started', 'done']) accept(journal, id);
    journal.outbox.add({ commandId: 'waiting1', state: 'Received' }, T);
    journal.outbox.add({ commandId: 'started', state: 'Received' }, T);
    journal.outbox.add({ commandId: 'done', state: 'Received' }, T);
    journal.outbox.add({ commandId: 'waiting2', state: 'Received' }, T);
    journal.outbox.add({ commandId: 'started', state: 'Processing', progress: 0 }, T);
    journal.outbox.add({ commandId: 'done', state: 'Processing', progress: 0 }, T);
    journal.outbox.add({ commandId: 'done', state: 'Processed', notes: 'ok' }, T);
    // Each command's own order holds: its first pending update is its head.
    expect(journal.outbox.heads(10).map((i) => `${i.commandId}:${i.state}`)).toEqual([
      'done:Received',
      'started:Received',
      'waiting1:Received',
      'waiting2:Received',
    ]);
    journal.close();
  });

  it('counts outcomes, lists recent commands and buckets them per minute', () => {
    const journal = openJournal(':memory:');
    accept(journal, 'ok', T);
    accept(journal, 'bad', T + MIN);
    accept(journal, 'waiting', T + 2 * MIN);
    finish(journal, 'ok', T + 30_000);
    finish(journal, 'bad', T + MIN + 5000, 'Error');
    expect(journal.stats.totals()).toEqual({ processed: 1, failed: 1, cancelled: 0, inFlight: 1 });
    const recent = journal.stats.recent(2);
    expect(recent.map((c) => c.id)).toEqual(['waiting', 'bad']);
    expect(recent[1]).toMatchObject({
      state: 'Error',
      notes: textMessage('No card in the encoder.'),
      error: { code: 'NO_CARD' },
      deviceName: 'Front desk encoder',
    });
    expect(journal.stats.recent(3)[2]?.result).toEqual({ cards: 2 });
    const buckets = journal.stats.perMinute(T + 2 * MIN);
    expect(buckets).toHaveLength(60);
    const minute = (at: number) => Math.floor(at / MIN) * MIN;
    expect(buckets.at(-1)?.minute).toBe(minute(T + 2 * MIN));
    expect(buckets.find((b) => b.minute === minute(T))).toMatchObject({
      processed: 1,
      failed: 0,
      pickupP50Ms: 10_000,
    });
    expect(buckets.find((b) => b.minute === minute(T + MIN))).toMatchObject({ processed: 0, failed: 1 });
    journal.close();
  });

  it('prunes only terminal commands older than the cut-off with nothing left to deliver, keeping counters', () => {
    const journal = openJournal(':memory:');
    const DAY = 86_400_000;
    accept(journal, 'old-done', T - 40 * DAY);
    finish(journal, 'old-done', T - 40 * DAY);
    accept(journal, 'old-undelivered', T - 40 * DAY);
    finish(journal, 'old-undelivered', T - 40 * DAY);
    journal.outbox.add({ commandId: 'old-undelivered', state: 'Processed', notes: 'x' }, T - 40 * DAY);
    accept(journal, 'old-but-waiting', T - 40 * DAY);
    accept(journal, 'recent-done', T - DAY);
    finish(journal, 'recent-done', T - DAY);
    expect(journal.stats.prune(T - 30 * DAY)).toBe(1);
    expect(
      ['old-done', 'old-undelivered', 'old-but-waiting', 'recent-done'].map((id) => journal.has(id)),
    ).toEqual([false, true, true, true]);
    expect(journal.stats.totals().processed).toBe(3);
    journal.close();
  });

  it('empties the WAL when something was written, and never waits for a reader’s snapshot', () => {
    const path = tempPath('wal.db');
    const journal = openJournal(path);
    const walBytes = () => statSync(`${path}-wal`).size;
    expect(journal.truncateWal()).toBe(false);
    accept(journal, 'k1');
    expect(walBytes()).toBeGreaterThan(0);
    expect(journal.truncateWal()).toBe(true);
    expect(walBytes()).toBe(0);
    expect(journal.truncateWal()).toBe(false);

    // A reader in the middle of a read (doctor, a support bundle) keeps the WAL: no wait, try later.
    journal.update('k1', { machine: m('received', 'Received'), at: T + 1 });
    const reader = new Database(path, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) FROM commands').get();
    expect(journal.truncateWal()).toBe(false);
    expect(walBytes()).toBeGreaterThan(0);
    reader.exec('COMMIT');
    reader.close();
    expect(journal.truncateWal()).toBe(true);
    expect(walBytes()).toBe(0);
    expect(journal.get('k1')?.phase).toBe('received');
    journal.close();
  });

  it('refuses a file that is not a database with JOURNAL_ERROR naming the file', () => {
    const path = tempPath('garbage.db');
    writeFileSync(path, 'this is not sqlite '.repeat(500));
    expect(() => openJournal(path)).toThrowError(
      expect.objectContaining({ code: 'JOURNAL_ERROR', message: expect.stringContaining(path) }),
    );
  });

  it('refuses a journal written by a newer schema, and a place it cannot create', () => {
    const path = tempPath('future.db');
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    expect(() => openJournal(path)).toThrowError(expect.objectContaining({ code: 'JOURNAL_ERROR' }));
    expect(() => openJournal(tempPath('missing', 'dir', 'j.db'))).toThrowError(
      expect.objectContaining({ code: 'JOURNAL_ERROR' }),
    );
  });

  it('turns unreadable stored JSON and use after close into JOURNAL_ERROR', () => {
    const path = tempPath('j.db');
    const journal = openJournal(path);
    accept(journal, 'c1');
    accept(journal, 'c2');
    journal.close();
    const db = new Database(path);
    db.prepare("UPDATE commands SET result_json = '{broken' WHERE id = 'c1'").run();
    db.prepare("UPDATE commands SET checkpoint_json = '{broken' WHERE id = 'c2'").run();
    db.close();
    const again = openJournal(path);
    expect(() => again.get('c1')).toThrowError(expect.objectContaining({ code: 'JOURNAL_ERROR' }));
    // An unreadable checkpoint is the exception: the record loads and says so (see checkpoint.ts).
    const c2 = again.get('c2');
    expect(c2).toMatchObject({ id: 'c2', checkpointUnreadable: true });
    expect(c2).not.toHaveProperty('checkpoint');
    again.close();
    expect(() => again.has('c1')).toThrowError(expect.objectContaining({ code: 'JOURNAL_ERROR' }));
  });

  it('keeps Notes as messages, and reads the sentences an older build wrote as text', () => {
    const path = tempPath('j.db');
    const journal = openJournal(path);
    accept(journal, 'new');
    accept(journal, 'old');
    const notes = engineMessages.notOfferedBeforeStart({ state: 'Postponed' });
    journal.update('new', { machine: m('skipped', 'Cancelled'), at: T + 1, notes });
    finish(journal, 'old', T + 2, 'Error');
    journal.close();
    // What the build before the catalogue stored: plain sentences in the column and in the JSON.
    const db = new Database(path);
    db.prepare(
      `UPDATE commands SET notes = 'Printer out of paper.',
         error_json = '{"code":"PAPER_OUT","message":"paper end","notes":"Replace the roll.","retryable":false}',
         result_json = '{"notes":"Receipt 0001-0002 on RT 99X"}'
       WHERE id = 'old'`,
    ).run();
    db.close();
    const again = openJournal(path);
    const fresh = again.get('new');
    expect(fresh?.notes).toEqual(notes);
    expect(messageRenderer('it').render(fresh?.notes ?? textMessage(''))).toBe(
      'Sulla piattaforma il comando non era più attivo (Postponed) prima dell’avvio; non è stato fatto nulla.',
    );
    const old = again.get('old');
    expect(english(old?.notes ?? textMessage(''))).toBe('Printer out of paper.');
    expect(english(readMessage(old?.error?.notes))).toBe('Replace the roll.');
    expect(english(old?.result?.notes ?? textMessage(''))).toBe('Receipt 0001-0002 on RT 99X');
    expect(again.stats.recent(2).find((c) => c.id === 'old')?.notes).toEqual(
      textMessage('Printer out of paper.'),
    );
    again.close();
  });

  it('rolls a failed transaction back entirely', () => {
    const journal = openJournal(':memory:');
    expect(() =>
      journal.transaction(() => {
        accept(journal, 'c1');
        journal.outbox.add({ commandId: 'c1', state: 'Received' }, T);
        accept(journal, 'c1');
      }),
    ).toThrowError(expect.objectContaining({ code: 'JOURNAL_ERROR' }));
    expect(journal.has('c1')).toBe(false);
    expect(journal.outbox.state().pending).toBe(0);
    journal.close();
  });
});
