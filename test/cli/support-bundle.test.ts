import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  type PlatformSimulator,
  type ScenarioInput,
  startPlatformSimulator,
} from '../../src/platform-simulator/index.js';
import { createDaemon, tempDir } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { spawnCli } from './spawn-cli.js';

/**
 * `frontdesk-agent support-bundle`: the journal is seeded by the real daemon with commands of a
 * guest whose name, phone and e-mail are known — a receipt that closed (the journal no longer
 * holds the guest's data) and a key command still open when the agent was killed (it does) —
 * the log holds them too, and the archive must hold none of them, nor any token.
 */

const DEVICES = {
  fiscal: 'b0d1e000-0000-4000-8000-000000000001',
  keys: 'b0d1e000-0000-4000-8000-000000000002',
} as const;
const TOKENS = { clientToken: 'BUNDLE-CLIENT-TOKEN-3a9f51', accessToken: 'BUNDLE-ACCESS-TOKEN-c04d2e' };
const RESERVATION = 'b0d1e000-0000-4000-8000-0000000000aa';
const GUEST = {
  firstName: 'Giulia',
  lastName: 'D’Annunzio-Bellini',
  email: 'giulia.dannunzio@esempio.it',
  telephone: '+39 347 555 0192',
};
/** Everything that must not leave the PC, in the forms it may take. */
const FORBIDDEN = [
  TOKENS.clientToken,
  TOKENS.accessToken,
  'Giulia',
  'GIULIA',
  'Annunzio',
  'Bellini',
  'BELLINI',
  'esempio.it',
  '555 0192',
  '3475550192',
  'other.person@example.com',
  '+44 20 7946 0958',
];

function scenario(): ScenarioInput {
  return {
    name: 'bundle',
    seed: 5,
    platform: { ...TOKENS },
    enterprises: [{ id: 'b0d1e000-0000-4000-8000-0000000000e0', name: 'Hotel Bundle' }],
    devices: [
      {
        id: DEVICES.fiscal,
        type: 'FiscalMachine',
        name: 'RT sim',
        apiUrl: 'http://127.0.0.1:1',
        serialNumber: '99SIMBUNDLE',
        settings: { sim: { outcome: 'ok', durationMs: 5 } },
      },
      { id: DEVICES.keys, type: 'KeyCutter', name: 'Encoder sim', keyCutterId: '1' },
    ],
    rooms: [{ number: '101' }],
    reservations: { generate: 0, list: [{ id: RESERVATION, ...GUEST, rooms: ['101'] }] },
    generator: { autostart: false, rate: 0 },
  };
}

let platform: PlatformSimulator;
let dir: string;
let configPath: string;
let logPath: string;
const env = { FRONTDESK_CLIENT_TOKEN: TOKENS.clientToken, FRONTDESK_ACCESS_TOKEN: TOKENS.accessToken };

beforeAll(async () => {
  platform = await startPlatformSimulator({ scenario: scenario() });
  dir = tempDir('bundle');
  const config = {
    version: 1,
    platform: { url: platform.url },
    site: { property: 'hotel-bundle', desk: 'reception' },
    journal: { path: join(dir, 'journal.db') },
    status: { listen: '127.0.0.1:0' },
    devices: [
      {
        id: DEVICES.fiscal,
        name: 'RT sim',
        type: 'FiscalMachine',
        driver: 'sim-fiscal',
        options: { durationMs: 5, ledgerPath: join(dir, 'fiscal.jsonl') },
      },
      {
        id: DEVICES.keys,
        name: 'Encoder sim',
        type: 'KeyCutter',
        driver: 'sim-encoder',
        // Slow enough to be cutting when the agent is killed: the command stays open.
        options: { durationMs: 600_000, ledgerPath: join(dir, 'keys.jsonl') },
      },
    ],
  };
  configPath = join(dir, 'agent.yaml');
  writeFileSync(configPath, stringify(config));

  // The real daemon prints a receipt for the guest and starts cutting a key; it is killed while
  // cutting, so the key command stays open in the journal with the guest's data.
  const daemon = createDaemon({ config, env });
  await daemon.start();
  const keys = platform.createKeys({ deviceId: DEVICES.keys, reservationId: RESERVATION, keyCount: 1 }).id;
  const receipt = platform.createFiscalData({ deviceId: DEVICES.fiscal, reservationId: RESERVATION }).id;
  try {
    await eventually(
      () =>
        `receipt processed, keys being cut (${platform.command(receipt)?.state}, ${platform.command(keys)?.state})`,
      () =>
        platform.command(receipt)?.state === 'Processed' && platform.command(keys)?.state === 'Processing',
    );
    await eventually(
      () => 'the receipt closed in the journal',
      () => daemon.lines.some((l) => l.includes(`commandId=${receipt}`) && l.includes('to=closed')),
    );
  } finally {
    await daemon.kill();
  }
  const db = new Database(join(dir, 'journal.db'), { readonly: true });
  const storedOf = (id: string) =>
    (db.prepare('SELECT command_json FROM commands WHERE id = ?').get(id) as { command_json: string })
      .command_json;
  const open = storedOf(keys);
  const closed = storedOf(receipt);
  db.close();
  expect(open).toContain(GUEST.lastName);
  expect(open).toContain(GUEST.email);
  // Data minimisation: a closed command keeps no guest data.
  for (const word of ['Giulia', 'Annunzio', 'esempio.it', '0192']) expect(closed).not.toContain(word);

  // The log as the daemon wrote it, plus lines a careless driver might have written.
  const now = new Date().toISOString();
  const old = new Date(Date.now() - 30 * 3600_000).toISOString();
  logPath = join(dir, 'agent.log');
  writeFileSync(
    logPath,
    [
      `${old} info a line from yesterday, outside the last hours marker=OLD-LINE`,
      // Under journald the daemon's lines carry no time (journald adds it); here they get one.
      ...daemon.lines.map((line) => `${now} ${line.replace(/^<\d>/, '')}`),
      `${now} info encoding guest="${GUEST.firstName} ${GUEST.lastName}" email=${GUEST.email} phone="${GUEST.telephone}"`,
      `${now} warn card for GIULIA D’ANNUNZIO-BELLINI phone=+393475550192 token=${TOKENS.accessToken}`,
      `${now} info forwarded to other.person@example.com, call +44 20 7946 0958`,
      `${now} info the last line marker=LAST-LINE`,
    ].join('\n'),
  );
}, 60_000);

