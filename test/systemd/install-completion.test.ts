import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The install script's shell-completion step: the built agent prints its own completion
 * (`frontdesk-agent completion bash|zsh`) as the build user, into the build's output as plain
 * files; root installs those files where bash-completion and zsh load from, and never runs the
 * agent to get them (issue 27: root running the build's output hands root to any dependency).
 * The uninstall script removes them. npm is a stand-in whose build writes an agent that answers
 * `completion <shell>` with a marker line and records the uid of every run.
 */

const repo = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'fd-completion-'));
// The install builds as an unprivileged throwaway user, who must reach the stand-in npm.
chmodSync(scratch, 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The stand-in npm, and the file where the agent it builds records the uid of every run. */
function fakeNpm(): { path: string; runs: string } {
  const dir = mkdtempSync(join(scratch, 'npm-'));
  chmodSync(dir, 0o755);
  const runs = join(dir, 'agent-runs.log');
  writeFileSync(runs, '');
  chmodSync(runs, 0o666);
  // An ES module, as the package is ("type": "module").
  const agent = `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(runs)}, 'uid=' + process.getuid() + ' ' + process.argv.slice(2).join(' ') + '\\n');
if (process.argv[2] === 'completion') console.log('# completion for ' + process.argv[3]);`;
  writeFileSync(
    join(dir, 'npm'),
    `#!/usr/bin/env bash
set -euo pipefail
prefix=.; args=()
while [ $# -gt 0 ]; do case "$1" in --prefix) prefix=$2; shift 2 ;; *) args+=("$1"); shift ;; esac; done
case "\${args[0]}" in
  ci) mkdir -p "$prefix/node_modules" ;;
  run) mkdir -p "$prefix/dist/app"; cat > "$prefix/dist/app/main.js" <<'AGENT'
${agent}
AGENT
  ;;
  pkg) node -e 'const f=process.argv[1];const p=JSON.parse(require("fs").readFileSync(f));delete p.scripts.prepare;require("fs").writeFileSync(f,JSON.stringify(p,null,2))' "$prefix/package.json" ;;
esac
`,
  );
  chmodSync(join(dir, 'npm'), 0o755);
  return { path: dir, runs };
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

  it('--dry-run says the build user generates the completion and root installs it as a file', () => {
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
    expect(out).toMatch(
      /^would: .*sh -c .*completion\\ bash.*completion\\ zsh.* sh \S+\/work\/app \S*node$/m,
    );
    for (const [dest, file] of [
      [bash(prefix), 'frontdesk-agent.bash'],
      [zsh(prefix), '_frontdesk-agent'],
    ])
      expect(out).toMatch(
        new RegExp(`^would: install -m 0644 ${prefix}/opt/frontdesk-agent/completion/${file} ${dest}$`, 'm'),
      );
    expect(out).not.toMatch(/^would: (?!setpriv|env).*main\.js.* completion/m);
  });

  it('installs both scripts (mode 0644) printed by the built agent, which root never runs, and uninstall removes them', () => {
    const prefix = mkdtempSync(join(scratch, 'prefix-'));
    const tokens = join(scratch, 'token2');
    writeFileSync(tokens, 'SECRET-completion-token\n');
    const npm = fakeNpm();
    const first = run(
      'install.sh',
      ['--prefix', prefix, '--client-token-file', tokens, '--access-token-file', tokens],
      npm.path,
    );
    expect(first.status, first.out).toBe(0);
    // The agent ran only to print the completion, and never as root.
    const runs = readFileSync(npm.runs, 'utf8').trim().split('\n');
    expect(runs.map((l) => l.replace(/^uid=\d+ /, ''))).toEqual(['completion bash', 'completion zsh']);
    if (process.getuid?.() === 0) expect(runs.filter((l) => l.startsWith('uid=0 '))).toEqual([]);
    const shipped = join(prefix, 'opt', 'frontdesk-agent', 'completion');
    expect(readFileSync(join(shipped, 'frontdesk-agent.bash'), 'utf8')).toBe('# completion for bash\n');
    expect(readFileSync(bash(prefix), 'utf8')).toBe('# completion for bash\n');
    expect(readFileSync(zsh(prefix), 'utf8')).toBe('# completion for zsh\n');
    for (const file of [bash(prefix), zsh(prefix)])
      expect((statSync(file).mode & 0o777).toString(8)).toBe('644');
    const removed = run('uninstall.sh', ['--prefix', prefix]);
    expect(removed.status, removed.out).toBe(0);
    expect(existsSync(bash(prefix)) || existsSync(zsh(prefix))).toBe(false);
  });
});
