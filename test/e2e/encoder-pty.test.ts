import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../app/cli.js';
import { EncoderSimulator } from '../../drivers/salto-encoder/simulator/index.js';
import { ManualClock } from '../../src/clock.js';
import { silentLogger } from '../../src/log.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { createTransportFactory } from '../../src/transport/factory.js';
import type { Transport } from '../../src/transport/types.js';
import { createDaemon, type DaemonHandle, tempDir } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { requireTool } from '../helpers/tools.js';
import { type SocatPair, socatPair } from '../transport/socat-pair.js';
import { DEVICES, E2E_POLL, e2ePlatform, e2eScenario, TOKEN_ENV } from './harness.js';

async function freePort(): Promise<number> {
  return await new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const hasSocat = requireTool(
  'socat',
  'the encoder end to end test runs real serial I/O over a pseudo-terminal pair',
);

/**
 * Key-cutter commands from the platform simulator — generated, and created with `frontdesk-agent
 * cut-keys` — reach the encoder simulator on a socat pseudo-terminal through the real daemon and
 * the salto-encoder driver, and come back Processed with one progress update per card.
 */
describe.runIf(hasSocat)('key cards end to end over a serial pseudo-terminal', () => {
  let sim: PlatformSimulator;
  let pair: SocatPair;
  let device: Transport;
  let encoder: EncoderSimulator;
  let daemon: DaemonHandle;
  let configPath: string;
  const encoderClock = new ManualClock(Date.now());

  beforeAll(async () => {
    sim = await startPlatformSimulator({ scenario: e2eScenario() });
    pair = socatPair();
    await pair.start();
    // The device side opens first: opening a pty discards what was written before.
    device = createTransportFactory({ log: silentLogger }).create({
      type: 'serial',
      path: pair.b,
      baudRate: 9600,
    });
    await device.open();
    // Each card waits on the encoder's own clock until the test lets it through (cutCards).
    encoder = new EncoderSimulator({ writeMs: 5, clock: encoderClock });
    encoder.attach(device);
    const dir = tempDir('e2e-encoder');
    daemon = createDaemon({
      config: {
        version: 1,
        // These tests read the Notes and the page in English.
        locale: 'en',
        journal: { path: `${dir}/journal.db` },
        // A fixed port, so that cut-keys finds the agent's status page from the same config.
        status: { listen: `127.0.0.1:${await freePort()}` },
        platform: e2ePlatform(sim),
        poll: E2E_POLL,
        devices: [
          {
            id: DEVICES.keysOk,
            name: 'Reception encoder',
            type: 'KeyCutter',
            driver: 'salto-encoder',
            // The driver's default card timeout: the test holds each card until the previous one
            // was reported, which takes as long as the machine needs.
            options: { transport: 'serial', path: pair.a, baudRate: 9600 },
          },
        ],
      },
      env: TOKEN_ENV,
    });
    configPath = daemon.configPath;
    await daemon.start();
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop();
    await device?.close();
    await pair?.dispose();
    await sim?.close();
  });

  function progressOf(id: string): number[] {
    return sim
      .history(id)
      .filter((h) => h.state === 'Processing')
      .map((h) => h.progress ?? 0);
  }

  /**
   * Lets the encoder write the jobs' cards one at a time, in order: each card waits on the
   * encoder's clock, and the next one goes once the agent has reported the previous card's
   * progress on the platform. So every card but a job's last is reported by construction; the
   * last card's progress may be superseded by the result, which the outbox sends instead when it
   * is ready first (a result supersedes unsent progress, milestones included).
   */
  async function cutCards(jobs: Array<{ id: string; keyCount: number }>): Promise<void> {
    for (const { id, keyCount } of jobs) {
      const before = encoder.cards.length;
      await eventually(`${id} Processed, its ${keyCount} cards let through one at a time`, async () => {
        if (sim.command(id)?.state === 'Processed') return true;
        const cut = encoder.cards.length - before;
        // The next card goes once the previous one is on the platform (unless it was the last).
        const reported = cut === 0 || cut >= keyCount || progressOf(id).length > cut;
        if (encoderClock.pending > 0 && reported) await encoderClock.advance(5);
        return false;
      });
    }
  }

  /** Every card's progress, the last one perhaps superseded by the result (see cutCards). */
  function perCard(keyCount: number): number[][] {
    const all = [
      0,
      ...Array.from({ length: keyCount }, (_, i) => Math.round(((i + 1) / keyCount) * 1000) / 1000),
    ];
    return [all, all.slice(0, -1)];
  }

  it('cuts generated key commands with one progress update per card', async () => {
    const keyCounts = [1, 3, 2];
    const commands = keyCounts.map((keyCount) => sim.createKeys({ deviceId: DEVICES.keysOk, keyCount }));
    await cutCards(commands.map((c, i) => ({ id: c.id, keyCount: keyCounts[i] as number })));
    expect(perCard(3)).toContainEqual(progressOf(commands[1]?.id as string));
    expect(sim.history(commands[1]?.id as string).at(-1)?.notes).toMatch(/^3 keys for room/);
    const cardsPerCommand = [1, 3, 2];
    expect(encoder.cards.length).toBeGreaterThanOrEqual(cardsPerCommand.reduce((a, b) => a + b, 0));
  }, 60_000);

  it('cuts keys created with the cut-keys command and follows them to the end', async () => {
    const reservation = sim.world.reservations[1];
    if (!reservation) throw new Error('the scenario has no reservation');
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    stderr.resume();
    const running = runCli(
      [
        'cut-keys',
        '--config',
        configPath,
        '--device',
        DEVICES.keysOk,
        '--reservation',
        reservation.id,
        '--count',
        '2',
      ],
      {
        stdout,
        stderr,
        env: TOKEN_ENV,
        onSignal: () => () => undefined,
      },
    );
    // cut-keys prints the new command's id first, then follows it to its end.
    const id = await eventually('cut-keys to print the new command', () => /^\S+\n/.exec(out)?.[0].trim());
    await cutCards([{ id, keyCount: 2 }]);
    const code = await running;
    expect(code).toBe(0);
    expect(sim.command(id)?.state).toBe('Processed');
    expect(out).toMatch(/Processed\n2 keys for room/);
    expect(perCard(2)).toContainEqual(progressOf(id));
  }, 60_000);
});
