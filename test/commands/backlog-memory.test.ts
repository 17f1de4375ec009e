import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { openJournal } from '../../src/commands/journal/journal.js';
import type { JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { tempFolderEachTest } from '../helpers/temp-dir.js';
import { keyCommand, wireKeyCommand } from './helpers/commands.js';
import { FakePlatform } from './helpers/fake-platform.js';
import { harness, T0 } from './helpers/harness.js';
import { gate } from './helpers/scripted-driver.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

const tempPath = tempFolderEachTest('backlog-');

const BACKLOG = 10_000;

describe('engine: a large backlog', () => {
  it('keeps 10,000 waiting commands in the journal, not in memory: ids only in the queue', async () => {
    const path = tempPath('journal.db');
    const clock = new ManualClock(T0);
    const platform = new FakePlatform(() => clock.now());
    // The platform is unreachable for updates and catch-ups; only the re-read of the head works.
    platform.fault.updateCommand = () => new AgentError('PLATFORM_UNREACHABLE', 'offline');
    platform.fault.activeCommands = () => new AgentError('PLATFORM_UNREACHABLE', 'offline');
    const seed = openJournal(path);
    const template = keyCommand({ id: 'template' });
    seed.transaction(() => {
      for (let i = 0; i < BACKLOG; i++) {
        const id = `k${String(i).padStart(5, '0')}`;
        const command = { ...template, id };
        seed.insert(
          {
            id,
            deviceId: command.device.id,
            deviceName: 'Front desk encoder',
            deviceType: 'KeyCutter',
            kind: 'keys',
            source: 'commands',
            command,
            createdUtc: command.createdUtc,
            seenAt: T0 + i,
          },
          {
            machine: { phase: 'accepted', state: 'Received', attempt: 0 },
            at: T0 + i,
            reported: ['Received'],
          },
        );
        seed.outbox.add({ commandId: id, state: 'Received' }, T0 + i);
      }
    });
    seed.close();
    platform.add({ wire: wireKeyCommand({ id: 'k00000' }) });

    const baseline = heapAfterGc();
    const h = harness({ journalPath: path, platform, clock });
    h.drivers.keys.next(() => gate<JobResult>().promise);
    await h.engine.start();
    await h.until(() => h.drivers.keys.executed.length === 1, 'the head of the backlog running', 10_000);
    await h.advance(10_000, 1000);
    const grown = heapAfterGc() - baseline;

    expect(h.engine.deviceState('dev-keys-1')).toMatchObject({
      queued: BACKLOG - 1,
      running: { commandId: 'k00000' },
    });
    expect(h.engine.outboxState().pending).toBeGreaterThanOrEqual(BACKLOG);
    expect(h.engine.totals().inFlight).toBe(BACKLOG);
    // A few MB at most: about 150 bytes per waiting command, not its data.
    expect(grown).toBeLessThan(6 * 1024 * 1024);
    h.engine.abortNow();
    await h.settle();
  });
});
