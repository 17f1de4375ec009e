import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { type DaemonHandle, tempDir } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { createMix, e2eScenario, startAgent, TOKENS } from './harness.js';
import { verify, waitForAll } from './verify.js';

/**
 * The real daemon (a child process) against the platform simulator over HTTP and WebSocket, with
 * the simulated drivers. Each test gets a fresh simulator state and a fresh journal.
 */
describe('agent daemon end to end', () => {
  let sim: PlatformSimulator;
  let daemon: DaemonHandle | undefined;

  beforeAll(async () => {
    sim = await startPlatformSimulator({ scenario: e2eScenario() });
  });
  afterAll(async () => {
    await sim.close();
  });
  afterEach(async () => {
    const lines = daemon?.lines ?? [];
    await daemon?.stop();
    // No token in any line the daemon printed.
    const leaked = lines.filter((l) => l.includes(TOKENS.clientToken) || l.includes(TOKENS.accessToken));
    expect(leaked).toEqual([]);
    daemon = undefined;
    sim.reset();
  });

  it('runs a mixed stream of 500 commands exactly as scripted, each once, with legal histories', async () => {
    const dir = tempDir('e2e-stream');
    daemon = startAgent(sim, dir);
    await daemon.start();
    const planned = createMix(sim, 500);
    await waitForAll(sim, planned);
    const verdict = verify(sim, planned, dir);
    expect(verdict.problems).toEqual([]);
    expect(verdict.untouched).toBe(50);
    expect(verdict.processed).toBe(250);
    expect(verdict.errors).toBe(200);
    expect(await daemon.stop()).toBe(0);
  }, 180_000);

  it('survives kill -9 mid-stream: nothing lost, nothing printed twice', async () => {
    const dir = tempDir('e2e-kill');
    daemon = startAgent(sim, dir);
    await daemon.start();
    const planned = createMix(sim, 200);
    const ended = () => {
      const counts = sim.stateCounts();
      return counts.Processed + counts.Error + counts.Cancelled;
    };
    const updates = () => sim.counters().commands.updatesAccepted;
    // Each kill lands on an event of the run, never at a time: mid-stream, during the restarted
    // daemon's recovery, and mid-stream again.
    const killPoints = [
      { what: 'the 30th command to end', reached: (base: number) => ended() >= base + 30, from: ended },
      {
        what: 'the restarted daemon’s 2nd update',
        reached: (base: number) => updates() >= base + 2,
        from: updates,
      },
      { what: '15 more commands to end', reached: (base: number) => ended() >= base + 15, from: ended },
    ];
    for (const [round, point] of killPoints.entries()) {
      const base = point.from();
      await eventually(`kill point ${round + 1}: ${point.what}`, () => point.reached(base), {
        intervalMs: 2,
      });
      await daemon.kill();
      planned.push(...createMix(sim, 30, 200 + round * 30));
      await daemon.start();
    }
    await waitForAll(sim, planned);
    const verdict = verify(sim, planned, dir, { crashes: true });
    expect(verdict.problems).toEqual([]);
    expect(daemon.exits.filter((e) => e.signal === 'SIGKILL')).toHaveLength(3);
  }, 180_000);

  it('loses nothing through a 30-second platform outage', async () => {
    const dir = tempDir('e2e-outage');
    daemon = startAgent(sim, dir);
    await daemon.start();
    const planned = createMix(sim, 60);
    // The outage begins mid-stream (an event), and lasts 30 s: the length is the scenario.
    await eventually('the 10th command to end', () => {
      const counts = sim.stateCounts();
      return counts.Processed + counts.Error >= 10;
    });
    const refusedBefore = sim.counters().faults['server-error'];
    sim.setFaults({
      serverErrors: { rate: 1, next: 0, status: 503 },
      websocket: { refuse: true, dropEverySeconds: null },
    });
    sim.dropWebSockets();
    planned.push(...createMix(sim, 40, 60));
    // The outage lasts 30 s and, whatever the machine's speed, until the agent has met it.
    await Promise.all([
      new Promise((r) => setTimeout(r, 30_000)),
      eventually(
        'the agent to be refused during the outage',
        () => sim.counters().faults['server-error'] > refusedBefore,
      ),
    ]);
    sim.clearFaults();
    // The agent met the outage (it kept asking, and was refused).
    expect(sim.counters().faults['server-error']).toBeGreaterThan(refusedBefore);
    await waitForAll(sim, planned);
    expect(verify(sim, planned, dir).problems).toEqual([]);
  }, 180_000);

  it('picks everything up by polling when the WebSocket is unreachable', async () => {
    const dir = tempDir('e2e-nows');
    sim.setFaults({ websocket: { refuse: true, dropEverySeconds: null } });
    daemon = startAgent(sim, dir);
    await daemon.start();
    const planned = createMix(sim, 60);
    await waitForAll(sim, planned);
    expect(verify(sim, planned, dir).problems).toEqual([]);
    expect(sim.openWebSockets).toBe(0);
  }, 120_000);
});
