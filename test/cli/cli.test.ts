import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { DEVICES, e2eScenario, TOKEN_ENV } from '../e2e/harness.js';
import { type CliRun, runCliCaptured } from '../helpers/cli.js';

/**
 * Runs the CLI in-process with captured streams; SIGTERM comes once `stopWhen` holds for what the
 * CLI has printed so far (an event, not a delay).
 */
async function cli(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
  stopWhen?: (out: string) => boolean,
): Promise<CliRun> {
  return runCliCaptured(argv, env, stopWhen);
}

function writeConfig(doc: Record<string, unknown>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cli-')), 'agent.yaml');
  writeFileSync(path, stringify(doc));
  return path;
}

const env = TOKEN_ENV;

describe('command line', () => {
  let sim: PlatformSimulator;
  beforeAll(async () => {
    sim = await startPlatformSimulator({ scenario: e2eScenario() });
  });
  afterAll(async () => {
    await sim.close();
  });

  const config = (devices: unknown[]) =>
    writeConfig({ version: 1, platform: { url: sim.url }, journal: { path: '/tmp/unused.db' }, devices });

  it('prints its version and help with examples', async () => {
    expect((await cli(['--version'])).out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('cut-keys');
    expect(help.out).toContain('Examples:');
  });

  it('says a usage mistake in one line and exits 2', async () => {
    const run = await cli([
      'cut-keys',
      '--config',
      'x.yaml',
      '--device',
      'd',
      '--reservation',
      'r',
      '--count',
      'zero',
    ]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('expected a whole number');
    expect(run.err).not.toMatch(/\n\s+at /);
  });

  it('check-config accepts the shipped example offline and reports a broken file in one sentence per problem', async () => {
    const ok = await cli(['check-config', '--config', 'config/agent.example.yaml'], env);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    const broken = await cli(
      [
        'check-config',
        '--config',
        config([{ id: 'x', type: 'KeyCutter', driver: 'salto-encoder', options: { transport: 'serial' } }]),
      ],
      env,
    );
    expect(broken.code).toBe(1);
    expect(broken.err).toContain('devices[0].options');
    expect(broken.err).toContain('path');
    const missing = await cli(['check-config', '--config', '/nonexistent/agent.yaml']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^frontdesk-agent: Cannot read configuration file/);
    expect(missing.err).not.toMatch(/\n\s+at /);
  });

  it('check-config --online checks the tokens and that each device exists with its type', async () => {
    const good = await cli(
      [
        'check-config',
        '--online',
        '--config',
        config([{ id: DEVICES.keysOk, type: 'KeyCutter', driver: 'sim-encoder' }]),
      ],
      env,
    );
    expect(good.code).toBe(0);
    // In the configured language: without a locale, the property's zone (Europe/Rome) says Italian.
    expect(good.out).toContain('piattaforma: credenziali accettate');
    const wrongType = await cli(
      [
        'check-config',
        '--online',
        '--config',
        config([{ id: DEVICES.keysOk, type: 'FiscalMachine', driver: 'sim-fiscal' }]),
      ],
      env,
    );
    expect(wrongType.code).toBe(1);
    expect(wrongType.err).toContain('sulla piattaforma è un KeyCutter, configurato come FiscalMachine');
    const badTokens = await cli(['check-config', '--online', '--config', config([])], {
      FRONTDESK_CLIENT_TOKEN: 'WRONG-CLIENT-TOKEN',
      FRONTDESK_ACCESS_TOKEN: 'WRONG-ACCESS-TOKEN',
    });
    expect(badTokens.code).toBe(1);
    expect(badTokens.err).toContain('platform:');
    expect(badTokens.err + badTokens.out).not.toContain('WRONG-ACCESS-TOKEN');
  });

  it('cut-keys --no-follow creates the command and prints its id', async () => {
    const reservation = sim.world.reservations[0];
    const run = await cli(
      [
        'cut-keys',
        '--no-follow',
        '--config',
        config([]),
        '--device',
        DEVICES.keysOk,
        '--reservation',
        reservation?.id ?? '',
        '--count',
        '3',
      ],
      env,
    );
    expect(run.code).toBe(0);
    const id = run.out.trim();
    expect(sim.command(id)).toMatchObject({ kind: 'keys', state: 'Pending', deviceId: DEVICES.keysOk });
  });

  it('simulate-platform prints its address and tokens and stops on SIGTERM', async () => {
    const run = await cli(
      ['simulate-platform', '--port', '0', '--scenario', 'config/scenarios/demo.yaml'],
      {},
      (out) => out.includes('access token'),
    );
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/platform simulator at http:\/\/127\.0\.0\.1:\d+/);
    expect(run.out).toContain('access token');
  });

  it('devices lists candidates as JSON without failing on a machine with none', async () => {
    const run = await cli(['devices', '--json', '--no-lan']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toHaveProperty('devices');
  });
});
