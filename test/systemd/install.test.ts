import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeEnv, nodeFlags } from '../helpers/node-flags.js';

const repo = join(import.meta.dirname, '..', '..');
const install = join(repo, 'systemd', 'install.sh');
const uninstall = join(repo, 'systemd', 'uninstall.sh');
const scratch = mkdtempSync(join(tmpdir(), 'fd-install-'));
// When the suite runs as root, install.sh runs npm as a throwaway user: it must reach the stand-in npm.
chmodSync(scratch, 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const asRoot = process.getuid?.() === 0;
/** The build's environment: only what install.sh hands it (PATH, HOME, TMPDIR, npm's cache, proxies). */
const BUILD_ENV =
  'PATH=\\S+ HOME=\\S+/work/home TMPDIR=\\S+/work/tmp npm_config_cache=\\S+/work/npm-cache (?:\\S+=\\S* )*';
/** What install.sh puts before a command it runs as the build user (when it runs as root). */
const DROPPED = `setpriv --reuid=frontdesk-build-XXXXXXXX --regid=frontdesk-build-XXXXXXXX --clear-groups --no-new-privs -- env -i ${BUILD_ENV}`;
const asBuilder = asRoot ? DROPPED : '';

const CLIENT = 'client-SECRET-1f2e3d4c5b6a';
const ACCESS = 'access-SECRET-a6b5c4d3e2f1';

function tokenFiles(): { client: string; access: string } {
  const dir = mkdtempSync(join(scratch, 'tokens-'));
  writeFileSync(join(dir, 'client'), `${CLIENT}\n`);
  writeFileSync(join(dir, 'access'), ACCESS); // no trailing newline: must still be read
  return { client: join(dir, 'client'), access: join(dir, 'access') };
}

/**
 * A stand-in for npm on PATH, so a real (non-dry) install into a temp prefix runs offline: `ci`
 * creates node_modules, `run build` creates dist/app/main.js, `pkg delete` edits package.json.
 * Every call is appended to npm.log with the uid it ran as.
 */
function fakeNpm(): { path: string; log: string } {
  const dir = mkdtempSync(join(scratch, 'npm-'));
  chmodSync(dir, 0o755);
  const log = join(dir, 'npm.log');
  writeFileSync(log, '');
  chmodSync(log, 0o666);
  writeFileSync(
    join(dir, 'npm'),
    `#!/usr/bin/env bash
set -euo pipefail
echo "uid=$(id -u) $*" >> ${JSON.stringify(log)}
prefix=.; args=()
while [ $# -gt 0 ]; do case "$1" in --prefix) prefix=$2; shift 2 ;; *) args+=("$1"); shift ;; esac; done
case "\${args[0]}" in
  ci) mkdir -p "$prefix/node_modules" ;;
  run) mkdir -p "$prefix/dist/app"; echo "console.log('built')" > "$prefix/dist/app/main.js" ;;
  pkg) node -e 'const f=process.argv[1];const p=JSON.parse(require("fs").readFileSync(f));delete p.scripts.prepare;require("fs").writeFileSync(f,JSON.stringify(p,null,2))' "$prefix/package.json" ;;
esac
`,
  );
  chmodSync(join(dir, 'npm'), 0o755);
  return { path: dir, log };
}

function run(script: string, args: string[], options: { input?: string; path?: string } = {}) {
  const env = {
    ...process.env,
    PATH: options.path ? `${options.path}:${process.env.PATH}` : process.env.PATH,
  };
  const result = spawnSync('bash', [script, ...args], { encoding: 'utf8', input: options.input ?? '', env });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length));
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('install.sh --dry-run', () => {
  it('prints every step of a first install into a temp prefix, changes nothing and never prints a token', () => {
    const prefix = mkdtempSync(join(scratch, 'prefix-'));
    const t = tokenFiles();
    const { status, out } = run(install, [
      '--dry-run',
      '--prefix',
      prefix,
      '--client-token-file',
      t.client,
      '--access-token-file',
      t.access,
    ]);
    expect(status, out).toBe(0);
    const expected = [
      /^would: useradd --system --user-group .*frontdesk-agent$/m,
      /^would: groupadd --system frontdesk-staff$/m,
      new RegExp(`^would: ${asBuilder}\\S*npm --prefix \\S+/build ci --no-audit --no-fund$`, 'm'),
      new RegExp(`^would: ${asBuilder}\\S*npm --prefix \\S+/build run build$`, 'm'),
      new RegExp(`^would: ${asBuilder}\\S*npm --prefix \\S+/app ci --omit=dev --no-audit --no-fund$`, 'm'),
      new RegExp(`^would: mkdir -m 0700 ${prefix}/opt/frontdesk-agent.new$`, 'm'),
      new RegExp(
        `^would: unpack the build user's \\S+/work/app into ${prefix}/opt/frontdesk-agent.new \\(tar --no-same-owner\\), refusing links$`,
        'm',
      ),
      new RegExp(
        `^would: find -P ${prefix}/opt/frontdesk-agent.new/app -type d -exec chmod 0755 \\\\\\{\\\\\\} \\+$`,
        'm',
      ),
      new RegExp(`^would: mv ${prefix}/opt/frontdesk-agent.new/app ${prefix}/opt/frontdesk-agent$`, 'm'),
      new RegExp(
        `^would: write ${prefix}/usr/bin/frontdesk-agent: exec env ${nodeEnv()} \\S*node ${nodeFlags()} /opt/frontdesk-agent/dist/app/main.js`,
        'm',
      ),
      new RegExp(`^would: cp \\S+/config/agent.example.yaml ${prefix}/etc/frontdesk-agent/agent.yaml$`, 'm'),
      new RegExp(
        `^would: write the client token to ${prefix}/etc/frontdesk-agent/client-token \\(mode 0600, owner root\\)$`,
        'm',
      ),
      new RegExp(
        `^would: write the access token to ${prefix}/etc/frontdesk-agent/access-token \\(mode 0600`,
        'm',
      ),
      new RegExp(`^would: write the status page token to ${prefix}/etc/frontdesk-agent/status-token`, 'm'),
      new RegExp(`^would: write the metrics token to ${prefix}/etc/frontdesk-agent/metrics-token`, 'm'),
      // Issue 40, low finding: agent.yaml (a printer's password) is root's and the staff's only.
      new RegExp(`^would: chmod 0640 ${prefix}/etc/frontdesk-agent/agent.yaml$`, 'm'),
      new RegExp(`^would: chown root:frontdesk-staff ${prefix}/etc/frontdesk-agent/agent.yaml$`, 'm'),
      new RegExp(
        `^would: install -m 0644 \\S+/frontdesk-agent.service ${prefix}/etc/systemd/system/frontdesk-agent.service$`,
        'm',
      ),
      new RegExp(
        `^would: install -m 0644 \\S+/frontdesk-agent.socket ${prefix}/etc/systemd/system/frontdesk-agent.socket$`,
        'm',
      ),
      new RegExp(
        `^would: install -m 0644 \\S+/99-frontdesk-agent.rules ${prefix}/etc/udev/rules.d/99-frontdesk-agent.rules$`,
        'm',
      ),
      /^would: udevadm control --reload-rules$/m,
      /^would: systemctl daemon-reload$/m,
      /^would: systemctl enable frontdesk-agent.socket frontdesk-agent.service$/m,
      /installed and enabled, not started: the configuration is the example/,
      /staff log in with: frontdesk-agent login \(their account must be in frontdesk-staff: sudo adduser NAME frontdesk-staff\)/,
    ];
    for (const re of expected) expect(out).toMatch(re);
    // Root never changes modes by following links, and never copies the build's tree itself.
    expect(out).not.toMatch(/chmod -R|chown -R|cp -a \S+\/app /);
    expect(out).not.toContain(CLIENT);
    expect(out).not.toContain(ACCESS);
    expect(filesUnder(prefix)).toEqual([]);
  });

  it('on a later run keeps the configuration and tokens, checks the configuration and restarts the service', () => {
    const prefix = mkdtempSync(join(scratch, 'prefix-'));
    const etc = join(prefix, 'etc', 'frontdesk-agent');
    mkdirSync(etc, { recursive: true });
    for (const f of ['agent.yaml', 'client-token', 'access-token', 'status-token', 'metrics-token'])
      writeFileSync(join(etc, f), 'x\n');
    const { status, out } = run(install, ['--dry-run', '--prefix', prefix]);
    expect(status, out).toBe(0);
    expect(out).toContain(`keeping the existing configuration ${etc}/agent.yaml`);
    expect(out).toContain(`keeping the existing status page token ${etc}/status-token`);
    expect(out).not.toMatch(/write the (client|access) token/);
    // As the service user, with a private copy of its credentials: root never runs the build's output.
    expect(out).toMatch(
      new RegExp(
        `^would: setpriv --reuid=frontdesk-agent --regid=frontdesk-agent --init-groups --no-new-privs -- env -i PATH=\\S+ (?:\\S+=\\S* )*CREDENTIALS_DIRECTORY=\\S+ ${prefix}/usr/bin/frontdesk-agent check-config --config ${etc}/agent.yaml$`,
        'm',
      ),
    );
    expect(out).not.toMatch(/^would: (?!setpriv).*check-config/m);
    // The socket unit takes the port (from an older agent that bound it itself), then the service.
    expect(out).toMatch(/^would: systemctl stop frontdesk-agent.service frontdesk-agent.socket$/m);
    expect(out).toMatch(/^would: systemctl start frontdesk-agent.socket frontdesk-agent.service$/m);
    expect(out).toMatch(new RegExp(`^would: chmod 0640 ${etc}/agent.yaml$`, 'm'));
  });

  it('of a live install runs npm ci and the build as a throwaway user, and only the system steps as root', () => {
    const t = tokenFiles();
    const { status, out } = run(install, [
      '--dry-run',
      '--client-token-file',
      t.client,
      '--access-token-file',
      t.access,
    ]);
    expect(status, out).toBe(0);
    const npmLines = out.split('\n').filter((l) => /^would: .*npm --prefix/.test(l));
    expect(npmLines).toHaveLength(4);
    for (const line of npmLines) expect(line).toMatch(new RegExp(`^would: ${DROPPED}\\S*npm --prefix`));
    expect(out).toMatch(
      /^would: useradd --system --user-group --no-create-home --home-dir \/nonexistent --shell \/usr\/sbin\/nologin --comment frontdesk-agent\\ throwaway\\ build\\ user frontdesk-build-XXXXXXXX$/m,
    );
    expect(out).toMatch(
      /^would: install -d -m 0700 -o frontdesk-build-XXXXXXXX -g frontdesk-build-XXXXXXXX \/tmp\/frontdesk-agent-build\.XXXXXX\/work$/m,
    );
    expect(out).toMatch(/^would: install -m 0644 \S+ \/etc\/systemd\/system\/frontdesk-agent\.service$/m);
    expect(out).not.toMatch(/^would: (?!setpriv).*npm /m);
    expect(out).not.toMatch(/chmod -R|chown -R|65534|nobody/);
    // Devices belong to the service's own group: no shared desktop group is created or joined.
    expect(out).not.toMatch(/dialout|plugdev/);
    expect(out).toMatch(
      /^would: udevadm trigger --subsystem-match=hidraw --subsystem-match=tty --action=change$/m,
    );
    const named = run(install, ['--dry-run', '--build-user', 'nobody']);
    expect(named.status).toBe(1);
    expect(named.out).toContain(
      '--build-user is gone: the build runs as a throwaway user created for this install',
    );
  });

  it('reads tokens from stdin without printing them', () => {
    const prefix = mkdtempSync(join(scratch, 'prefix-'));
    const { status, out } = run(install, ['--dry-run', '--prefix', prefix, '--tokens-from-stdin'], {
      input: `${CLIENT}\n${ACCESS}\n`,
    });
    expect(status, out).toBe(0);
    expect(out).toContain('write the client token');
    expect(out).not.toContain(CLIENT);
    expect(out).not.toContain(ACCESS);
  });

  it('refuses a first install without tokens, and bad token input, before changing anything', () => {
    const prefix = mkdtempSync(join(scratch, 'prefix-'));
    const none = run(install, ['--dry-run', '--prefix', prefix]);
    expect(none.status).toBe(1);
    expect(none.out).toContain(
      'no ClientToken installed yet: pass --client-token-file FILE or --tokens-from-stdin',
    );
    const oneLine = run(install, ['--dry-run', '--prefix', prefix, '--tokens-from-stdin'], {
      input: `${CLIENT}\n`,
    });
    expect(oneLine.status).toBe(1);
    expect(oneLine.out).toContain('the second line must be the AccessToken');
    expect(oneLine.out).not.toContain(CLIENT);
    const unknown = run(install, ['--frobnicate']);
    expect(unknown.status).toBe(1);
    expect(filesUnder(prefix)).toEqual([]);
  });
});