afterAll(async () => {
  await platform?.close();
});

async function unpack(archive: string): Promise<Map<string, string>> {
  const out = tempDir('bundle-x');
  await extract({ file: archive, cwd: out });
  const [top] = readdirSync(out);
  if (!top) throw new Error('empty archive');
  const files = new Map<string, string>();
  for (const name of readdirSync(join(out, top))) files.set(name, readFileSync(join(out, top, name), 'utf8'));
  return files;
}

function expectClean(label: string, text: string): void {
  for (const word of FORBIDDEN) expect(text.includes(word), `${label} holds ${word}`).toBe(false);
}

describe('support-bundle', () => {
  it('writes one archive with config, log, journal figures, devices and doctor, holding no token and no guest data', async () => {
    const archive = join(dir, 'bundle.tar.gz');
    const run = await spawnCli(
      ['support-bundle', '--config', configPath, '-o', archive, '--log-file', logPath],
      {
        env: { ...env, PATH: `${tempDir('no-systemctl')}:${process.env.PATH}` },
      },
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    // The configuration's zone is Italian, so the person running it reads Italian…
    expect(run.out).toContain(`scritto ${archive}`);
    expect(run.out).toContain('doctor: nessun problema; token, nomi degli ospiti');
    expect(run.out).toContain(`log: file ${logPath} (the lines of the last 6 hours)`);
    expect(statSync(archive).mode & 0o777).toBe(0o600);

    const files = await unpack(archive);
    expect([...files.keys()].sort()).toEqual([
      'README.txt',
      'config.yaml',
      'devices.json',
      'doctor.json',
      'doctor.txt',
      'journal.json',
      'log.txt',
      'manifest.json',
      'system.json',
    ]);
    for (const [name, text] of files) expectClean(name, text);
    expectClean('the archive', gunzipSync(readFileSync(archive)).toString('utf8'));

    const manifest = JSON.parse(files.get('manifest.json') as string);
    expect(manifest.logSource).toBe(`file ${logPath} (the lines of the last 6 hours)`);
    expect(manifest.redaction.personalStringsFromJournal).toBeGreaterThan(3);
    const log = files.get('log.txt') as string;
    expect(log).toContain('marker=LAST-LINE');
    expect(log).not.toContain('OLD-LINE');
    expect(log).toContain('status page at');
    expect(log).toContain('encoding guest="[guest] [guest]" email=[email] phone="[phone]"');
    expect(log).toContain('card for [guest] [guest] phone=[phone] token=[redacted]');
    expect(log).toContain('forwarded to [email], call [phone]');

    const journal = JSON.parse(files.get('journal.json') as string);
    expect(journal.quickCheck).toBe('ok');
    expect(journal.commands.total).toBe(2);
    expect(journal.commands.byState).toEqual({ Processed: 1, Processing: 1 });
    const devices = JSON.parse(files.get('devices.json') as string) as Array<{
      device: string;
      status: string;
    }>;
    expect(devices.map((d) => [d.device, d.status])).toEqual([
      [DEVICES.fiscal, 'ok'],
      [DEVICES.keys, 'ok'],
    ]);
    const doctor = JSON.parse(files.get('doctor.json') as string);
    expect(doctor.failures).toBe(0);
    // …while the bundle's checklist is English, for support.
    expect(files.get('doctor.txt')).toMatch(/^\[ ok \] configuration — valid: 2 devices, journal /m);
    expect(files.get('doctor.txt')?.trim().split('\n').at(-1)).toBe('No problems found.');
    expect(files.get('config.yaml')).toContain('property: hotel-bundle');
  });

  it('takes the log from journalctl when no file is named, and says so', async () => {
    const bin = join(tempDir('fake-journalctl'), 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'journalctl'),
      `#!/bin/sh\necho "args: $*"\necho "Nov 23 09:00:01 desk frontdesk-agent[42]: info guest ${GUEST.firstName} ${GUEST.lastName} <${GUEST.email}>"\n`,
      { mode: 0o755 },
    );
    const archive = join(dir, 'bundle-journald.tar.gz');
    const run = await spawnCli(['support-bundle', '--config', configPath, '-o', archive, '--hours', '2'], {
      env: { ...env, PATH: `${bin}:${process.env.PATH}` },
    });
    expect(run.code).toBe(0);
    const command = 'journalctl -u frontdesk-agent.service --since -2h --no-pager -o short-iso';
    expect(run.out).toContain(`log: ${command}`);
    const files = await unpack(archive);
    for (const [name, text] of files) expectClean(name, text);
    expect(JSON.parse(files.get('manifest.json') as string).logSource).toBe(command);
    expect(files.get('log.txt')).toBe(
      'args: -u frontdesk-agent.service --since -2h --no-pager -o short-iso\nNov 23 09:00:01 desk frontdesk-agent[42]: info guest [guest] [guest] <[email]>\n',
    );
  });
});
