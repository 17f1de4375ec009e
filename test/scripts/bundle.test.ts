import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RealDevices, startRealDevices } from '../../bench/real-devices.js';
import { BENCH_TOKENS } from '../../bench/world.js';
import { type AgentBundle, bundleAgent } from '../../scripts/bundle.js';
import type { CommandState } from '../../src/connector/wire.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { e2eAgentBase } from '../e2e/harness.js';
import { createDaemon, type DaemonHandle, tempDir } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { shebangLaunch } from '../helpers/node-flags.js';

const repo = join(import.meta.dirname, '..', '..');
const TERMINAL: CommandState[] = ['Processed', 'Error', 'Cancelled'];

/**
 * The installed form: `npm run build`'s esbuild bundle (scripts/bundle.ts), laid out as install.sh
 * lays it out (`dist/app/main.js` beside package.json and the production node_modules), run by
 * node with the flags and environment of its shebang, as the launcher runs it. It starts in the
 * memory benchmark's world (bench/real-devices.ts: an Epson RT printer, a Salto encoder and an
 * office printer, each on its real driver loaded from its chunk) and prints a receipt end to end.
 */
describe('the bundled agent', () => {
  const app = tempDir('bundle-app');
  let bundle: AgentBundle;
  let world: RealDevices;
  let sim: PlatformSimulator;
  let daemon: DaemonHandle | undefined;

  beforeAll(async () => {
    copyFileSync(join(repo, 'package.json'), join(app, 'package.json'));
    symlinkSync(join(repo, 'node_modules'), join(app, 'node_modules'), 'dir');
    mkdirSync(join(app, 'dist'));
    bundle = await bundleAgent(join(app, 'dist', 'app'));
    world = await startRealDevices();
    sim = await startPlatformSimulator({
      scenario: world.scenario({ requests: 100_000, windowSeconds: 30 }),
    });
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
    await sim?.close();
    await world?.close();
    rmSync(app, { recursive: true, force: true });
  });

  it('is dist/app/main.js with the source shebang, a source map, and chunks for what only some commands load', () => {
    expect(bundle.main).toBe(join(app, 'dist', 'app', 'main.js'));
    const first = readFileSync(bundle.main, 'utf8').split('\n', 1)[0];
    expect(first).toBe(readFileSync(join(repo, 'app', 'main.ts'), 'utf8').split('\n', 1)[0]);
    expect(readFileSync(`${bundle.main}.map`, 'utf8')).toContain('"sources"');
    for (const lazy of ['src/cli/run.ts', 'src/cli/doctor.ts', 'drivers/epson-fpmate/index.ts']) {
      expect(bundle.splitPoints.get(lazy), lazy).toMatch(/[\\/]dist[\\/]app[\\/]chunks[\\/]/);
    }
  });

  it('answers --version with the package version, with no warning from node', () => {
    const launch = shebangLaunch(bundle.main);
    const run = spawnSync(process.execPath, [...launch.flags, bundle.main, '--version'], {
      encoding: 'utf8',
      env: { ...process.env, ...launch.env },
    });
    expect(run.stderr).toBe('');
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
    expect(run.stdout.trim()).toBe(pkg.version);
  });

  it('runs as the daemon with the three real drivers and prints a receipt on the Epson printer', async () => {
    daemon = createDaemon({
      bundle: bundle.main,
      config: { ...e2eAgentBase(sim), devices: world.devices },
      env: {
        FRONTDESK_CLIENT_TOKEN: BENCH_TOKENS.clientToken,
        FRONTDESK_ACCESS_TOKEN: BENCH_TOKENS.accessToken,
      },
    });
    await daemon.start();
    const view = world.createReceipt(sim, 0);
    const state = await eventually(`command ${view.id} to end`, () => {
      const now = sim.command(view.id)?.state;
      return now && TERMINAL.includes(now) ? now : undefined;
    });
    expect(state, sim.history(view.id).at(-1)?.notes ?? '').toBe('Processed');
    expect(world.printer.printed.length).toBeGreaterThan(0);
    expect(await daemon.stop()).toBe(0);
  });
});
