import { networkInterfaces } from 'node:os';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { fiasLockFactory } from '../../../drivers/fias-lock/index.js';
import { FiasLockServerSimulator } from '../../../drivers/fias-lock/simulator/index.js';
import { devicesCommand } from '../../../src/cli/devices.js';
import { devicesDirectly } from '../../../src/cli/doctor-devices.js';
import type { CliIo } from '../../../src/cli/io.js';
import { parseConfig } from '../../../src/config.js';
import type { DriverFactory, DriverRegistry } from '../../../src/drivers-api/types.js';
import { isAgentError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/log.js';
import { english } from '../../../src/messages/render.js';
import { tempDir } from '../../helpers/daemon.js';
import { testDriverContext } from '../../helpers/driver-context.js';
import { freePort, keyJob, live, run } from './rig.js';

/**
 * What the agent's tools say about a FIAS encoder: `devices` suggests this PC's addresses for the
 * lock server to connect to, `doctor` opens the driver and judges it by its link (and names the
 * address the lock server must use when it is not linked), `check-config` describes the options.
 */

const registry: DriverRegistry = new Map([
  ['fias-lock', async () => fiasLockFactory as DriverFactory<unknown>],
]);

let sim: FiasLockServerSimulator | undefined;

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

function io(): CliIo & { out(): string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  return { stdout, stderr, onSignal: () => () => undefined, out: () => out } as unknown as CliIo & {
    out(): string;
  };
}

function config(port: number, lockServer: { lockServer?: string } = { lockServer: '127.0.0.1' }) {
  return parseConfig({
    version: 1,
    platform: { url: 'https://api.mews-demo.com' },
    journal: { path: `${tempDir('fias-doctor')}/journal.db` },
    locale: 'en',
    devices: [
      {
        id: 'lobby',
        name: 'Lobby encoder',
        type: 'KeyCutter',
        driver: 'fias-lock',
        options: { port, ...lockServer, openWaitMs: 3000 },
      },
    ],
  });
}

describe('fias-lock in the agent’s tools', () => {
  it('devices: one suggestion per LAN address of this PC, as a key device with the options to paste', async () => {
    const out = io();
    const code = await devicesCommand({ json: false, lan: false }, out, {
      registry,
      listCandidates: async () => ({ devices: [], problems: [] }),
    });
    expect(code).toBe(0);
    const lan = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'))
      .map((a) => a?.address as string);
    for (const address of lan) {
      expect(out.out()).toContain(`keys   this PC, for a FIAS lock server  ${address}:5010`);
      expect(out.out()).toContain(`driver: fias-lock  options: {"host":"${address}","port":5010,`);
    }
    if (lan.length === 0) expect(out.out()).toBe('No serial ports, HID devices or printers found.\n');
  });

  it('doctor: ok with the link’s facts when the lock server is linked; a failure naming where it must connect when not', async () => {
    const port = await freePort();
    const absent = await devicesDirectly(config(port), registry, 500, []);
    expect(absent).toHaveLength(1);
    expect(absent[0]?.status).toBe('fail');
    expect(absent[0]?.fix?.join('\n')).toContain(`its PMS (FIAS) interface points at 127.0.0.1:${port}`);

    sim = new FiasLockServerSimulator({ host: '127.0.0.1', port, retryMs: 20 });
    sim.start();
    const linked = await devicesDirectly(config(port), registry, 5000, []);
    expect(linked[0]).toMatchObject({ status: 'ok', summary: 'ready (lock server linked)' });
    expect(linked[0]?.details?.join('\n')).toMatch(/Link: alive/);
  });

  it('check-config: what the options mean, one line each', () => {
    const options = fiasLockFactory.configSchema.parse({
      host: '192.0.2.5',
      port: 5010,
      lockServer: '192.0.2.20',
    });
    expect(fiasLockFactory.describe?.(options).map(english)).toEqual([
      'listens on 192.0.2.5:5010 for the lock server 192.0.2.20 (it must connect there)',
      'encoder (KC): the command’s KeyCutterId, workstation (WS): FRONTDESK',
      'first key of a command: new (KTN, earlier keys stop working); departure time as HH:MM',
    ]);
  });

  it('refuses options that cannot work: a lock server elsewhere while listening on loopback, a host name as lockServer', () => {
    const loopback = fiasLockFactory.configSchema.safeParse({ port: 5010, lockServer: '192.0.2.20' });
    expect(loopback.success ? 'accepted' : loopback.error.issues[0]?.message).toMatch(
      /the agent listens on 127\.0\.0\.1 \(this PC only\), so the lock server 192\.0\.2\.20 cannot connect/,
    );
    const named = fiasLockFactory.configSchema.safeParse({
      host: '0.0.0.0',
      port: 5010,
      lockServer: 'locks.local',
    });
    expect(named.success ? 'accepted' : named.error.issues[0]?.message).toMatch(/expected an IP address/);
    expect(fiasLockFactory.configSchema.safeParse({ host: '127.0.0.1' }).success).toBe(false);
  });

  it('lockServer has no default (issue 40 M1): a device without it is a configuration error naming it and saying why', async () => {
    // The agent builds no such device (createDevices: CONFIG_INVALID); doctor says why it cannot check it.
    const [doctor] = await devicesDirectly(config(await freePort(), {}), registry, 500, []);
    expect([doctor?.status, doctor?.summary]).toEqual([
      'skip',
      expect.stringMatching(/devices\[0\]\.options\.lockServer: required: the lock server’s IP address/),
    ]);
    const missing = fiasLockFactory.configSchema.safeParse({ port: 5010 });
    expect(
      missing.success ? 'accepted' : missing.error.issues.map((i) => [i.path.join('.'), i.message]),
    ).toEqual([
      [
        'lockServer',
        'required: the lock server’s IP address (every other address is refused; 127.0.0.1 lets any program on this PC be the lock server)',
      ],
    ]);
  });

  it('simulate(): the demo’s lock server connects where the driver listens; only on loopback', async () => {
    const port = await freePort();
    const options = fiasLockFactory.configSchema.parse({ port, lockServer: '127.0.0.1', openWaitMs: 5000 });
    const device = { id: 'lobby', name: 'Lobby encoder', log: silentLogger };
    const simulated = await fiasLockFactory.simulate?.(options, device);
    const driver = fiasLockFactory.create(options, testDriverContext());
    try {
      expect(simulated?.description).toBe(`simulated FIAS lock server connecting to 127.0.0.1:${port}`);
      await driver.open(live());
      expect((await run(driver, keyJob({ keyCount: 2 }))).ok).toBe(true);
    } finally {
      await driver.close();
      await simulated?.close();
    }
    const lan = fiasLockFactory.configSchema.parse({ host: '0.0.0.0', port, lockServer: '192.0.2.20' });
    const refused = await fiasLockFactory.simulate?.(lan, device).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAgentError(refused) && refused.code).toBe('CONFIG_INVALID');
  });
});
