import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandState } from '../../src/connector/wire.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { createDaemon, type DaemonHandle, tempDir } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { agentMoveProblems } from './agent-moves.js';
import { e2ePlatform, TOKEN_ENV, TOKENS } from './harness.js';

/**
 * Staff cancel while one of the agent's updates is on its way, against a platform that applies
 * the interface document strictly (`strictDocument: true`: `commands/update` moves any state to
 * the state given, platform-interfaces.md Part B › States and transitions). The simulator cancels
 * every command as staff a while after the agent's Processing (`faults.cancelOnProcessing`), and
 * holds every `commands/update` for 400 ms (`faults.latency`): a simulated RT printer reports its
 * progress (0.9) two seconds into a four-second receipt, and staff cancel 1.4 s after Processing
 * landed, while that progress is on its way. It lands after the cancel and moves the command back
 * to Processing. The real daemon must leave every command terminal on the platform, and the
 * histories may show it leaving a terminal state only to put the staff's end back.
 */

const RT_A = 'ca000000-0000-4000-8000-000000000001';
const RT_B = 'ca000000-0000-4000-8000-000000000002';
const TERMINAL: CommandState[] = ['Processed', 'Error', 'Cancelled'];

describe('an update on its way when staff cancel (strict document)', () => {
  let sim: PlatformSimulator;
  let daemon: DaemonHandle;

  beforeAll(async () => {
    sim = await startPlatformSimulator({
      strictDocument: true,
      scenario: {
        name: 'cancel-race',
        seed: 1711,
        platform: { ...TOKENS, rateLimit: { requests: 100_000, windowSeconds: 30 } },
        enterprises: [{ id: 'ca0e0000-0000-4000-8000-000000000000', name: 'Hotel Annullato' }],
        devices: [RT_A, RT_B].map((id, i) => ({
          id,
          type: 'FiscalMachine' as const,
          name: `RT ${i + 1}`,
          apiUrl: 'http://127.0.0.1:1',
          serialNumber: `99SIMRACE0${i + 1}`,
          settings: { sim: { outcome: 'ok', durationMs: 4000 } },
        })),
        reservations: { generate: 4 },
        generator: { autostart: false, rate: 0 },
        faults: {
          cancelOnProcessing: { probability: 1, delayMs: 1400 },
          latency: { ms: 400, operations: ['commands/update'] },
        },
      },
    });
    const dir = tempDir('e2e-cancel-race');
    daemon = createDaemon({
      config: {
        version: 1,
        platform: e2ePlatform(sim, { requestTimeoutMs: 5000 }),
        poll: { intervalMs: 1000, safetyNetMs: 10_000, fiscalLookbackHours: 24 },
        shutdown: { deadlineMs: 6000 },
        journal: { path: join(dir, 'journal.db') },
        devices: [RT_A, RT_B].map((id, i) => ({
          id,
          name: `RT ${i + 1}`,
          type: 'FiscalMachine',
          driver: 'sim-fiscal',
          options: { durationMs: 4000, jitterMs: 0, ledgerPath: join(dir, `ledger-${i + 1}.jsonl`) },
        })),
      },
      env: TOKEN_ENV,
    });
    await daemon.start();
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop();
    await sim?.close();
  });

  it('leaves every command Cancelled on the platform, putting the staff’s end back where a late update undid it', async () => {
    const ids = [RT_A, RT_B, RT_A, RT_B].map((deviceId) => sim.createFiscalPayload({ deviceId }).id);
    const state = (id: string) => sim.command(id)?.state;
    await eventually(
      () => `commands to end: ${ids.map((id) => state(id)).join(', ')}`,
      () =>
        ids.every((id) => TERMINAL.includes(state(id) ?? 'Pending')) &&
        ids.every((id) => sim.history(id).some((e) => e.by === 'staff')),
      { timeoutMs: 90_000, intervalMs: 100 },
    );
    // The agent's last word arrives after the cancel: wait until nothing of ours is on its way.
    await eventually(
      () =>
        `final states: ${ids
          .map(
            (id) =>
              `${state(id)} (${sim
                .history(id)
                .map((e) => `${e.state}/${e.by}`)
                .join(' → ')})`,
          )
          .join('; ')}`,
      async () => {
        const status = (await daemon.staff('/status.json')).json() as {
          outbox?: { pending: number };
        };
        return status.outbox?.pending === 0 && ids.every((id) => state(id) === 'Cancelled');
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    for (const id of ids) {
      const history = sim.history(id);
      expect(
        agentMoveProblems(history),
        `${id}: ${history.map((e) => `${e.state}/${e.by}`).join(' → ')}`,
      ).toEqual([]);
      expect(history.at(-1)?.state).toBe('Cancelled');
    }
  }, 150_000);
});
