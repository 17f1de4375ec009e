import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type FpmateSimulator, startFpmateSimulator } from '../../drivers/epson-fpmate/simulator/index.js';
import type { Check, DoctorReport } from '../../src/cli/doctor-report.js';
import { openJournal } from '../../src/commands/journal/journal.js';
import {
  type PlatformSimulator,
  type ScenarioInput,
  startPlatformSimulator,
} from '../../src/platform-simulator/index.js';
import { createDaemon, tempDir } from '../helpers/daemon.js';
import { type CliRun, spawnCli } from './spawn-cli.js';

/**
 * `frontdesk-agent doctor`, the real command line against the platform simulator and the Epson RT
 * printer simulator, with each fault the fault campaign injects (test/faults/chaos.ts): the
 * platform down (503 on everything), wrong tokens, the printer refusing connections, paper out,
 * and a journal the agent cannot write.
 */

const DEVICES = {
  epson: 'd0c70000-0000-4000-8000-000000000001',
  keys: 'd0c70000-0000-4000-8000-000000000002',
  printer: 'd0c70000-0000-4000-8000-000000000003',
} as const;
const TOKENS = { clientToken: 'DOCTOR-CLIENT-TOKEN-5e1f0a', accessToken: 'DOCTOR-ACCESS-TOKEN-77c2b9' };

function scenario(): ScenarioInput {
  return {
    name: 'doctor',
    seed: 77,
    platform: { ...TOKENS },
    enterprises: [{ id: 'd0c7e000-0000-4000-8000-000000000000', name: 'Hotel Doctor' }],
    devices: [
      {
        id: DEVICES.epson,
        type: 'FiscalMachine',
        name: 'RT Epson',
        apiUrl: 'http://127.0.0.1:1',
        serialNumber: '99MEYDOCTOR',
      },
      { id: DEVICES.keys, type: 'KeyCutter', name: 'Encoder', keyCutterId: '1' },
      { id: DEVICES.printer, type: 'Printer', name: 'Laser (not ours)' },
    ],
    reservations: { generate: 2 },
    generator: { autostart: false, rate: 0 },
  };
}

let platform: PlatformSimulator;
let printer: FpmateSimulator;
let dir: string;
/** A stand-in `systemctl` on PATH that answers like an active unit. */
let fakeBin: string;

beforeAll(async () => {
  platform = await startPlatformSimulator({ scenario: scenario() });
  printer = await startFpmateSimulator({ serial: '99MEYDOCTOR' });
  dir = tempDir('doctor');
  fakeBin = join(dir, 'bin');
  mkdirSync(fakeBin);
  writeFileSync(
    join(fakeBin, 'systemctl'),
    `#!/bin/sh\nprintf 'LoadState=loaded\\nActiveState=active\\nSubState=running\\nResult=success\\nNRestarts=0\\nActiveEnterTimestamp=Mon 2026-11-23 08:00:00 CET\\n'\n`,
    { mode: 0o755 },
  );
});

afterAll(async () => {
  await printer?.close();
  await platform?.close();
});

function config(
  name: string,
  overrides: Record<string, unknown> = {},
): { path: string; journal: string; doc: Record<string, unknown> } {
  const own = join(dir, name);
  mkdirSync(own, { recursive: true });
  const journal = join(own, 'state', 'journal.db');
  const doc = {
    version: 1,
    platform: { url: platform.url, requestTimeoutMs: 3000 },
    journal: { path: journal },
    status: { listen: '127.0.0.1:0' },
    devices: [
      {
        id: DEVICES.epson,
        name: 'RT Epson',
        type: 'FiscalMachine',
        driver: 'epson-fpmate',
        options: { url: printer.url, printerTimeoutMs: 1000, readTimeoutMs: 1000, statusIntervalMs: 0 },
      },
      {
        id: DEVICES.keys,
        name: 'Encoder',
        type: 'KeyCutter',
        driver: 'sim-encoder',
        options: { durationMs: 10, ledgerPath: join(own, 'ledger.jsonl') },
      },
    ],
    ...overrides,
  };
  const path = join(own, 'agent.yaml');
  writeFileSync(path, stringify(doc));
  return { path, journal, doc };
}

