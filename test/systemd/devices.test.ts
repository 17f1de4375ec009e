import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inCi } from '../helpers/tools.js';

/**
 * Issue 27, "desktop users get raw access to the encoder": the encoder's device nodes belong to
 * the service, and no group a desktop user is in can open them. udevadm 252 (Debian 12) has no
 * `verify`, and applying rules needs real devices, so the rules are evaluated here for the
 * keys they use (SUBSYSTEM, KERNEL, ATTRS{…}, ENV{…}: `==`/`!=` with udev's globs and `|`; GROUP,
 * MODE) on top of the defaults of systemd's 50-udev-default.rules (tty → dialout 0660, hidraw →
 * root 0600; https://github.com/systemd/systemd/blob/v252/rules.d/50-udev-default.rules.in).
 * Then a stand-in node gets the resulting group and mode, and a process with a desktop user's
 * groups tries to open it.
 */

const systemdDir = join(import.meta.dirname, '..', '..', 'systemd');
const rulesText = readFileSync(join(systemdDir, '99-frontdesk-agent.rules'), 'utf8');
const unitText = readFileSync(join(systemdDir, 'frontdesk-agent.service'), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'fd-devices-'));
chmodSync(scratch, 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const asRoot = process.getuid?.() === 0;
if (!asRoot && inCi) throw new Error('the device access test switches users: CI runs the suite as root');

/** The groups of the first desktop user on Debian, Ubuntu and Raspberry Pi OS (their installers' defaults). */
const DESKTOP_GROUPS = [
  'adm',
  'dialout',
  'cdrom',
  'floppy',
  'sudo',
  'audio',
  'dip',
  'video',
  'plugdev',
  'games',
  'users',
  'input',
  'render',
  'netdev',
  'lpadmin',
  'scanner',
  'bluetooth',
  'gpio',
  'i2c',
  'spi',
];

interface Device {
  subsystem: string;
  kernel: string;
  attrs: Record<string, string>;
  env?: Record<string, string>;
}
type Clause = { key: string; op: string; value: string };

const CLAUSE = /^\s*([A-Z]+(?:\{[\w.-]+\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*$/;

function parseRules(text: string): Clause[][] {
  return text
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'))
    .map((rule) =>
      rule.split(',').map((part) => {
        const m = CLAUSE.exec(part);
        if (!m) throw new Error(`not a udev clause: ${part} (in ${rule})`);
        return { key: m[1] as string, op: m[2] as string, value: m[3] as string };
      }),
    );
}

/** udev's pattern match: shell globs (*, ?, […]) and `|` between alternatives. */
function globMatch(pattern: string, value: string): boolean {
  return pattern.split('|').some((alt) => {
    const re = alt
      .replace(/[.+^${}()\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
    return new RegExp(`^${re}$`).test(value);
  });
}

function propertyOf(device: Device, key: string): string | undefined {
  if (key === 'SUBSYSTEM') return device.subsystem;
  if (key === 'KERNEL') return device.kernel;
  const attr = /^ATTRS\{(.+)\}$/.exec(key);
  if (attr) return device.attrs[attr[1] as string];
  const env = /^ENV\{(.+)\}$/.exec(key);
  if (env) return device.env?.[env[1] as string];
  throw new Error(`the evaluator does not know the key ${key}`);
}

/** Group and mode of the device's node after the defaults and our rules. */
function evaluate(device: Device): { group: string; mode: string } {
  const result =
    device.subsystem === 'tty' ? { group: 'dialout', mode: '0660' } : { group: 'root', mode: '0600' };
  for (const rule of parseRules(rulesText)) {
    const matches = rule.filter((c) => c.op === '==' || c.op === '!=');
    const hit = matches.every((c) => {
      const value = propertyOf(device, c.key);
      const equal = value !== undefined && globMatch(c.value, value);
      return c.op === '==' ? equal : !equal;
    });
    if (!hit) continue;
    for (const c of rule.filter((x) => x.op === '=' || x.op === ':=')) {
      if (c.key === 'GROUP') result.group = c.value;
      else if (c.key === 'MODE') result.mode = c.value;
      else throw new Error(`the evaluator does not know the assignment ${c.key}`);
    }
  }
  return result;
}

const usb = (idVendor: string, idProduct: string) => ({ idVendor, idProduct });
const ENCODER_NODES: Array<[string, Device]> = [
  ['CP2110 bridge (hidraw)', { subsystem: 'hidraw', kernel: 'hidraw0', attrs: usb('10c4', 'ea80') }],
  ['FTDI adapter', { subsystem: 'tty', kernel: 'ttyUSB0', attrs: usb('0403', '6001') }],
  ['Prolific adapter', { subsystem: 'tty', kernel: 'ttyUSB1', attrs: usb('067b', '2303') }],
  ['CH340 adapter', { subsystem: 'tty', kernel: 'ttyUSB2', attrs: usb('1a86', '7523') }],
  ['CP2102 adapter', { subsystem: 'tty', kernel: 'ttyUSB3', attrs: usb('10c4', 'ea60') }],
];

function unitSetting(key: string): string[] {
  return unitText
    .split('\n')
    .filter((l) => l.startsWith(`${key}=`))
    .map((l) => l.slice(key.length + 1));
}

const gidOf = (group: string) => {
  const r = spawnSync('getent', ['group', group], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.split(':')[2]) : undefined;
};

/** A gid no group has: the service's group, which the installer creates (not on this machine). */
function freeGid(): number {
  for (let gid = 61000; gid < 62000; gid++) {
    if (spawnSync('getent', ['group', String(gid)]).status !== 0) return gid;
  }
  throw new Error('no free gid');
}

/** Whether a process with these ids can open the node for reading and writing, as the drivers do. */
function canOpen(node: string, gid: number, groups: number[]): boolean {
  const groupArgs = groups.length > 0 ? [`--groups=${groups.join(',')}`] : ['--clear-groups'];
  const r = spawnSync(
    'setpriv',
    ['--reuid=65534', `--regid=${gid}`, ...groupArgs, '--', 'sh', '-c', 'exec 3<>"$1"', 'sh', node],
    { encoding: 'utf8' },
  );
  return r.status === 0;
}

describe('the devices belong to the service', () => {
  const serviceGroup = unitSetting('Group')[0];

  it('the unit joins no desktop group: the devices’ group is its own (the staff group, for its socket, owns no device)', () => {
    expect(serviceGroup).toBe('frontdesk-agent');
    expect(unitSetting('User')).toEqual(['frontdesk-agent']);
    expect(unitSetting('SupplementaryGroups')).toEqual(['frontdesk-staff']);
    for (const group of DESKTOP_GROUPS) expect(unitSetting('SupplementaryGroups')).not.toContain(group);
    expect(rulesText).not.toContain('frontdesk-staff');
  });

  it('the rules give every encoder node the service’s group, mode 0660, and name no desktop group', () => {
    for (const [what, device] of ENCODER_NODES) {
      expect(evaluate(device), what).toEqual({ group: serviceGroup, mode: '0660' });
    }
    for (const rule of parseRules(rulesText)) {
      for (const clause of rule.filter((c) => c.key === 'GROUP' || c.key === 'OWNER')) {
        expect(DESKTOP_GROUPS).not.toContain(clause.value);
        expect(clause.value).toBe(serviceGroup);
      }
      expect(rule.some((c) => c.key === 'MODE' && /[1-7]$/.test(c.value))).toBe(false); // nothing for others
    }
    // What is not an encoder is left to the system: a USB CDC modem or payment terminal, a keyboard.
    expect(evaluate({ subsystem: 'tty', kernel: 'ttyACM0', attrs: usb('2341', '0043') })).toEqual({
      group: 'dialout',
      mode: '0660',
    });
    expect(evaluate({ subsystem: 'hidraw', kernel: 'hidraw1', attrs: usb('046d', 'c31c') })).toEqual({
      group: 'root',
      mode: '0600',
    });
  });

  it.runIf(asRoot)('a process with a desktop user’s groups cannot open the encoder; the service can', () => {
    const desktop = DESKTOP_GROUPS.map(gidOf).filter((g): g is number => g !== undefined);
    expect(desktop).toContain(gidOf('plugdev'));
    expect(desktop).toContain(gidOf('dialout'));
    const serviceGid = freeGid();
    for (const [what, device] of ENCODER_NODES) {
      const { group, mode } = evaluate(device);
      const node = join(scratch, device.kernel);
      writeFileSync(node, '');
      chownSync(node, 0, group === serviceGroup ? serviceGid : (gidOf(group) ?? 0));
      chmodSync(node, Number.parseInt(mode, 8));
      expect(canOpen(node, gidOf('users') ?? 100, desktop), `${what}: a desktop session`).toBe(false);
      expect(canOpen(node, serviceGid, []), `${what}: the service`).toBe(true);
    }
  });
});
