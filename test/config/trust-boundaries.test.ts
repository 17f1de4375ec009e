import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../../app/cli.js';
import { parseConfig, readTokenFile, resolveSecrets } from '../../src/config.js';
import { thrownBy } from '../helpers/rejection.js';

/**
 * Issue 13.5 (configuration): the tokens travel only over TLS to a platform that is not on this
 * machine, and a token file other local users can read is refused, as `ssh` refuses such a key.
 */

const SECRET = 'CLIENT-TOKEN-SECRET-777';

const withPlatform = (platform: Record<string, unknown>) => ({
  version: 1,
  platform,
  journal: { path: '/tmp/journal.db' },
});

function tokenFile(mode: number, content = `${SECRET}\n`, dir = mkdtempSync(join(tmpdir(), 'fd-token-'))) {
  const path = join(dir, 'token');
  writeFileSync(path, content);
  chmodSync(path, mode);
  return path;
}

describe('the platform address', () => {
  it('must be https:// (and the WebSocket wss://) unless it is on this machine', () => {
    const remote = thrownBy(() =>
      parseConfig(
        withPlatform({ url: 'http://api.mews-demo.com', websocketUrl: 'ws://ws.mews-demo.com/ws/connector' }),
      ),
    );
    expect(remote.code).toBe('CONFIG_INVALID');
    expect(remote.message).toContain('platform.url: http:// sends the tokens unencrypted; use https://');
    expect(remote.message).toContain('platform.websocketUrl: ws:// sends the tokens unencrypted; use wss://');
    expect(thrownBy(() => parseConfig(withPlatform({ url: 'http://192.168.1.10:8080' }))).message).toContain(
      'allowed only for 127.0.0.0/8, ::1 and localhost',
    );
    expect(thrownBy(() => parseConfig(withPlatform({ url: 'ftp://api.mews.com' }))).message).toContain(
      'platform.url: expected a https:// address',
    );
    for (const url of [
      'https://api.mews.com',
      'http://127.0.0.1:8730',
      'http://127.1.2.3',
      'http://localhost:1',
      'http://[::1]:80',
    ]) {
      expect(parseConfig(withPlatform({ url })).platform.url, url).toBe(url);
    }
    expect(
      parseConfig(
        withPlatform({ url: 'https://api.mews.com', websocketUrl: 'wss://ws.mews.com/ws/connector' }),
      ).platform.websocketUrl,
    ).toBe('wss://ws.mews.com/ws/connector');
    expect(
      parseConfig(withPlatform({ url: 'http://127.0.0.1:1', websocketUrl: 'ws://127.0.0.1:1/ws/connector' }))
        .platform.websocketUrl,
    ).toBe('ws://127.0.0.1:1/ws/connector');
  });
});

describe('token files', () => {
  it('are read when only their owner can access them', () => {
    expect(readTokenFile(tokenFile(0o600), 'client token')).toBe(SECRET);
    expect(readTokenFile(tokenFile(0o400), 'client token')).toBe(SECRET);
  });

  it('are refused, naming the file and the fix, never the content, when group or others can read them', () => {
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      const path = tokenFile(mode);
      const error = thrownBy(() => readTokenFile(path, 'access token'));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toBe(
        `The access token file ${path} can be read by other users (mode 0${mode.toString(8)}); the agent refuses it. Run: chmod 600 ${path}`,
      );
      expect(error.message).not.toContain(SECRET);
    }
    expect(thrownBy(() => readTokenFile(tokenFile(0o600, '\n'), 'access token')).message).toContain(
      'is empty',
    );
    expect(thrownBy(() => readTokenFile('/nonexistent/token', 'access token')).message).toBe(
      'Cannot read the access token file /nonexistent/token: ENOENT',
    );
  });

  it('in the configuration are checked; systemd credentials (root-managed) are not', () => {
    const loose = tokenFile(0o644);
    const config = parseConfig(withPlatform({ url: 'https://api.mews.com', clientTokenFile: loose }));
    expect(
      thrownBy(() => resolveSecrets(config, { FRONTDESK_ACCESS_TOKEN: 'a-env-token' })).message,
    ).toContain('can be read by other users');
    const credentials = mkdtempSync(join(tmpdir(), 'fd-credentials-'));
    tokenFile(0o644, `${SECRET}\n`, credentials);
    writeFileSync(join(credentials, 'client-token'), `${SECRET}\n`, { mode: 0o644 });
    writeFileSync(join(credentials, 'access-token'), 'ACCESS-SECRET-1\n', { mode: 0o644 });
    const fromCredentials = parseConfig(withPlatform({ url: 'https://api.mews.com' }));
    expect(resolveSecrets(fromCredentials, { CREDENTIALS_DIRECTORY: credentials })).toEqual({
      clientToken: SECRET,
      accessToken: 'ACCESS-SECRET-1',
    });
    const named = parseConfig(
      withPlatform({ url: 'https://api.mews.com', clientTokenFile: join(credentials, 'client-token') }),
    );
    expect(resolveSecrets(named, { CREDENTIALS_DIRECTORY: credentials }).clientToken).toBe(SECRET);
  });
});

describe('the command line', () => {
  async function cli(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; err: string }> {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (c: Buffer) => {
      err += c.toString('utf8');
    });
    stdout.resume();
    const code = await runCli(argv, { stdout, stderr, env, onSignal: () => () => undefined });
    return { code, err };
  }

  function configFile(doc: Record<string, unknown>): string {
    const dir = mkdtempSync(join(tmpdir(), 'fd-trust-'));
    mkdirSync(join(dir, 'state'));
    const path = join(dir, 'agent.yaml');
    writeFileSync(path, stringify({ journal: { path: join(dir, 'state', 'journal.db') }, ...doc }));
    return path;
  }

  it('check-config refuses a world-readable token file and a remote http:// platform in one sentence each', async () => {
    const loose = configFile({
      version: 1,
      platform: {
        url: 'https://api.mews.com',
        clientTokenFile: tokenFile(0o644),
        accessTokenFile: tokenFile(0o600),
      },
    });
    const looseRun = await cli(['check-config', '--config', loose], {});
    expect(looseRun.code).toBe(1);
    expect(looseRun.err).toContain('can be read by other users');
    expect(looseRun.err).not.toContain(SECRET);
    const plain = configFile({ version: 1, platform: { url: 'http://api.mews.com' } });
    const plainRun = await cli(['check-config', '--config', plain], {});
    expect(plainRun.code).toBe(1);
    expect(plainRun.err).toContain('platform.url: http:// sends the tokens unencrypted');
  });

  it('run refuses a status page token file that others can read, before starting anything', async () => {
    const path = configFile({
      version: 1,
      platform: { url: 'http://127.0.0.1:1' },
      status: { listen: '127.0.0.1:0', accessTokenFile: tokenFile(0o644) },
    });
    const run = await cli(['run', '--config', path], {
      FRONTDESK_CLIENT_TOKEN: 'client-env-token',
      FRONTDESK_ACCESS_TOKEN: 'access-env-token',
    });
    expect(run.code).toBe(1);
    expect(run.err).toContain('The status action token file');
    expect(run.err).toContain('chmod 600');
  });
});