const goodEnv = {
  FRONTDESK_CLIENT_TOKEN: TOKENS.clientToken,
  FRONTDESK_ACCESS_TOKEN: TOKENS.accessToken,
  CREDENTIALS_DIRECTORY: undefined,
  INVOCATION_ID: undefined,
};

async function doctor(
  configPath: string,
  env: Record<string, string | undefined> = goodEnv,
): Promise<{ run: CliRun; report: DoctorReport }> {
  const run = await spawnCli(['doctor', '--config', configPath, '--json', '--timeout', '5000'], {
    env: { PATH: `${fakeBin}:${process.env.PATH}`, ...env },
  });
  let report: DoctorReport;
  try {
    report = JSON.parse(run.out) as DoctorReport;
  } catch {
    throw new Error(`doctor printed no JSON (exit ${run.code}):\n${run.out}\n${run.err}`);
  }
  expect(run.err).toBe('');
  expect(run.code).toBe(report.failures);
  return { run, report };
}

function check(report: DoctorReport, id: string, deviceId?: string): Check {
  const found = report.checks.find((c) => c.id === id && (deviceId === undefined || c.deviceId === deviceId));
  if (!found) throw new Error(`no check ${id} in ${JSON.stringify(report.checks.map((c) => c.id))}`);
  return found;
}

function failing(report: DoctorReport): string[] {
  return report.checks
    .filter((c) => c.status === 'fail')
    .map((c) => (c.deviceId ? `${c.id}:${c.deviceId}` : c.id));
}

