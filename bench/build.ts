import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleAgent } from '../scripts/bundle.js';

const root = join(import.meta.dirname, '..');

export interface BenchBuild {
  /** The build directory: the agent's bundle at `app/main.js`, the baseline at `bench/naive-main.js`. */
  dir: string;
  /** The bundle's file holding `src/cli/run.ts` and what only the daemon loads (the footprint phase imports it). */
  runChunk: string;
}

/**
 * Builds what the memory and CPU phases run, under `.tmp/bench-build` (git-ignored): the agent as
 * installed — the same esbuild bundle `npm run build` makes (scripts/bundle.ts) — and the naive
 * baseline compiled by tsc with the project's compiler settings, both run by plain node without
 * tsx's loader. Throws when either is missing.
 */
export async function buildForBench(): Promise<BenchBuild> {
  const tmp = join(root, '.tmp');
  const out = join(tmp, 'bench-build');
  mkdirSync(tmp, { recursive: true });
  rmSync(out, { recursive: true, force: true });
  const bundle = await bundleAgent(join(out, 'app'), { minify: process.env.BENCH_READABLE !== '1' });
  const runChunk = bundle.splitPoints.get('src/cli/run.ts');
  if (!runChunk) throw new Error('the bundle has no split point for src/cli/run.ts');
  const tsconfig = join(tmp, 'bench-tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: '../tsconfig.json',
      compilerOptions: { noEmit: false, sourceMap: false, outDir: 'bench-build', rootDir: '..' },
      include: ['../bench/naive-agent.ts', '../bench/naive-main.ts'],
    }),
  );
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tsconfig], {
      cwd: root,
      stdio: 'pipe',
    });
  } catch {
    // Type errors still emit; the check below decides.
  }
  if (!existsSync(join(out, 'bench', 'naive-main.js'))) {
    throw new Error(`the bench build produced no ${join(out, 'bench', 'naive-main.js')}`);
  }
  return { dir: out, runChunk };
}
