import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EncoderSimulator } from '../../drivers/salto-encoder/simulator.js';
import { runCli } from '../../src/cli.js';
import { silentLogger } from '../../src/log.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/simulator/index.js';
import { createTransportFactory } from '../../src/transport/factory.js';
import type { Transport } from '../../src/transport/types.js';
import { createDaemon, type DaemonHandle, tempDir } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { requireTool } from '../helpers/tools.js';
import { type SocatPair, socatPair } from '../transport/socat-pair.js';
import { DEVICES, e2eScenario, TOKENS } from './harness.js';

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
    encoder = new EncoderSimulator({ writeMs: 5 });
    encoder.attach(device);
    const dir = tempDir('e2e-encoder');
    daemon = createDaemon({
      config: {
        version: 1,
        journal: { path: `${dir}/journal.db` },
        // A fixed port, so that cut-keys finds the agent's status page from the same config.
        status: { listen: `127.0.0.1:${await freePort()}` },
        platform: {
          url: sim.url,
          websocketUrl: sim.wsUrl,
          rateLimit: { requests: 100_000, windowSeconds: 30 },
        },
        poll: { intervalMs: 500, safetyNetMs: 5000, fiscalLookbackHours: 24 },
        devices: [
          {
            id: DEVICES.keysOk,
            name: 'Reception encoder',
            type: 'KeyCutter',
            driver: 'salto-encoder',
            options: { transport: 'serial', path: pair.a, baudRate: 9600, cardTimeoutMs: 5000 },
          },
        ],
      },
      env: { FRONTDESK_CLIENT_TOKEN: TOKENS.clientToken, FRONTDESK_ACCESS_TOKEN: TOKENS.accessToken },
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

  it('cuts generated key commands with one progress update per card', async () => {
    const commands = [1, 3, 2].map((keyCount) => sim.createKeys({ deviceId: DEVICES.keysOk, keyCount }));
    for (const command of commands) {
      await eventually(`keys ${command.id} Processed`, () => sim.command(command.id)?.state === 'Processed');
    }
    expect(progressOf(commands[1]?.id as string)).toEqual([0, 0.333, 0.667, 1]);
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
    const code = await runCli(
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
        env: { FRONTDESK_CLIENT_TOKEN: TOKENS.clientToken, FRONTDESK_ACCESS_TOKEN: TOKENS.accessToken },
        onSignal: () => () => undefined,
      },
    );
    const [id] = out.trim().split('\n');
    expect(code).toBe(0);
    expect(sim.command(id as string)?.state).toBe('Processed');
    expect(out).toMatch(/Processed\n2 keys for room/);
    expect(progressOf(id as string)).toEqual([0, 0.5, 1]);
  }, 60_000);
});
