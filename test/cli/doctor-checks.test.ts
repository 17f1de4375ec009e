import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeDevice, statusBaseUrl } from '../../src/cli/doctor-devices.js';
import { checkSystemd } from '../../src/cli/doctor-host.js';
import { clockCheck, MAX_SKEW_SECONDS } from '../../src/cli/doctor-platform.js';
import { exitCodeOf, renderText, report } from '../../src/cli/doctor-report.js';
import { AgentError } from '../../src/errors.js';
import { textMessage } from '../../src/messages/message.js';
import { tempDir } from '../helpers/daemon.js';

/** The parts of doctor that judge what they read, fed directly. */

describe('clock check', () => {
  const at = Date.UTC(2026, 10, 23, 9, 0, 0);
  const record = (platformMs: number) => ({
    date: new Date(platformMs).toUTCString(),
    durationMs: 200,
    receivedAt: at + 100,
  });

  it('compares the platform’s Date with this PC’s clock at the middle of the exchange', () => {
    // The exchange ran from at-100 to at+100; its middle is `at`. Date carries whole seconds.
    expect(clockCheck(record(at))).toMatchObject({
      status: 'ok',
      summary: expect.stringContaining('0.5 s behind'),
    });
    expect(clockCheck(record(at - 10_000))).toMatchObject({
      status: 'ok',
      summary: expect.stringContaining('9.5 s ahead of the platform'),
    });
    const behind = clockCheck(record(at + (MAX_SKEW_SECONDS + 5) * 1000));
    expect(behind).toMatchObject({ status: 'fail', summary: 'this PC is 35.5 s behind the platform' });
    expect(behind.fix?.[0]).toContain('timedatectl set-ntp true');
    expect(clockCheck(undefined).status).toBe('skip');
    expect(clockCheck({ date: 'garbage', durationMs: 1, receivedAt: at }).status).toBe('skip');
  });
});

describe('device verdicts', () => {
  const device = { id: 'd1', name: 'RT', type: 'FiscalMachine' as const, driver: 'x', options: {} };

  it('judges only from DeviceStatus: unreachable or any warning fails, with the warnings as the fix', () => {
    const ready = judgeDevice(
      device,
      { connected: true, summary: textMessage('ready'), warnings: [], facts: { a: 1 } },
      undefined,
      's',
    );
    expect(ready).toMatchObject({
      status: 'ok',
      summary: 'ready',
      details: ['FiscalMachine, driver x, s', 'A: 1'],
    });
    const warned = judgeDevice(
      device,
      {
        connected: true,
        summary: textMessage('ready, paper low'),
        warnings: [textMessage('Paper is running low: have a new roll ready.')],
        facts: {},
      },
      undefined,
      's',
    );
    expect(warned).toMatchObject({ status: 'fail', fix: ['Paper is running low: have a new roll ready.'] });
    const gone = judgeDevice(
      device,
      { connected: false, summary: textMessage('unplugged'), warnings: [], facts: {} },
      new AgentError('DEVICE_UNAVAILABLE', 'Encoder on /dev/ttyUSB0 is not there'),
      's',
    );
    expect(gone.status).toBe('fail');
    expect(gone.summary).toBe('Encoder on /dev/ttyUSB0 is not there (unplugged)');
    expect(gone.fix?.[0]).toMatch(/switched on and connected/);
  });

  it('finds the local address of the status page', () => {
    expect(statusBaseUrl('127.0.0.1:8720')).toBe('http://127.0.0.1:8720');
    expect(statusBaseUrl('0.0.0.0:8720')).toBe('http://127.0.0.1:8720');
    expect(statusBaseUrl('[::]:8720')).toBe('http://[::1]:8720');
    expect(statusBaseUrl('127.0.0.1:0')).toBeUndefined();
  });
});

describe('systemd check', () => {
  function fakeSystemctl(script: string): NodeJS.ProcessEnv {
    const bin = join(tempDir('systemctl'), 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'systemctl'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    return { PATH: `${bin}:/usr/bin:/bin` };
  }

  it('fails a stopped unit with where to read why, and says when it restarted', async () => {
    const env = fakeSystemctl(
      `[ "$1" = show ] && [ "$2" = frontdesk-agent.service ] || exit 9
printf 'LoadState=loaded\\nActiveState=failed\\nSubState=failed\\nResult=exit-code\\nNRestarts=3\\nActiveEnterTimestamp=\\n'`,
    );
    const check = await checkSystemd('frontdesk-agent.service', { ...env, INVOCATION_ID: 'abc123' });
    expect(check).toMatchObject({
      status: 'fail',
      summary: 'frontdesk-agent.service: failed (failed), result exit-code',
      fix: [
        'journalctl -u frontdesk-agent.service -e says why it stopped; start it with: sudo systemctl restart frontdesk-agent.service.',
      ],
    });
    expect(check.details).toEqual([
      'doctor itself runs in a systemd unit (INVOCATION_ID abc123)',
      'systemd restarted it 3 times: journalctl -u frontdesk-agent.service shows why',
    ]);
  });

  it('skips when the unit is not installed, systemd does not run, or there is no systemctl', async () => {
    const notFound = await checkSystemd(
      'frontdesk-agent.service',
      fakeSystemctl(`printf 'LoadState=not-found\\nActiveState=inactive\\n'`),
    );
    expect(notFound).toMatchObject({
      status: 'skip',
      summary: expect.stringContaining('not installed as a service'),
    });
    const noSystemd = await checkSystemd(
      'frontdesk-agent.service',
      fakeSystemctl(`echo 'System has not been booted with systemd as init system (PID 1).' >&2; exit 1`),
    );
    expect(noSystemd).toMatchObject({
      status: 'skip',
      summary: expect.stringContaining('has not been booted'),
    });
    const none = await checkSystemd('frontdesk-agent.service', { PATH: tempDir('empty') });
    expect(none).toMatchObject({ status: 'skip', summary: 'no systemctl on this PC' });
  });
});

describe('the checklist', () => {
  it('prints one line per check, facts wrapped and fixes below, and counts failures for the exit code', () => {
    const long = Array.from({ length: 12 }, (_, i) => `fact${i}: value ${i}`).join(', ');
    const result = report('1.0.0', 'agent.yaml', new Date(0), [
      { id: 'config', title: 'configuration', status: 'ok', summary: 'valid' },
      {
        id: 'device',
        title: 'device RT',
        status: 'fail',
        summary: 'paper out',
        details: [long],
        fix: ['Replace the roll.'],
      },
      { id: 'systemd', title: 'systemd', status: 'skip', summary: 'no systemctl' },
    ]);
    expect(exitCodeOf(result)).toBe(1);
    const lines = renderText(result).split('\n');
    expect(lines[0]).toBe('frontdesk-agent doctor 1.0.0: agent.yaml');
    expect(lines).toContain('[ ok ] configuration — valid');
    expect(lines).toContain('[FAIL] device RT — paper out');
    expect(lines).toContain('       fix: Replace the roll.');
    expect(lines).toContain('[skip] systemd — no systemctl');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(lines.filter((l) => l.includes('fact')).length).toBeGreaterThan(1);
    expect(lines.at(-2)).toBe('1 problem found (exit code 1).');
  });
});
