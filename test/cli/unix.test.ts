import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { buildProgram, runCli } from '../../app/cli.js';
import { CLOSED_PIPE_EXIT } from '../../src/cli/pipes.js';
import { startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { DEVICES, e2eScenario, TOKENS } from '../e2e/harness.js';
import { captureCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { requireTool } from '../helpers/tools.js';
import { ROOT, spawnCli } from './spawn-cli.js';

/** The command line behaves like a Unix tool: usage errors, closed pipes, shell completion. */

const SUBCOMMANDS = buildProgram(captureCli().io, () => undefined).commands.map((c) => c.name());

describe('usage mistakes', () => {
  it('an unknown command says so and exits 2, even with --help after it', async () => {
    for (const argv of [['reissue', '--help'], ['reissue'], ['docter', '-h']]) {
      const c = captureCli();
      const code = await runCli(argv, c.io);
      expect(code, argv.join(' ')).toBe(2);
      expect(c.err(), argv.join(' ')).toMatch(new RegExp(`^error: unknown command '${argv[0]}'`));
      expect(c.out(), argv.join(' ')).toBe('');
    }
    const c = captureCli();
    await runCli(['docter'], c.io);
    expect(c.err()).toContain('(Did you mean doctor?)');
  });

  it('a known command’s --help and the global --help still answer with exit 0', async () => {
    for (const argv of [['doctor', '--help'], ['--help'], ['help', 'doctor']]) {
      const c = captureCli();
      expect(await runCli(argv, c.io), argv.join(' ')).toBe(0);
      expect(c.out()).toContain('Usage: frontdesk-agent');
    }
  });
});

describe('closed pipes', () => {
  const runs = [
    ['--help'],
    ['--version'],
    ['completion', 'bash'],
    ...SUBCOMMANDS.map((name) => [name, '--help']),
  ];
  it.each(runs.map((argv) => [argv.join(' '), argv]))(
    '`frontdesk-agent %s` into a closed pipe ends quietly, without a stack trace',
    async (_label, argv) => {
      const run = await spawnCli(argv as string[], { closeStdout: true });
      expect(run.err).toBe('');
      expect(run.code).toBe(CLOSED_PIPE_EXIT);
    },
  );

  it('`doctor --help | head -1` prints one line and nothing on stderr', () => {
    const err = join(tempDir('pipe'), 'err.txt');
    const out = execFileSync(
      'sh',
      [
        '-c',
        `"${process.execPath}" --import tsx app/main.ts doctor --help 2>'${err}' | head -1; cat '${err}'`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(out).toBe('Usage: frontdesk-agent doctor [options]\n');
  });

  it('the daemon keeps working when its log stream closes', async () => {
    const sim = await startPlatformSimulator({ scenario: e2eScenario() });
    const dir = tempDir('pipe-daemon');
    const config = join(dir, 'agent.yaml');
    writeFileSync(
      config,
      stringify({
        version: 1,
        platform: { url: sim.url },
        poll: { intervalMs: 200, safetyNetMs: 1000 },
        journal: { path: join(dir, 'journal.db') },
        status: { listen: '127.0.0.1:0' },
        devices: [
          { id: DEVICES.keysOk, type: 'KeyCutter', driver: 'sim-encoder', options: { durationMs: 5 } },
        ],
      }),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', 'app/main.ts', 'run', '--config', config], {
      cwd: ROOT,
      env: {
        ...process.env,
        FRONTDESK_CLIENT_TOKEN: TOKENS.clientToken,
        FRONTDESK_ACCESS_TOKEN: TOKENS.accessToken,
        NOTIFY_SOCKET: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const reservation = sim.world.reservations[0];
      if (!reservation) throw new Error('no reservation in the e2e scenario');
      // It logs every state change into the closed pipe, and still does the work.
      const id = sim.createKeys({ deviceId: DEVICES.keysOk, reservationId: reservation.id }).id;
      await eventually('the key command processed', () => sim.command(id)?.state === 'Processed');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(err).toBe('');
    } finally {
      child.kill('SIGKILL');
      await sim.close();
    }
  });
});

describe('shell completion', () => {
  async function script(shell: 'bash' | 'zsh'): Promise<string> {
    const c = captureCli();
    expect(await runCli(['completion', shell], c.io)).toBe(0);
    const path = join(tempDir('completion'), `frontdesk-agent.${shell}`);
    writeFileSync(path, c.out());
    return path;
  }

  /** What bash offers after `frontdesk-agent <words…>` (the last word being completed). */
  function bashComplete(path: string, words: string[], cwd?: string): string[] {
    const line = ['frontdesk-agent', ...words].map((w) => `'${w}'`).join(' ');
    const out = execFileSync(
      'bash',
      [
        '-c',
        `source '${path}'; COMP_WORDS=(${line}); COMP_CWORD=${words.length}; _frontdesk_agent; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8', ...(cwd ? { cwd } : {}) },
    );
    return out.split('\n').filter(Boolean);
  }

  it('bash completes every subcommand, each one’s options, file names and choices', async () => {
    const path = await script('bash');
    expect(SUBCOMMANDS).toEqual(
      expect.arrayContaining(['run', 'check-config', 'doctor', 'support-bundle', 'completion', 'devices']),
    );
    expect(bashComplete(path, [''])).toEqual(expect.arrayContaining(SUBCOMMANDS));
    expect(bashComplete(path, ['do'])).toEqual(['doctor']);
    expect(bashComplete(path, ['doctor', '--'])).toEqual(
      expect.arrayContaining(['--config', '--json', '--unit', '--timeout', '--help']),
    );
    expect(bashComplete(path, ['completion', ''])).toEqual(expect.arrayContaining(['bash', 'zsh']));
    const files = tempDir('files');
    writeFileSync(join(files, 'agent.yaml'), '');
    expect(bashComplete(path, ['doctor', '--config', 'ag'], files)).toEqual(['agent.yaml']);
    expect(bashComplete(path, ['support-bundle', '--hours', ''])).toEqual([]);
    for (const name of SUBCOMMANDS) expect(bashComplete(path, [name, '--']), name).toContain('--help');
  });

  it('zsh loads the completion and knows every subcommand', async () => {
    if (!requireTool('zsh', 'checks the zsh completion script')) return;
    const path = await script('zsh');
    execFileSync('zsh', ['-n', path]);
    const out = execFileSync(
      'zsh',
      [
        '-c',
        `autoload -U compinit && compinit -u -d '${tempDir('zcomp')}/dump' && source '${path}' && print -r -- $_comps[frontdesk-agent]; functions _frontdesk_agent`,
      ],
      { encoding: 'utf8' },
    );
    expect(out.split('\n')[0]).toBe('_frontdesk_agent');
    for (const name of SUBCOMMANDS) expect(out, name).toContain(`'${name}:`);
    expect(out).toContain("'(-c --config)'{-c,--config}'[configuration file (YAML)]:file:_files'");
  });
});
