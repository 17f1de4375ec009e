import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import {
  type DataSync,
  type FlushOptions,
  JournalDurability,
} from '../../../src/commands/journal/durability.js';
import type { CommandPatch } from '../../../src/commands/rules/records.js';
import { textMessage } from '../../../src/messages/message.js';
import { letPendingWorkRun } from '../../helpers/pending-work.js';
import { rejection } from '../../helpers/rejection.js';
import { tempFolderEachTest } from '../../helpers/temp-dir.js';
import { wirePrinterCommand } from '../helpers/commands.js';
import { FakePlatform } from '../helpers/fake-platform.js';
import { harness, T0 } from '../helpers/harness.js';

const tempPath = tempFolderEachTest('durability-');

/** A WAL database with a durability whose syncs the test releases one by one. */
function rig() {
  const path = tempPath('j.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE t (v INTEGER)');
  const pending: Array<(error: NodeJS.ErrnoException | null) => void> = [];
  const sync: DataSync = (_fd, done) => void pending.push(done);
  const changes = db.prepare('SELECT total_changes()').pluck();
  const durability = new JournalDurability(
    path,
    () => Number(changes.get()),
    () => db.inTransaction,
    sync,
  );
  const write = () => db.prepare('INSERT INTO t (v) VALUES (1)').run();
  const settled = (p: Promise<void>) => {
    let state = 'pending';
    p.then(
      () => (state = 'resolved'),
      () => (state = 'rejected'),
    );
    return () => state;
  };
  /** A commit, then a flush of it: the flush's state, read later. */
  const commitAndFlush = (options?: FlushOptions) => {
    write();
    return settled(durability.flush(options));
  };
  /** Lets the promise callbacks of released syncs run. */
  const turn = letPendingWorkRun;
  /** Ends the oldest sync in flight (successfully) and lets its callers hear. */
  const endOldest = async () => {
    pending.shift()?.(null);
    await turn();
  };
  return { db, durability, pending, write, settled, turn, endOldest, commitAndFlush };
}

describe('journal durability (group commit)', () => {
  it('resolves at once when nothing was written since the last sync', async () => {
    const { durability, pending, db } = rig();
    await durability.flush();
    expect(pending).toHaveLength(0);
    durability.close();
    db.close();
  });

  it('starts another sync at once for commits a running one does not cover, up to three, shares a sync that covers them, and tells callers in the order the syncs began', async () => {
    const { durability, pending, settled, turn, endOldest, commitAndFlush, db } = rig();
    const a = commitAndFlush();
    // `b`'s write came after the first sync began: a second starts now instead of queueing.
    const b = commitAndFlush();
    expect(pending).toHaveLength(2);
    // Nothing new since the second began: `c` shares it.
    const c = settled(durability.flush());
    expect(pending).toHaveLength(2);
    const d = commitAndFlush();
    expect(pending).toHaveLength(3);
    // Three syncs run already: `e` waits for the newest, then starts its own.
    const e = commitAndFlush();
    expect(pending).toHaveLength(3);
    // The second sync ends first: `b` and `c` are told only after `a`, whose sync began first.
    pending.splice(1, 1)[0]?.(null);
    await turn();
    expect([a(), b(), c(), d(), e()]).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);
    await endOldest();
    expect([a(), b(), c(), d()]).toEqual(['resolved', 'resolved', 'resolved', 'pending']);
    await endOldest();
    expect(d()).toBe('resolved');
    // `e` waited for the newest sync; now its own runs.
    expect(e()).toBe('pending');
    expect(pending).toHaveLength(1);
    await endOldest();
    expect(e()).toBe('resolved');
    // Nothing new: no further sync.
    await durability.flush();
    expect(pending).toHaveLength(0);
    durability.close();
    db.close();
  });

  it("a grouped flush (a report) starts a sync only when none runs and otherwise shares the next one, while a device's flush starts beside it", async () => {
    const { pending, endOldest, commitAndFlush, durability, db } = rig();
    const a = commitAndFlush({ grouped: true });
    expect(pending).toHaveLength(1);
    // A sync runs: `b` waits for it instead of starting a second.
    const b = commitAndFlush({ grouped: true });
    expect(pending).toHaveLength(1);
    // A checkpoint does not wait behind the reports: its sync starts at once.
    const c = commitAndFlush();
    expect(pending).toHaveLength(2);
    await endOldest();
    expect([a(), b(), c()]).toEqual(['resolved', 'pending', 'pending']);
    // `b`'s commits came before the checkpoint's sync began: `b` shares it, no third sync.
    expect(pending).toHaveLength(1);
    await endOldest();
    expect([b(), c()]).toEqual(['resolved', 'resolved']);
    // Two grouped flushes behind one running sync share one sync after it.
    const d = commitAndFlush({ grouped: true });
    const e = commitAndFlush({ grouped: true });
    const f = commitAndFlush({ grouped: true });
    expect(pending).toHaveLength(1);
    await endOldest();
    expect([d(), e(), f()]).toEqual(['resolved', 'pending', 'pending']);
    expect(pending).toHaveLength(1);
    await endOldest();
    expect([e(), f()]).toEqual(['resolved', 'resolved']);
    expect(pending).toHaveLength(0);
    durability.close();
    db.close();
  });

  it('refuses every later flush once the disk refused a sync: nothing is promised on top of it', async () => {
    const { durability, pending, write, db } = rig();
    write();
    const first = durability.flush();
    pending.shift()?.(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    expect(await rejection(first)).toMatchObject({
      code: 'JOURNAL_ERROR',
      message: expect.stringMatching(/could not be synced/),
    });
    expect(await rejection(durability.flush())).toMatchObject({
      code: 'JOURNAL_ERROR',
      message: expect.stringMatching(/could not be synced/),
    });
    durability.close();
    db.close();
  });

  it('refuses a flush inside a transaction (what it would count is not committed) and after close', async () => {
    const { durability, write, db } = rig();
    let inside: Promise<void> | undefined;
    db.transaction(() => {
      write();
      inside = durability.flush();
    })();
    expect(await rejection(inside as Promise<void>)).toMatchObject({
      code: 'INTERNAL',
      message: expect.stringMatching(/inside a transaction/),
    });
    durability.close();
    expect(await rejection(durability.flush())).toMatchObject({
      code: 'JOURNAL_ERROR',
      message: expect.stringMatching(/closed/),
    });
    db.close();
  });
});

