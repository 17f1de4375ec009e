import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The install script's shell-completion step: the installed agent prints its own completion
 * (`frontdesk-agent completion bash|zsh`) into the places bash-completion and zsh load from, and
 * the uninstall script removes them. npm is a stand-in whose build writes an agent that answers
 * `completion <shell>` with a marker line.
 */

const repo = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'fd-completion-'));
// The install builds as an unprivileged user (nobody), who must reach the stand-in npm.
chmodSync(scratch, 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function fakeNpm(): string {
  const dir = mkdtempSync(join(scratch, 'npm-'));
  chmodSync(dir, 0o755);
  writeFileSync(
    join(dir, 'npm'),
    `#!/usr/bin/env bash
set -euo pipefail
prefix=.; args=()
while [ $# -gt 0 ]; do case "$1" in --prefix) prefix=$2; shift 2 ;; *) args+=("$1"); shift ;; esac; done
case "\${args[0]}" in
  ci) mkdir -p "$prefix/node_modules" ;;
  run) mkdir -p "$prefix/dist/src"; echo "if (process.argv[2] === 'completion') console.log('# completion for ' + process.argv[3])" > "$prefix/dist/src/main.js" ;;
  pkg) node -e 'const f=process.argv[1];const p=JSON.parse(require("fs").readFileSync(f));delete p.scripts.prepare;require("fs").writeFileSync(f,JSON.stringify(p,null,2))' "$prefix/package.json" ;;
esac
`,
  );
  chmodSync(join(dir, 'npm'), 0o755);
  return dir;
}

function run(script: string, args: string[], path?: string) {
  const env = { ...process.env, PATH: path ? `${path}:${process.env.PATH}` : process.env.PATH };
  const result = spawnSync('bash', [join(repo, 'systemd', script), ...args], {
    encoding: 'utf8',
    env,
    input: '',
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('install.sh: shell completion', () => {
  const bash = (prefix: string) =>
    join(prefix, 'usr', 'share', 'bash-completion', 'completions', 'frontdesk-agent');
  const zsh = (prefix: string) =>
    join(prefix, 'usr', 'share', 'zsh', 'vendor-completions', '_frontdesk-agent');

  it('--dry-run says where the completion goes and that the installed agent writes it', () => {
    const prefix = mkdtempSync(join(scratch, 'prefix-'));
    const tokens = join(scratch, 'token');
    writeFileSync(tokens, 'SECRET-completion-token\n');
    const { status, out } = run('install.sh', [
      '--dry-run',
      '--prefix',
      prefix,
      '--client-token-file',
      tokens,
      '--access-token-file',
      tokens,
    ]);
    expect(status, out).toBe(0);
    for (const [dest, shell] of [
      [bash(prefix), 'bash'],
      [zsh(prefix), 'zsh'],
    ])
      expect(out).toMatch(
        new RegExp(
          `^would: write ${dest}: \\S*node ${prefix}/opt/frontdesk-agent/dist/src/main\\.js completion ${shell}$`,
          'm',
        ),
      );
  });

  it('installs both scripts (mode 0644) from the built agent, and uninstall removes them', () => {
    const prefix = mkdtempSync(join(scratch, 'prefix-'));
    const tokens = join(scratch, 'token2');
    writeFileSync(tokens, 'SECRET-completion-token\n');
    const npm = fakeNpm();
    const first = run(
      'install.sh',
      ['--prefix', prefix, '--client-token-file', tokens, '--access-token-file', tokens],
      npm,
    );
    expect(first.status, first.out).toBe(0);
    expect(readFileSync(bash(prefix), 'utf8')).toBe('# completion for bash\n');
    expect(readFileSync(zsh(prefix), 'utf8')).toBe('# completion for zsh\n');
    for (const file of [bash(prefix), zsh(prefix)])
      expect((statSync(file).mode & 0o777).toString(8)).toBe('644');
    const removed = run('uninstall.sh', ['--prefix', prefix]);
    expect(removed.status, removed.out).toBe(0);
    expect(existsSync(bash(prefix)) || existsSync(zsh(prefix))).toBe(false);
  });
});
