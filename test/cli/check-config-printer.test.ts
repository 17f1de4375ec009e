import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { DEVICES, e2eScenario, TOKEN_ENV } from '../e2e/harness.js';
import { runCliCaptured } from '../helpers/cli.js';

/**
 * `check-config --online` against a platform that lists its fiscal machines as Printers (both
 * types occur in platform-interfaces.md, Part B › Resources › Fiscal machine command data).
 */
async function checkOnline(config: string): Promise<{ code: number; out: string; err: string }> {
  return runCliCaptured(['check-config', '--online', '--config', config], TOKEN_ENV);
}

describe('check-config --online with a fiscal machine listed as a Printer', () => {
  let sim: PlatformSimulator;
  beforeAll(async () => {
    sim = await startPlatformSimulator({
      scenario: e2eScenario(),
      document: { fiscalDeviceType: 'Printer' },
    });
  });
  afterAll(async () => {
    await sim.close();
  });

  const config = (devices: unknown[]) => {
    const path = join(mkdtempSync(join(tmpdir(), 'cli-')), 'agent.yaml');
    writeFileSync(
      path,
      // English: check-config speaks the configured language (else the Rome zone's Italian).
      stringify({
        version: 1,
        locale: 'en',
        platform: { url: sim.url },
        journal: { path: '/tmp/unused.db' },
        devices,
      }),
    );
    return path;
  };

  it('accepts it as the fiscal machine it is configured as, and still refuses a real mismatch', async () => {
    const fiscal = await checkOnline(
      config([{ id: DEVICES.fiscalOk, type: 'FiscalMachine', driver: 'sim-fiscal' }]),
    );
    expect(fiscal.err).toBe('');
    expect(fiscal.code).toBe(0);
    expect(fiscal.out).toContain(
      `device ${DEVICES.fiscalOk}: Printer "RT ok" found on the platform, driven as a FiscalMachine`,
    );
    const keys = await checkOnline(
      config([{ id: DEVICES.fiscalOk, type: 'KeyCutter', driver: 'sim-encoder' }]),
    );
    expect(keys.code).toBe(1);
    expect(keys.err).toContain('is a Printer on the platform, configured as KeyCutter');
  });
});
