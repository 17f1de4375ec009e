import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FpmateSimulator, startFpmateSimulator } from '../../drivers/epson-fpmate/simulator.js';
import { type AgentBundle, bundleAgent } from '../../scripts/bundle.js';
import type { CommandState } from '../../src/connector/wire.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/simulator/index.js';
import { e2eAgentBase, TOKEN_ENV, TOKENS } from '../e2e/harness.js';
import { createDaemon, type DaemonHandle, tempDir } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { shebangLaunch } from '../helpers/node-flags.js';

const repo = join(import.meta.dirname, '..', '..');
const RT = 'b1000000-0000-4000-8000-000000000001';
const SERIAL = '99MEY654321';
const TERMINAL: CommandState[] = ['Processed', 'Error', 'Cancelled'];

/**
 * The installed form: `npm run build`'s esbuild bundle (scripts/bundle.ts), laid out as install.sh
 * lays it out (`dist/src/main.js` beside package.json and the production node_modules), run by
 * node with the flags and environment of its shebang, as the launcher runs it. It starts, loads
 * the real Epson driver from its chunk and prints a receipt end to end.
 */
describe('the bundled agent', () => {
  const app = tempDir('bundle-app');
  let bundle: AgentBundle;
  let printer: FpmateSimulator;
  let sim: PlatformSimulator;
  let daemon: DaemonHandle | undefined;

  beforeAll(async () => {
    copyFileSync(join(repo, 'package.json'), join(app, 'package.json'));
    symlinkSync(join(repo, 'node_modules'), join(app, 'node_modules'), 'dir');
    mkdirSync(join(app, 'dist'));
    bundle = await bundleAgent(join(app, 'dist', 'src'));
    printer = await startFpmateSimulator({ serial: SERIAL });
    sim = await startPlatformSimulator({
      scenario: {
        platform: { ...TOKENS, rateLimit: { requests: 100_000, windowSeconds: 30 } },
        devices: [{ id: RT, type: 'FiscalMachine', name: 'RT', apiUrl: printer.url, serialNumber: SERIAL }],
        reservations: { generate: 5 },
      },
    });
  }, 120_000);

  afterAll(async () => {
    await daemon?.stop();
    await sim?.close();
    await printer?.close();
    rmSync(app, { recursive: true, force: true });
  });

  it('is dist/src/main.js with the source shebang, a source map, and chunks for what only some commands load', () => {
    expect(bundle.main).toBe(join(app, 'dist', 'src', 'main.js'));
    const first = readFileSync(bundle.main, 'utf8').split('\n', 1)[0];
    expect(first).toBe(readFileSync(join(repo, 'src', 'main.ts'), 'utf8').split('\n', 1)[0]);
    expect(readFileSync(`${bundle.main}.map`, 'utf8')).toContain('"sources"');
    for (const lazy of ['src/cli/run.ts', 'src/cli/doctor.ts', 'drivers/epson-fpmate/index.ts']) {
      expect(bundle.splitPoints.get(lazy), lazy).toMatch(/[\\/]dist[\\/]src[\\/]chunks[\\/]/);
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

  it('runs as the daemon and prints a receipt on the Epson printer', async () => {
    daemon = createDaemon({
      bundle: bundle.main,
      config: {
        ...e2eAgentBase(sim),
        devices: [
          {
            id: RT,
            name: 'Reception RT',
            type: 'FiscalMachine',
            driver: 'epson-fpmate',
            options: { url: printer.url, dailyClosure: { enabled: false } },
          },
        ],
      },
      env: TOKEN_ENV,
    });
    await daemon.start();
    const view = sim.createFiscalPayload({ deviceId: RT, envelope: 'soap' });
    const state = await eventually(`command ${view.id} to end`, () => {
      const now = sim.command(view.id)?.state;
      return now && TERMINAL.includes(now) ? now : undefined;
    });
    expect(state, sim.history(view.id).at(-1)?.notes ?? '').toBe('Processed');
    expect(printer.printed.length).toBeGreaterThan(0);
    expect(await daemon.stop()).toBe(0);
  });
});
