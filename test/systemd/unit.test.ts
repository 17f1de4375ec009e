import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireTool } from '../helpers/tools.js';

const systemdDir = join(import.meta.dirname, '..', '..', 'systemd');
const unitPath = join(systemdDir, 'frontdesk-agent.service');
const unitText = readFileSync(unitPath, 'utf8');
const socketText = readFileSync(join(systemdDir, 'frontdesk-agent.socket'), 'utf8');
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

/**
 * A copy of the units, named as the real ones, whose ExecStart binary exists on this machine; the
 * service's path (its socket unit beside it).
 */
function verifiableCopy(): string {
  const dir = mkdtempSync(join(scratch, 'unit-'));
  const path = join(dir, 'frontdesk-agent.service');
  writeFileSync(
    path,
    unitText.replace(/^ExecStart=\/usr\/bin\/frontdesk-agent /m, `ExecStart=${process.execPath} `),
  );
  writeFileSync(join(dir, 'frontdesk-agent.socket'), socketText);
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
      'metrics-token:/etc/frontdesk-agent/metrics-token',
    ]);
    expect(one('User')).toBe('frontdesk-agent');
    // No shared desktop group (dialout, plugdev): the devices' group is the service's own. The
    // staff group grants no device; the service joins it to give the staff socket to it.
    expect(s.get('SupplementaryGroups')).toEqual(['frontdesk-staff']);
    // The socket unit owns /run/frontdesk-agent: a RuntimeDirectory= would be removed at each stop.
    expect(s.has('RuntimeDirectory')).toBe(false);
    expect(one('Requires')).toBe('frontdesk-agent.socket');
    expect(one('Group')).toBe('frontdesk-agent');
    expect(one('DevicePolicy')).toBe('closed');
    expect(s.get('DeviceAllow')).toEqual(['char-ttyUSB rw', 'char-ttyACM rw', 'char-hidraw rw']);
    // Issue 40, item 8: hardening that costs nothing.
    expect(one('RestrictAddressFamilies')).toBe('AF_UNIX AF_INET AF_INET6');
    expect(one('ProcSubset')).toBe('pid');
    expect(one('ProtectProc')).toBe('invisible');
    expect(s.get('SocketBindDeny')).toEqual(['any']);
    expect(s.get('SocketBindAllow')).toEqual(['tcp']);
    expect(one('MemoryMax')).toBe('768M');
    // Issue 40, M5: the log's rate limit is set on purpose, above the agent's own bounded peak.
    expect(one('LogRateLimitIntervalSec')).toBe('30s');
    expect(one('LogRateLimitBurst')).toBe('20000');
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
    const service = verifiableCopy();
    const result = spawnSync('systemd-analyze', ['verify', service, service.replace(/service$/, 'socket')], {
      encoding: 'utf8',
    });
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
  });

  it('has a socket unit that holds the page’s port and the staff socket, in that order (issue 40, M6)', () => {
    const socket = settings(socketText);
    expect(socket.get('ListenStream')).toEqual(['127.0.0.1:8720', '/run/frontdesk-agent/staff.sock']);
    expect(socket.get('SocketUser')).toEqual(['root']);
    expect(socket.get('SocketGroup')).toEqual(['frontdesk-staff']);
    expect(socket.get('SocketMode')).toEqual(['0660']);
    expect(socket.get('DirectoryMode')).toEqual(['0755']);
    expect(socket.get('Accept')).toEqual(['no']);
    expect(socket.get('Service')).toEqual(['frontdesk-agent.service']);
  });

  it.runIf(haveAnalyze)('has an offline security exposure of at most 1.5', () => {
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
    expect(exposure).toBeLessThanOrEqual(1.5);
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
