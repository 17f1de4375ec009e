import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

/**
 * Compiles the agent (src, drivers) and the naive baseline to plain JavaScript under
 * `.tmp/bench-build` (git-ignored) with the project's own compiler settings, so the memory and
 * CPU figures are those of the installed form (`node dist/src/main.js`), without tsx's loader.
 * Emits even when a teammate's file is mid-edit (type errors do not block emitting). Returns the
 * build directory; throws when `src/main.js` was not produced.
 */
export function buildForBench(): string {
  const tmp = join(root, '.tmp');
  const out = join(tmp, 'bench-build');
  mkdirSync(tmp, { recursive: true });
  rmSync(out, { recursive: true, force: true });
  const tsconfig = join(tmp, 'bench-tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: '../tsconfig.json',
      compilerOptions: { noEmit: false, sourceMap: false, outDir: 'bench-build', rootDir: '..' },
      include: ['../src', '../drivers', '../bench/naive-agent.ts', '../bench/naive-main.ts'],
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
  if (!existsSync(join(out, 'src', 'main.js')) || !existsSync(join(out, 'bench', 'naive-main.js'))) {
    throw new Error(`the bench build produced no ${join(out, 'src', 'main.js')}`);
  }
  return out;
}