describe('engine: what is flushed before whom', () => {
  it('puts the start on disk with the checkpoint before the device acts, and every state before the platform hears of it', async () => {
    const clock = new ManualClock(T0);
    const platform = new FakePlatform(() => clock.now());
    platform.add({ wire: wirePrinterCommand({ id: 'p1' }) });
    const h = harness({ journalPath: tempPath('journal.db'), platform, clock });
    const log: string[] = [];
    const { journal } = h;
    const update = journal.update.bind(journal);
    journal.update = (id: string, patch: CommandPatch) => {
      update(id, patch);
      log.push(`commit ${patch.machine.phase}`);
    };
    const flush = journal.flush.bind(journal);
    journal.flush = async () => {
      log.push('flush');
      await flush();
      log.push('flushed');
    };
    platform.fault.updateCommand = (r) => {
      log.push(`platform hears ${r.update?.State}`);
      return undefined;
    };
    // A driver keeps the contract: it acts only after awaiting a checkpoint.
    h.drivers.printer.next(async (_job, ctx) => {
      await ctx.checkpoint({ sending: 1 });
      log.push('device acts');
      await ctx.checkpoint({ sending: 2 });
      log.push('device acts again');
      log.push('final checkpoint');
      await ctx.checkpoint({ done: true }, { final: true });
      return { notes: textMessage('Printed 1 copy') };
    });
    await h.engine.start();
    await h.until(() => journal.get('p1')?.phase === 'closed', 'p1 closed');
    const closed = journal.get('p1');
    await h.engine.stop(1000);

    /** A flush called after `commit` resolved before `effect`. */
    const flushedBetween = (commit: string, effect: string) => {
      const from = log.indexOf(commit);
      const to = log.indexOf(effect);
      expect(from, commit).toBeGreaterThanOrEqual(0);
      expect(to, effect).toBeGreaterThan(from);
      const calls = log.slice(from, to);
      expect(calls.indexOf('flush'), `${commit} … ${effect}: ${log.join(', ')}`).toBeGreaterThanOrEqual(0);
      expect(calls.lastIndexOf('flushed')).toBeGreaterThan(calls.indexOf('flush'));
    };
    flushedBetween('commit running', 'device acts');
    flushedBetween('device acts', 'device acts again');
    flushedBetween('commit accepted', 'platform hears Received');
    flushedBetween('commit running', 'platform hears Processing');
    flushedBetween('commit finished', 'platform hears Processed');
    // The checkpoint after the last side effect spends no sync: the result's flush covers it.
    const final = log.indexOf('final checkpoint');
    expect(log.slice(final, log.indexOf('commit finished'))).not.toContain('flush');
    expect(closed?.checkpoint).toMatchObject({ data: { done: true } });
  });
});