describe('doctor', () => {
  it('passes every check of a healthy setup, in order, and prints a checklist', async () => {
    const { path } = config('healthy');
    const { report } = await doctor(path);
    expect(report.checks.map((c) => c.id)).toEqual([
      'config',
      'tokens',
      'platform',
      'platform-devices',
      'clock',
      'agent',
      'device',
      'device',
      'journal',
      'disk',
      'systemd',
    ]);
    expect(failing(report)).toEqual([]);
    expect(check(report, 'platform').summary).toContain('tokens accepted');
    expect(check(report, 'clock').summary).toMatch(/this PC is \d+\.\d s (behind|ahead of) the platform/);
    expect(check(report, 'device', DEVICES.epson)).toMatchObject({ status: 'ok', summary: 'ready' });
    expect(check(report, 'device', DEVICES.epson).facts).toMatchObject({
      paper: { id: 'epson.fact.paperOk' },
      fiscalDayOpen: false,
    });
    expect(check(report, 'systemd')).toMatchObject({
      status: 'ok',
      summary: 'frontdesk-agent.service: active (running)',
    });

    const text = await spawnCli(['doctor', '--config', config('healthy-en', { locale: 'en' }).path], {
      env: { PATH: `${fakeBin}:${process.env.PATH}`, ...goodEnv },
    });
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^\[ ok \] platform — /m);
    expect(text.out).toMatch(/^\[ ok \] device RT Epson — ready$/m);
    expect(text.out.trim().split('\n').at(-1)).toBe('No problems found.');
    expect(text.out).not.toContain(TOKENS.accessToken);
  });

  it('prints the checklist in the configured language (Italian for an Italian zone), and JSON in English', async () => {
    const { path, journal } = config('healthy-it', { timezone: 'Europe/Rome' });
    const text = await spawnCli(['doctor', '--config', path], {
      env: { PATH: `${fakeBin}:${process.env.PATH}`, ...goodEnv, LANG: 'C.UTF-8' },
    });
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^\[ ok \] configurazione — valida: 2 dispositivi, registro /m);
    expect(text.out).toContain(
      `[ ok ] registro — ${journal} non esiste ancora; l’agente lo crea al primo avvio`,
    );
    expect(text.out).toMatch(/^\[ ok \] systemd — frontdesk-agent.service: active \(running\)$/m);
    expect(text.out).toMatch(/^\[ ok \] token — leggibili, e nessun file di token è leggibile da altri$/m);
    expect(text.out).toMatch(
      /^\[ ok \] piattaforma — .+ risponde in \d+ ms; token accettati, \d+ dispositivi visibili$/m,
    );
    expect(text.out).toMatch(
      /^\[ ok \] orologio — questo PC è \d+,\d s (indietro|avanti) rispetto alla piattaforma/m,
    );
    expect(text.out).toMatch(/^\[ ok \] dispositivo Encoder — pronto \(encoder simulato\)$/m);
    expect(text.out).toContain('KeyCutter, driver sim-encoder, aperto da doctor');
    expect(text.out).toContain('[info] agente — status.listen 127.0.0.1:0: non interrogato');
    expect(text.out.trim().split('\n').at(-1)).toBe('Nessun problema trovato.');
    const { report } = await doctor(path);
    expect(check(report, 'config')).toMatchObject({
      title: 'configuration',
      summary: expect.stringMatching(/^valid: 2 devices/),
    });
  });

  it('a configuration that cannot be read: the fix in the language of the system locale', async () => {
    const path = join(dir, 'missing.yaml');
    const text = await spawnCli(['doctor', '--config', path], {
      env: {
        PATH: `${fakeBin}:${process.env.PATH}`,
        ...goodEnv,
        LANG: 'it_IT.UTF-8',
        LC_ALL: undefined,
        LC_MESSAGES: undefined,
      },
    });
    expect(text.out).toMatch(/^\[FAIL\] configurazione — /m);
    expect(text.out).toContain(
      `rimedio: Correggere ${path} (config/agent.example.yaml documenta ogni chiave)`,
    );
    expect(text.out).toMatch(/problema trovato|problemi trovati/);
  });

  it('platform down: says the platform answers with errors, and that nothing is lost meanwhile', async () => {
    const { path } = config('platform-down');
    platform.setFaults({ serverErrors: { rate: 1, status: 503 } });
    try {
      const { report } = await doctor(path);
      expect(failing(report)).toEqual(['platform']);
      expect(check(report, 'platform').summary).toContain('PLATFORM_ERROR');
      expect(check(report, 'platform').fix?.join(' ')).toMatch(/down or in maintenance.*keeps every result/);
      expect(check(report, 'platform-devices').status).toBe('skip');
    } finally {
      platform.setFaults({ serverErrors: {} });
    }
    // Nothing listening at all: the fix is the network.
    const { path: refused } = config('platform-refused', { platform: { url: 'http://127.0.0.1:1' } });
    const { report } = await doctor(refused);
    expect(failing(report)).toEqual(['platform']);
    expect(check(report, 'platform').summary).toContain('PLATFORM_UNREACHABLE');
    expect(check(report, 'platform').fix?.[0]).toMatch(/network, DNS and any firewall/);
  });

  it('wrong token: says the platform refused the tokens and how to install new ones, never printing them', async () => {
    const { path } = config('wrong-token');
    const { run, report } = await doctor(path, {
      ...goodEnv,
      FRONTDESK_ACCESS_TOKEN: 'WRONG-ACCESS-TOKEN-0000',
    });
    expect(failing(report)).toEqual(['platform']);
    expect(check(report, 'platform').summary).toContain('PLATFORM_AUTH');
    expect(check(report, 'platform').fix?.[0]).toMatch(/refused the tokens.*--tokens-from-stdin/);
    expect(run.out).not.toContain('WRONG-ACCESS-TOKEN-0000');
    expect(run.out).not.toContain(TOKENS.clientToken);
  });

  it('printer unreachable: the device fails with what to check', async () => {
    const { path } = config('printer-unreachable');
    await printer.setFault('refused', true);
    try {
      const { report } = await doctor(path);
      expect(failing(report)).toEqual([`device:${DEVICES.epson}`]);
      const epson = check(report, 'device', DEVICES.epson);
      expect(epson.summary).toMatch(/does not answer/);
      expect(epson.fix?.[0]).toMatch(/switched on and connected/);
      expect(check(report, 'device', DEVICES.keys).status).toBe('ok');
    } finally {
      await printer.setFault('refused', false);
    }
  });

  it('paper out: the device fails with the printer’s own advice', async () => {
    const { path } = config('paper-out');
    await printer.setFault('paperOut', true);
    try {
      const { report } = await doctor(path);
      expect(failing(report)).toEqual([`device:${DEVICES.epson}`]);
      const epson = check(report, 'device', DEVICES.epson);
      expect(epson.summary).toMatch(/paper out/);
      expect(epson.fix?.join(' ')).toMatch(/replace the paper roll/);
      expect(epson.facts?.paper).toEqual({ id: 'epson.fact.paperOutOrCoverOpen' });
    } finally {
      await printer.setFault('paperOut', false);
    }
  });

  it('journal unwritable: the journal fails with how to give it back to the agent', async () => {
    const { path, journal } = config('journal-unwritable');
    mkdirSync(join(journal, '..'), { recursive: true });
    openJournal(journal).close();
    const undo = makeUnwritable(journal);
    try {
      const { report } = await doctor(path);
      expect(failing(report)).toEqual(['journal']);
      const check_ = check(report, 'journal');
      expect(check_.summary).toMatch(/the agent cannot write .*journal\.db \((EACCES|EPERM)\)/);
      expect(check_.fix?.join(' ')).toMatch(/chown -R frontdesk-agent.*chattr -i/);
    } finally {
      undo();
    }
    const { report } = await doctor(path);
    expect(check(report, 'journal')).toMatchObject({ status: 'ok' });
    expect(check(report, 'journal').summary).toContain('integrity ok, writable');
  });

  it('token files readable by others fail with the chmod that fixes them', async () => {
    const clientFile = join(dir, 'client-token');
    const accessFile = join(dir, 'access-token');
    writeFileSync(clientFile, `${TOKENS.clientToken}\n`, { mode: 0o600 });
    writeFileSync(accessFile, `${TOKENS.accessToken}\n`);
    chmodSync(accessFile, 0o644);
    const { path } = config('token-modes', {
      platform: { url: platform.url, clientTokenFile: clientFile, accessTokenFile: accessFile },
    });
    const { report } = await doctor(path, { CREDENTIALS_DIRECTORY: undefined });
    expect(failing(report)).toEqual(['tokens']);
    expect(check(report, 'tokens').fix).toEqual([`sudo chmod 600 ${accessFile}`]);
    // The agent refuses such a file (as ssh refuses a key), so the platform is not asked.
    expect(check(report, 'tokens').summary).toContain(`${accessFile} can be read by other users (mode 0644)`);
    expect(check(report, 'platform')).toMatchObject({
      status: 'skip',
      summary: 'no tokens to ask it with (see tokens)',
    });
  });

  it('reads the devices from the running agent instead of opening them a second time', async () => {
    const { doc, journal } = config('running');
    const daemon = createDaemon({
      config: doc,
      env: { FRONTDESK_CLIENT_TOKEN: TOKENS.clientToken, FRONTDESK_ACCESS_TOKEN: TOKENS.accessToken },
    });
    await daemon.start();
    try {
      const url = daemon.statusUrl();
      const { path: probing } = config('running-probe', {
        status: { listen: url.replace(/^http:\/\//, ''), staffSocket: daemon.staffSocket },
        journal: { path: journal },
      });
      const { report } = await doctor(probing);
      expect(check(report, 'agent').summary).toContain(`running at ${url}`);
      expect(check(report, 'device', DEVICES.epson)).toMatchObject({ status: 'ok' });
      expect(check(report, 'device', DEVICES.epson).details?.[0]).toContain('as the running agent sees it');
      expect(failing(report)).toEqual([]);
    } finally {
      await daemon.stop();
    }
  });
});

/**
 * Makes a journal unwritable for the agent: read-only modes for an ordinary user, the immutable
 * attribute for root (whom modes do not stop). Returns the undo.
 */
function makeUnwritable(file: string): () => void {
  const parent = join(file, '..');
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', file]);
    return () => execFileSync('chattr', ['-i', file]);
  }
  chmodSync(file, 0o444);
  chmodSync(parent, 0o555);
  return () => {
    chmodSync(parent, 0o755);
    chmodSync(file, 0o644);
  };
}
