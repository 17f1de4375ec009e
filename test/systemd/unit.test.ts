import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireTool } from '../helpers/tools.js';

const systemdDir = join(import.meta.dirname, '..', '..', 'systemd');
const unitPath = join(systemdDir, 'frontdesk-agent.service');
const unitText = readFileSync(unitPath, 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'fd-unit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The unit's assignments, key → every value in order (repeated keys accumulate). */
function settings(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';') || line.startsWith('[')) continue;
    const eq = line.indexOf('=');
    const key = line.slice(0, eq);
    out.set(key, [...(out.get(key) ?? []), line.slice(eq + 1)]);
  }
  return out;
}

/** A copy of the unit, named as the real one, whose ExecStart binary exists on this machine. */
function verifiableCopy(): string {
  const dir = mkdtempSync(join(scratch, 'unit-'));
  const path = join(dir, 'frontdesk-agent.service');
  writeFileSync(
    path,
    unitText.replace(/^ExecStart=\/usr\/bin\/frontdesk-agent /m, `ExecStart=${process.execPath} `),
  );
  return path;
}

const haveAnalyze = requireTool('systemd-analyze', 'verifies the unit and scores its sandboxing');

describe('frontdesk-agent.service', () => {
  it('declares the service contract: notify, watchdog, restart, directories, credentials, devices', () => {
    const s = settings(unitText);
    const one = (key: string) => s.get(key)?.join(' | ');
    expect(one('Type')).toBe('notify');
    expect(one('NotifyAccess')).toBe('main');
    expect(one('WatchdogSec')).toBe('30');
    expect(one('Restart')).toBe('on-failure');
    expect(one('ExecStart')).toBe('/usr/bin/frontdesk-agent run --config /etc/frontdesk-agent/agent.yaml');
    expect(one('StateDirectory')).toBe('frontdesk-agent');
    expect(one('ConfigurationDirectory')).toBe('frontdesk-agent');
    expect(s.get('LoadCredential')).toEqual([
      'client-token:/etc/frontdesk-agent/client-token',
      'access-token:/etc/frontdesk-agent/access-token',
      'status-token:/etc/frontdesk-agent/status-token',
    ]);
    expect(one('User')).toBe('frontdesk-agent');
    // No shared desktop group (dialout, plugdev): the devices' group is the service's own. The
    // staff group grants no device; the service joins it to give the staff socket to it.
    expect(s.get('SupplementaryGroups')).toEqual(['frontdesk-staff']);
    expect(one('RuntimeDirectory')).toBe('frontdesk-agent');
    expect(one('RuntimeDirectoryMode')).toBe('0755');
    expect(one('Group')).toBe('frontdesk-agent');
    expect(one('DevicePolicy')).toBe('closed');
    expect(s.get('DeviceAllow')).toEqual(['char-ttyUSB rw', 'char-ttyACM rw', 'char-hidraw rw']);
    expect(one('RestrictAddressFamilies')).toBe('AF_UNIX AF_INET AF_INET6 AF_NETLINK');
    expect(one('CapabilityBoundingSet')).toBe('');
    for (const key of [
      'ProtectSystem',
      'ProtectHome',
      'PrivateTmp',
      'NoNewPrivileges',
      'LockPersonality',
      'RestrictNamespaces',
    ]) {
      expect(s.has(key), key).toBe(true);
    }
    // V8 needs writable+executable memory; PrivateDevices would hide /dev/ttyUSB* and /dev/serial/by-id.
    expect(s.has('MemoryDenyWriteExecute')).toBe(false);
    expect(s.has('PrivateDevices')).toBe(false);
  });

  it.runIf(haveAnalyze)('passes systemd-analyze verify without a single line of output', () => {
    const result = spawnSync('systemd-analyze', ['verify', verifiableCopy()], { encoding: 'utf8' });
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
  });

  it.runIf(haveAnalyze)('has an offline security exposure of at most 2.0', () => {
    const result = spawnSync(
      'systemd-analyze',
      ['security', '--offline=yes', '--no-pager', verifiableCopy()],
      {
        encoding: 'utf8',
      },
    );
    const match = /Overall exposure level for frontdesk-agent\.service:\s*([\d.]+)/.exec(result.stdout);
    expect(match, result.stdout + result.stderr).not.toBeNull();
    const exposure = Number(match?.[1]);
    expect(exposure).toBeGreaterThan(0);
    expect(exposure).toBeLessThanOrEqual(2.0);
  });
});

describe('99-frontdesk-agent.rules', () => {
  it('gives the CP2110 bridge’s hidraw node to the service’s group, mode 0660, in valid rule syntax', () => {
    const text = readFileSync(join(systemdDir, '99-frontdesk-agent.rules'), 'utf8');
    const rules = text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
    const token = /^\s*([A-Z]+(?:\{[\w.-]+\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*$/;
    for (const rule of rules) {
      for (const part of rule.split(',')) expect(token.test(part), `${rule} :: ${part}`).toBe(true);
    }
    const cp2110 = rules.find((r) => r.includes('SUBSYSTEM=="hidraw"'));
    expect(cp2110).toContain('ATTRS{idVendor}=="10c4"');
    expect(cp2110).toContain('ATTRS{idProduct}=="ea80"');
    expect(cp2110).toContain('GROUP="frontdesk-agent"');
    expect(rules.join('\n')).not.toMatch(/GROUP="(plugdev|dialout)"/);
    expect(cp2110).toContain('MODE="0660"');
  });
});

describe('the scripts', () => {
  it('parse (bash -n)', () => {
    for (const script of ['install.sh', 'uninstall.sh', 'as-service.sh', 'install-build.sh']) {
      const result = spawnSync('bash', ['-n', join(systemdDir, script)], { encoding: 'utf8' });
      expect(result.stderr, script).toBe('');
      expect(result.status, script).toBe(0);
      // install-build.sh holds functions only, sourced by the other two.
      if (script !== 'install-build.sh')
        expect(readFileSync(join(systemdDir, script), 'utf8')).toContain('set -euo pipefail');
    }
  });
});
