import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig, resolveSecrets } from '../../src/config.js';
import { thrownBy } from '../helpers/rejection.js';

const minimal = {
  version: 1,
  platform: { url: 'https://api.mews-demo.com' },
  journal: { path: '/tmp/journal.db' },
};

describe('config', () => {
  it('fills defaults and freezes the result', () => {
    const config = parseConfig(minimal);
    expect(config.poll.intervalMs).toBe(2000);
    expect(config.platform.rateLimit).toEqual({
      requests: 200,
      windowSeconds: 30,
      reserveShare: 0,
      maxRetryAfterSeconds: 300,
    });
    expect(config.status.listen).toBe('127.0.0.1:8720');
    expect(config.timezone).toBe('Europe/Rome');
    expect(Object.isFrozen(config.platform.rateLimit)).toBe(true);
  });

  it('names the path of every problem', () => {
    const error = thrownBy(() =>
      parseConfig({
        ...minimal,
        timezone: 'Mars/Olympus',
        devices: [
          { id: 'a', type: 'KeyCutter', driver: 'sim-encoder' },
          { id: 'a', type: 'Toaster', driver: 'x' },
        ],
      }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('timezone: unknown time zone');
    expect(error.message).toContain('devices[1].type');
  });

  it('refuses two devices with the same id', () => {
    const device = { id: 'a', type: 'KeyCutter', driver: 'sim-encoder' };
    const error = thrownBy(() => parseConfig({ ...minimal, devices: [device, device] }));
    expect(error.message).toContain('devices[1].id: duplicate device id');
  });

  it('refuses a status page on a public address without a metrics or action token', () => {
    const error = thrownBy(() => parseConfig({ ...minimal, status: { listen: '0.0.0.0:8720' } }));
    expect(error.message).toContain(
      'status.metricsTokenFile: a metrics or action token is required when status.listen is not a loopback address',
    );
  });

  it('reports unreadable files and bad YAML clearly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    expect(thrownBy(() => loadConfig(join(dir, 'missing.yaml'))).message).toContain(
      'Cannot read configuration file',
    );
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'version: [1\n');
    expect(thrownBy(() => loadConfig(bad)).message).toContain('not valid YAML');
  });

  it('validates the shipped example and the simulator config', () => {
    const root = join(import.meta.dirname, '..', '..');
    expect(loadConfig(join(root, 'config', 'agent.example.yaml')).devices).toHaveLength(3);
    expect(loadConfig(join(root, 'config', 'simulator.yaml')).simulator?.enabled).toBe(true);
  });

  it('reads tokens from files, then systemd credentials, then the environment — and never says them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cred-'));
    writeFileSync(join(dir, 'client-token'), 'CLIENT-SECRET-VALUE\n');
    writeFileSync(join(dir, 'access-token'), 'ACCESS-SECRET-VALUE\n');
    const config = parseConfig(minimal);
    expect(resolveSecrets(config, { CREDENTIALS_DIRECTORY: dir })).toEqual({
      clientToken: 'CLIENT-SECRET-VALUE',
      accessToken: 'ACCESS-SECRET-VALUE',
    });
    expect(
      resolveSecrets(config, { FRONTDESK_CLIENT_TOKEN: 'c-env', FRONTDESK_ACCESS_TOKEN: 'a-env' }),
    ).toEqual({
      clientToken: 'c-env',
      accessToken: 'a-env',
    });
    const missing = thrownBy(() => resolveSecrets(config, {}));
    expect(missing.message).toContain('FRONTDESK_CLIENT_TOKEN');
    const withFile = parseConfig({
      ...minimal,
      platform: { ...minimal.platform, clientTokenFile: join(dir, 'nope') },
    });
    const unreadable = thrownBy(() => resolveSecrets(withFile, { FRONTDESK_ACCESS_TOKEN: 'a-env' }));
    expect(unreadable.message).toContain('Cannot read the client token file');
    expect(unreadable.message).not.toContain('SECRET');
  });
});
