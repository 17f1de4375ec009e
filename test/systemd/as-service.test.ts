import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inCi } from '../helpers/tools.js';

/**
 * Issue 27: root must not run the build's output. `check-config` (by install.sh, and the admin's
 * other commands) runs through systemd/as-service.sh: as the service user, with a private copy
 * of the service's credentials. The launcher is a stand-in that reports who it runs as and what
 * it can reach; the service user is `nobody` here (the script takes --service-user for that).
 */

const repo = join(import.meta.dirname, '..', '..');
const script = join(repo, 'systemd', 'as-service.sh');
const scratch = mkdtempSync(join(tmpdir(), 'fd-as-service-'));
chmodSync(scratch, 0o755); // the service user must reach the stand-in launcher
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const asRoot = process.getuid?.() === 0;
if (!asRoot && inCi) throw new Error('as-service.sh switches users: CI runs the suite as root');

const CLIENT = 'client-SECRET-as-service';

/** An install below a temp prefix: root-only tokens in etc, a launcher that reports itself. */
function installed(): string {
  const prefix = mkdtempSync(join(scratch, 'prefix-'));
  chmodSync(prefix, 0o755);
  const etc = join(prefix, 'etc', 'frontdesk-agent');
  const bin = join(prefix, 'usr', 'bin');
  mkdirSync(etc, { recursive: true });
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(etc, 'agent.yaml'), 'devices: []\n', { mode: 0o644 });
  writeFileSync(join(etc, 'client-token'), `${CLIENT}\n`, { mode: 0o600 });
  writeFileSync(join(etc, 'access-token'), 'access-SECRET\n', { mode: 0o600 });
  writeFileSync(join(etc, 'status-token'), 'status-SECRET\n', { mode: 0o600 });
  writeFileSync(
    join(bin, 'frontdesk-agent'),
    `#!/bin/sh
echo "uid=$(id -u) gid=$(id -g)"
echo "args=$*"
echo "client=$(cat "$CREDENTIALS_DIRECTORY/client-token")"
echo "credentials=$CREDENTIALS_DIRECTORY"
if touch "$CREDENTIALS_DIRECTORY/client-token" 2>/dev/null; then echo "credentials: writable"; fi
if cat ${JSON.stringify(join(etc, 'client-token'))} 2>/dev/null; then echo "etc: readable"; fi
echo "leaked=\${ROOT_ONLY_SECRET:-none}"
exit 3
`,
    { mode: 0o755 },
  );
  return prefix;
}

function asService(args: string[]) {
  const result = spawnSync('bash', [script, ...args], {
    encoding: 'utf8',
    input: '',
    env: { ...process.env, ROOT_ONLY_SECRET: 'from-roots-environment' },
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('as-service.sh', () => {
  it.runIf(asRoot)(
    'runs check-config as the service user, never root, with read-only credentials it deletes afterwards',
    () => {
      const prefix = installed();
      const config = join(prefix, 'etc', 'frontdesk-agent', 'agent.yaml');
      const { status, out } = asService([
        '--prefix',
        prefix,
        '--service-user',
        'nobody',
        'check-config',
        '--config',
        config,
      ]);
      expect(status, out).toBe(3); // the command's own status
      const nobody = spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim();
      expect(out).toMatch(new RegExp(`^uid=${nobody} gid=\\d+$`, 'm'));
      expect(out).not.toMatch(/^uid=0 /m);
      expect(out).toContain(`args=check-config --config ${config}`);
      expect(out).toContain(`client=${CLIENT}`);
      expect(out).not.toContain('credentials: writable');
      expect(out).not.toContain('etc: readable'); // the tokens in etc stay root's
      expect(out).toContain('leaked=none'); // root's environment stays root's
      const credentials = /^credentials=(\S+)$/m.exec(out)?.[1] ?? '';
      expect(credentials).not.toBe('');
      expect(existsSync(credentials)).toBe(false);
    },
  );

  it('refuses root as the service user, and needs root to hand over the credentials', () => {
    const prefix = installed();
    const root = asService(['--prefix', prefix, '--service-user', 'root', 'check-config']);
    expect(root.status).toBe(1);
    expect(root.out).toContain(
      asRoot ? 'the service user root has uid or gid 0; refusing' : 'run as root (sudo)',
    );
    const none = asService(['--prefix', prefix, '--service-user', 'no-such-user-4711', 'check-config']);
    expect(none.status).toBe(1);
    expect(none.out).toContain(
      asRoot ? 'no user no-such-user-4711: install the service first' : 'run as root (sudo)',
    );
  });
});
