import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { JobResult, Reconciliation } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { textMessage } from '../../src/messages/message.js';
import { tempFolderEachTest } from '../helpers/temp-dir.js';
import { wireKeyCommand, wirePrinterCommand } from './helpers/commands.js';
import { FakePlatform } from './helpers/fake-platform.js';
import { harness, T0 } from './helpers/harness.js';
import { gate } from './helpers/scripted-driver.js';

const tempPath = tempFolderEachTest('recovery-');

/**
 * Runs a first agent until k1 is on the encoder (one card written and checkpointed) and k2 waits
 * behind it, then "crashes": that agent is abandoned mid-job (its clock never moves again) and
 * nothing is closed. Returns what a second agent needs to start on the same journal file.
 */
async function crashMidJob() {
  const path = tempPath('journal.db');
  let clock = new ManualClock(T0);
  const platform = new FakePlatform(() => clock.now());
  platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
  platform.add({ wire: wireKeyCommand({ id: 'k2', createdUtc: '2026-01-01T00:00:05Z' }) });
  const first = harness({ journalPath: path, platform, clock });
  first.drivers.keys.next(async (_job, ctx) => {
    ctx.checkpoint({ cardsWritten: 1, serials: ['A1'] });
    ctx.progress(0.5, { milestone: true });
    return gate<JobResult>().promise;
  });
  await first.engine.start();
  // Mid-job, and every update the platform took is recorded as taken (a crash between an answer
  // and its record only sends that update once more: at-least-once, tested elsewhere).
  await first.until(
    () => platform.historyOf('k1').length === 3 && first.journal.outbox.state().pending === 0,
    'k1 mid-job',
  );
  expect(first.journal.get('k1')?.phase).toBe('running');
  expect(first.journal.get('k2')?.phase).toBe('received');
  clock = new ManualClock(clock.now() + 30_000);
  return { path, platform, clock, firstRun: first };
}

const outcomes: Array<[string, Reconciliation, string[], RegExp]> = [
  [
    'done',
    { outcome: 'done', result: { notes: textMessage('Two keys written (found after restart)') } },
    [],
    /found after restart/,
  ],
  ['not-done', { outcome: 'not-done' }, ['k1#2'], /^done k1$/],
  [
    'failed',
    { outcome: 'failed', error: new AgentError('CARD_REJECTED', 'card from another system') },
    [],
    /refused the card.*CARD_REJECTED/,
  ],
  [
    'unknown',
    { outcome: 'unknown', reason: textMessage('encoder does not answer') },
    [],
    /check the device before trying again.*encoder does not answer/,
  ],
];

