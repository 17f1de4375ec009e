import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeEnv, nodeFlags, shebangLaunch } from '../helpers/node-flags.js';

const repo = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'node-flags-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const probe =
  'console.log(require("node:v8").getHeapStatistics().heap_size_limit, process.env.MALLOC_ARENA_MAX, process.execArgv.includes("--interrupt-budget=270336"))';

describe('the runtime flags of the agent', () => {
  it('live in the shebang of app/main.ts: a small young generation, a capped old space, two malloc arenas, a later tier-up', () => {
    const { env, flags } = shebangLaunch(join(repo, 'app', 'main.ts'));
    expect(flags).toContain('--max-semi-space-size=4');
    expect(flags).toContain('--max-old-space-size=512');
    // Four times V8's default: less optimising-compiler work in a burst (bench/RESULTS.md, seventh session).
    expect(flags).toContain('--interrupt-budget=270336');
    expect(env).toEqual({ MALLOC_ARENA_MAX: '2' });
  });

  it('npm start runs node with the same flags', () => {
    const start = (
      JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: { start: string } }
    ).scripts.start;
    expect(start.startsWith(`${nodeEnv()} node ${nodeFlags()} --import tsx app/main.ts run `)).toBe(true);
  });

  it('take effect when the script runs through its shebang (env -S), as the installed bin does', () => {
    const first = readFileSync(join(repo, 'app', 'main.ts'), 'utf8').split('\n', 1)[0];
    const script = join(scratch, 'probe.cjs');
    writeFileSync(script, `${first}\n${probe}\n`);
    chmodSync(script, 0o755);
    const bare = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    const env = { ...process.env, PATH: `${join(process.execPath, '..')}:${process.env.PATH}` };
    const viaShebang = spawnSync(script, { encoding: 'utf8', env });
    expect(viaShebang.status, viaShebang.stderr).toBe(0);
    const [limit, arenas, laterTierUp] = viaShebang.stdout.trim().split(' ');
    expect(arenas).toBe('2');
    expect(laterTierUp).toBe('true');
    expect(Number(limit)).toBeLessThan(Number(bare.stdout.trim().split(' ')[0]));
    expect(Number(limit)).toBeLessThan(600 * 1024 * 1024);
  });
});
