import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/commands/journal/journal.js';
import type { JobResult } from '../../src/drivers-api/types.js';
import { tempFolderEachTest } from '../helpers/temp-dir.js';
import { wireKeyCommand, wirePrinterCommand } from './helpers/commands.js';
import { harness } from './helpers/harness.js';
import { gate, takes } from './helpers/scripted-driver.js';

const tempPath = tempFolderEachTest('shutdown-');

describe('engine: shutdown', () => {
  it('lets a job that ends before the deadline finish and delivers its result, then closes the journal', async () => {
    const h = harness({ socket: true });
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    h.drivers.keys.next(takes(h.clock, 3000));
    await h.engine.start();
    h.socket?.connect();
    await h.until(() => h.platform.state('k1') === 'Processing', 'k1 running');
    const stopped = h.engine.stop(10_000);
    let done = false;
    void stopped.then(() => {
      done = true;
    });
    await h.until(() => done, 'stop resolved', 20_000);
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Processed']);
    expect(h.journal.closed).toBe(true);
    expect(h.socket?.stopped).toBe(1);
    expect(h.socket?.listeners).toBe(0);
    // Discovery stopped with it.
    const requests = h.platform.requests.length;
    await h.advance(10_000, 1000);
    expect(h.platform.requests.length).toBe(requests);
  });

  it('aborts a job still running at the deadline, reports it in Error and starts nothing queued', async () => {
    const h = harness({ tuning: { abortGraceMs: 1000 } });
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    h.platform.add({ wire: wireKeyCommand({ id: 'k2', createdUtc: '2026-01-01T00:00:05Z' }) });
    let signalled = false;
    h.drivers.keys.next(async (job, ctx) => {
      ctx.signal.addEventListener('abort', () => {
        signalled = true;
      });
      return takes(h.clock, 60_000)(job, ctx);
    });
    await h.engine.start();
    await h.until(() => h.platform.state('k1') === 'Processing', 'k1 running');
    let done = false;
    void h.engine.stop(2000).then(() => {
      done = true;
    });
    await h.advance(1500);
    expect(signalled).toBe(false);
    await h.until(() => done, 'stop resolved', 10_000);
    expect(signalled).toBe(true);
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Error']);
    expect(h.platform.updates.at(-1)?.Notes).toMatch(/stopped before it finished\. \(ABORTED/);
    expect(h.platform.historyOf('k2')).toEqual(['Received']);
    expect(h.drivers.keys.executed.map((j) => j.commandId)).toEqual(['k1']);
  });

  it('abortNow ends a pending stop at once; the started job stays "running" in the journal for reconciliation', async () => {
    const path = tempPath('journal.db');
    const h = harness({ journalPath: path });
    h.platform.add({ wire: wirePrinterCommand({ id: 'p1' }) });
    // A driver that ignores its signal (a stuck device).
    h.drivers.printer.next(() => gate<JobResult>().promise);
    await h.engine.start();
    await h.until(() => h.platform.state('p1') === 'Processing', 'p1 running');
    let done = false;
    void h.engine.stop(60_000).then(() => {
      done = true;
    });
    await h.advance(1000);
    expect(done).toBe(false);
    h.engine.abortNow();
    await h.settle();
    expect(done).toBe(true);
    expect(h.journal.closed).toBe(true);
    const reopened = openJournal(path);
    expect(reopened.get('p1')?.phase).toBe('running');
    expect(reopened.unfinished()).toEqual([{ id: 'p1', deviceId: 'dev-printer-1', phase: 'running' }]);
    reopened.close();
  });

  it('stop is idempotent and page reads after it are empty, not errors', async () => {
    const h = harness();
    await h.engine.start();
    await Promise.all([h.engine.stop(0), h.engine.stop(0)]);
    expect(h.engine.outboxState()).toEqual({ pending: 0 });
    expect(h.engine.recent(10)).toEqual([]);
    expect(h.engine.totals()).toEqual({ processed: 0, failed: 0, cancelled: 0, inFlight: 0 });
    await expect(h.engine.start()).rejects.toMatchObject({ code: 'INTERNAL' });
  });
});