describe('engine: crash recovery', () => {
  it.each(outcomes)(
    'a job started before a crash and reconciled as %s ends right',
    async (_name, rec, runs, notes) => {
      const { path, platform, clock, firstRun } = await crashMidJob();
      const h = harness({ journalPath: path, platform, clock });
      h.drivers.keys.nextReconcile(rec);
      await h.engine.start();
      await h.until(
        () => h.journal.get('k1')?.phase === 'closed' && h.journal.get('k2')?.phase === 'closed',
        'both closed',
      );

      expect(h.drivers.keys.reconciled.map((j) => [j.commandId, j.attempt, j.checkpoint])).toEqual([
        ['k1', 1, { cardsWritten: 1, serials: ['A1'] }],
      ]);
      const k1Runs = h.drivers.keys.executed
        .filter((j) => j.commandId === 'k1')
        .map((j) => `${j.commandId}#${j.attempt}`);
      expect(k1Runs).toEqual(runs);
      expect(firstRun.drivers.keys.executed.map((j) => j.commandId)).toEqual(['k1']);
      const final = rec.outcome === 'done' || rec.outcome === 'not-done' ? 'Processed' : 'Error';
      // Processing is never reported twice, even for the re-run.
      expect(platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Processing:0.5', final]);
      expect(platform.updates.find((u) => u.CommandId === 'k1' && u.State === final)?.Notes).toMatch(notes);
      // The command queued behind it was re-read and run after the reconciliation.
      expect(platform.historyOf('k2')).toEqual(['Received', 'Processing:0', 'Processed']);
      const order = platform.updates.map((u) => `${u.CommandId}:${u.State}`);
      expect(order.indexOf(`k1:${final}`)).toBeLessThan(order.indexOf('k2:Processing'));
      await h.engine.stop(1000);
    },
  );

  it('asks again when the device cannot answer the reconciliation, then reports unknown — never a blind re-run', async () => {
    const { path, platform, clock } = await crashMidJob();
    const h = harness({
      journalPath: path,
      platform,
      clock,
      tuning: { deviceRetryBaseMs: 100, maxDeviceRetries: 2 },
    });
    const offline = async (): Promise<Reconciliation> => {
      throw new AgentError('DEVICE_UNAVAILABLE', 'encoder unplugged');
    };
    h.drivers.keys.nextReconcile(offline, offline, offline);
    await h.engine.start();
    await h.until(() => platform.state('k1') === 'Error', 'k1 error');
    expect(h.drivers.keys.reconciled).toHaveLength(3);
    expect(h.drivers.keys.executed.filter((j) => j.commandId === 'k1')).toHaveLength(0);
    expect(platform.updates.find((u) => u.CommandId === 'k1' && u.State === 'Error')?.Notes).toMatch(
      /STATE_UNKNOWN: the device could not be asked \(DEVICE_UNAVAILABLE: encoder unplugged\)/,
    );
    await h.engine.stop(1000);
  });

  it('asks the driver from its checkpoint when the device cannot be opened after a restart', async () => {
    const { path, platform, clock } = await crashMidJob();
    const h = harness({
      journalPath: path,
      platform,
      clock,
      tuning: { deviceRetryBaseMs: 100, maxDeviceRetries: 1 },
    });
    // The encoder is away for the reconcile and k2's first try (one retry allowed): without the
    // device, k1's checkpoint alone says the job finished.
    const away = () => new AgentError('DEVICE_UNAVAILABLE', 'encoder unplugged');
    h.drivers.keys.failNextOpens(away(), away());
    h.drivers.keys.nextReconcile({
      outcome: 'done',
      result: { notes: textMessage('Two keys written (from the checkpoint)') },
    });
    await h.engine.start();
    await h.until(
      () => platform.state('k1') === 'Processed' && platform.state('k2') === 'Processed',
      'both processed',
    );
    expect(h.drivers.keys.reconciled.map((j) => j.commandId)).toEqual(['k1']);
    expect(h.drivers.keys.executed.filter((j) => j.commandId === 'k1')).toHaveLength(0);
    expect(platform.updates.find((u) => u.CommandId === 'k1' && u.State === 'Processed')?.Notes).toMatch(
      /from the checkpoint/,
    );
    await h.engine.stop(1000);
  });

  it('delivers, after a restart, results that were journaled but not yet delivered — in order', async () => {
    const path = tempPath('journal.db');
    let clock = new ManualClock(T0);
    const platform = new FakePlatform(() => clock.now());
    platform.add({ wire: wirePrinterCommand({ id: 'p1' }) });
    // The platform goes away right after taking Received.
    let down = true;
    let refused = 0;
    platform.fault.updateCommand = (r) => {
      if (!down || r.update?.State === 'Received') return undefined;
      refused++;
      return new AgentError('PLATFORM_UNREACHABLE', 'offline');
    };
    const first = harness({ journalPath: path, platform, clock });
    first.drivers.printer.next(async () => ({ notes: textMessage('Printed 1 copy') }));
    await first.engine.start();
    await first.until(() => first.journal.get('p1')?.phase === 'finished', 'p1 finished');
    // The first agent's outbox has met the outage and pauses on a clock that never moves again:
    // nothing of it is in flight when the second one starts.
    await first.until(() => refused > 0, 'the first agent met the outage');
    expect(platform.historyOf('p1')).toEqual(['Received']);
    expect(first.journal.outbox.pendingFor('p1').map((i) => i.state)).toEqual(['Processing', 'Processed']);

    clock = new ManualClock(clock.now() + 60_000);
    down = false;
    const h = harness({ journalPath: path, platform, clock });
    await h.engine.start();
    await h.until(() => h.journal.get('p1')?.phase === 'closed', 'p1 closed');
    expect(platform.historyOf('p1')).toEqual(['Received', 'Processing:0', 'Processed']);
    expect(h.drivers.printer.executed).toHaveLength(0);
    expect(h.drivers.printer.reconciled).toHaveLength(0);
    await h.engine.stop(1000);
  });

  it('keeps checkpoints in an envelope naming the driver and its checkpoint version', async () => {
    const { firstRun } = await crashMidJob();
    const db = new Database(tempPath('journal.db'), { readonly: true });
    const row = db.prepare("SELECT checkpoint_json FROM commands WHERE id = 'k1'").get() as {
      checkpoint_json: string;
    };
    db.close();
    expect(JSON.parse(row.checkpoint_json)).toEqual({
      driver: 'scripted',
      version: 1,
      data: { cardsWritten: 1, serials: ['A1'] },
    });
    expect(firstRun.drivers.keys.executed[0]?.checkpoint).toBeUndefined();
  });

  it('reconciles a plain checkpoint written before the envelope as version 1 of the configured driver', async () => {
    const { path, platform, clock } = await crashMidJob();
    storeCheckpoint(path, 'k1', JSON.stringify({ cardsWritten: 1, serials: ['A1'] }));
    const h = harness({ journalPath: path, platform, clock });
    h.drivers.keys.nextReconcile({ outcome: 'done', result: { notes: textMessage('Two keys written') } });
    await h.engine.start();
    await h.until(() => h.journal.get('k1')?.phase === 'closed', 'k1 closed');
    expect(h.drivers.keys.reconciled.map((j) => j.checkpoint)).toEqual([
      { cardsWritten: 1, serials: ['A1'] },
    ]);
    expect(platform.state('k1')).toBe('Processed');
    await h.engine.stop(1000);
  });

  const unreadable: Array<[string, string, RegExp]> = [
    ['not JSON', '{"cardsWritten": 1,', /checkpoint in the journal cannot be read/],
    [
      'of another driver',
      JSON.stringify({ driver: 'salto-encoder', version: 1, data: { v: 1, confirmed: 1 } }),
      /written by the salto-encoder driver, and the device is now driven by scripted/,
    ],
    [
      'of another version',
      JSON.stringify({ driver: 'scripted', version: 2, data: { cards: 1 } }),
      /version 2 of the scripted driver, which now reads version 1/,
    ],
  ];
  it.each(unreadable)(
    'ends a job whose checkpoint is %s as unknown without asking the driver — never a re-run',
    async (_name, stored, why) => {
      const { path, platform, clock } = await crashMidJob();
      storeCheckpoint(path, 'k1', stored);
      const h = harness({ journalPath: path, platform, clock });
      h.drivers.keys.nextReconcile({ outcome: 'not-done' });
      await h.engine.start();
      await h.until(
        () => platform.state('k1') === 'Error' && h.journal.get('k2')?.phase === 'closed',
        'k1 error',
      );
      expect(h.drivers.keys.reconciled).toHaveLength(0);
      expect(h.drivers.keys.executed.filter((j) => j.commandId === 'k1')).toHaveLength(0);
      const notes = platform.updates.find((u) => u.CommandId === 'k1' && u.State === 'Error')?.Notes;
      expect(notes).toMatch(/check the device before trying again/);
      expect(notes).toMatch(why);
      expect(h.journal.get('k1')?.error?.code).toBe('STATE_UNKNOWN');
      await h.engine.stop(1000);
    },
  );
});

/** Replaces a command's stored checkpoint, as an older agent or a damaged file left it. */
function storeCheckpoint(path: string, commandId: string, text: string): void {
  const db = new Database(path);
  db.prepare('UPDATE commands SET checkpoint_json = ? WHERE id = ?').run(text, commandId);
  db.close();
}