describe('install.sh into a temp prefix (npm replaced by a stand-in)', () => {
  it('installs app, launcher, config, credentials, unit and rule; a second run keeps what an admin owns', () => {
    const prefix = mkdtempSync(join(scratch, 'prefix-'));
    const t = tokenFiles();
    const npm = fakeNpm();
    const first = run(
      install,
      ['--prefix', prefix, '--client-token-file', t.client, '--access-token-file', t.access],
      {
        path: npm.path,
      },
    );
    expect(first.status, first.out).toBe(0);
    expect(first.out).not.toContain(CLIENT);

    const opt = join(prefix, 'opt', 'frontdesk-agent');
    const etc = join(prefix, 'etc', 'frontdesk-agent');
    expect(existsSync(join(opt, 'dist', 'app', 'main.js'))).toBe(true);
    expect(existsSync(join(opt, 'node_modules'))).toBe(true);
    expect(JSON.parse(readFileSync(join(opt, 'package.json'), 'utf8')).scripts.prepare).toBeUndefined();
    expect(existsSync(`${opt}.new`) || existsSync(`${opt}.old`)).toBe(false);
    // npm (and with it every dependency's install script) never ran as root, nor as a user that
    // outlives the install; the result is root's, plain files 0644/0755 and directories 0755.
    const npmCalls = readFileSync(npm.log, 'utf8').trim().split('\n');
    expect(
      npmCalls.map((l) => l.replace(/--prefix \S+\/(build|app)/, '--prefix <$1>').replace(/^uid=\d+ /, '')),
    ).toEqual([
      '--prefix <build> ci --no-audit --no-fund',
      '--prefix <build> run build',
      '--prefix <app> pkg delete scripts.prepare',
      '--prefix <app> ci --omit=dev --no-audit --no-fund',
    ]);
    if (asRoot) {
      const uids = new Set(npmCalls.map((l) => l.split(' ')[0]));
      expect(uids.size).toBe(1);
      const uid = Number([...uids][0]?.slice('uid='.length));
      expect(uid).not.toBe(0);
      expect(uid).not.toBe(65534);
      expect(first.out).toMatch(
        new RegExp(
          `npm runs as frontdesk-build-[0-9a-f]{8} \\(uid ${uid}\\), a user made for this install only`,
        ),
      );
      expect(first.out).toContain('the build user is gone, with every process it started');
      expect(spawnSync('getent', ['passwd', String(uid)]).status).not.toBe(0);
      expect(statSync(join(opt, 'node_modules')).uid).toBe(0);
      expect(statSync(join(opt, 'dist', 'app', 'main.js')).uid).toBe(0);
    }
    expect(mode(opt)).toBe('755');
    expect(mode(join(opt, 'dist', 'app'))).toBe('755');
    expect(mode(join(opt, 'dist', 'app', 'main.js'))).toBe('644');
    expect(npmCalls.every((l) => !l.startsWith('uid=0 '))).toBe(true);

    const launcher = join(prefix, 'usr', 'bin', 'frontdesk-agent');
    expect(mode(launcher)).toBe('755');
    expect(readFileSync(launcher, 'utf8')).toMatch(
      new RegExp(
        `^exec env ${nodeEnv()} /\\S+/node ${nodeFlags()} /opt/frontdesk-agent/dist/app/main\\.js "\\$@"$`,
        'm',
      ),
    );

    const config = readFileSync(join(etc, 'agent.yaml'), 'utf8');
    expect(config).toMatch(/^\s*# clientTokenFile:/m);
    expect(config).toMatch(/^\s*# accessTokenFile: \/etc\/frontdesk-agent\/access-token/m);
    expect(config).not.toMatch(/^\s*(client|access)TokenFile:/m);
    expect(readFileSync(join(etc, 'client-token'), 'utf8')).toBe(`${CLIENT}\n`);
    expect(readFileSync(join(etc, 'access-token'), 'utf8')).toBe(`${ACCESS}\n`);
    for (const f of ['client-token', 'access-token', 'status-token', 'metrics-token'])
      expect(mode(join(etc, f)), f).toBe('600');
    expect(mode(join(etc, 'agent.yaml'))).toBe('640');
    const statusToken = readFileSync(join(etc, 'status-token'), 'utf8');
    expect(statusToken.trim()).toMatch(/^[A-Za-z0-9]{30,}$/);

    const unit = join(prefix, 'etc', 'systemd', 'system', 'frontdesk-agent.service');
    expect(readFileSync(unit, 'utf8')).toBe(
      readFileSync(join(repo, 'systemd', 'frontdesk-agent.service'), 'utf8'),
    );
    expect(mode(unit)).toBe('644');
    expect(existsSync(join(prefix, 'etc', 'udev', 'rules.d', '99-frontdesk-agent.rules'))).toBe(true);
    expect(first.out).toContain('skipped (not installing to /): systemctl daemon-reload');

    // An admin edits the config; the second run (no tokens given) keeps it, and keeps the tokens.
    writeFileSync(join(etc, 'agent.yaml'), `${config}\n# edited by IT\n`);
    const second = run(install, ['--prefix', prefix], { path: npm.path });
    expect(second.status, second.out).toBe(0);
    expect(readFileSync(join(etc, 'agent.yaml'), 'utf8')).toContain('# edited by IT');
    expect(readFileSync(join(etc, 'client-token'), 'utf8')).toBe(`${CLIENT}\n`);
    expect(readFileSync(join(etc, 'status-token'), 'utf8')).toBe(statusToken);
    expect(second.out).toContain(
      'skipped (not installing to /): systemctl start frontdesk-agent.socket frontdesk-agent.service',
    );

    // uninstall keeps the journal and the configuration; --purge removes them.
    const state = join(prefix, 'var', 'lib', 'frontdesk-agent');
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, 'journal.db'), 'journal');
    const removed = run(uninstall, ['--prefix', prefix]);
    expect(removed.status, removed.out).toBe(0);
    for (const gone of [
      opt,
      launcher,
      unit,
      join(prefix, 'etc', 'udev', 'rules.d', '99-frontdesk-agent.rules'),
    ]) {
      expect(existsSync(gone), gone).toBe(false);
    }
    expect(existsSync(join(state, 'journal.db'))).toBe(true);
    expect(existsSync(join(etc, 'agent.yaml'))).toBe(true);
    const again = run(uninstall, ['--prefix', prefix]);
    expect(again.status, again.out).toBe(0);

    const dry = run(uninstall, ['--prefix', prefix, '--purge', '--dry-run']);
    expect(dry.out).toContain(`would: rm -rf ${state}`);
    expect(dry.out).toContain(`would: rm -rf ${etc}`);
    expect(existsSync(state)).toBe(true);
    const purged = run(uninstall, ['--prefix', prefix, '--purge']);
    expect(purged.status, purged.out).toBe(0);
    expect(existsSync(state) || existsSync(etc)).toBe(false);
    expect(existsSync(dirname(etc))).toBe(true);
  });
});
