import { rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * The installed form of the agent: `app/main.ts` and everything it imports (the drivers, the
 * libraries) bundled by esbuild into `<out>/main.js` plus chunks under `<out>/chunks/`, minified
 * and tree-shaken, with a source map beside each file. A dynamic `import()` stays a split point,
 * so a subcommand, a driver or a simulator the daemon never runs is never loaded.
 *
 * Why a bundle: node keeps each ES module's source text, records and linking state for the
 * process's whole life; one file per dependency module (about 500 of them) and the code a library
 * ships but the agent never calls cost the idle daemon several MB (bench/RESULTS.md, Memory).
 *
 * Native add-ons and what loads files by path at run time stay outside, resolved from
 * `node_modules` beside `dist/` as before: better-sqlite3, serialport, node-hid, unix-dgram.
 *
 * The source maps are not loaded at run time (`--enable-source-maps` would keep them resident);
 * `src/stack-map.ts` reads one only when an unexpected error's stack is reported.
 */

export const EXTERNAL_PACKAGES = ['better-sqlite3', 'serialport', 'node-hid', 'unix-dgram'] as const;

const root = join(import.meta.dirname, '..');

/** Bundled output: the entry file, and for each split point (a module loaded by `import()`) its file. */
export interface AgentBundle {
  main: string;
  /** Source module (repository-relative, e.g. `src/cli/run.ts`) → its output file (absolute). */
  splitPoints: Map<string, string>;
}

/**
 * Bundles the agent into `outDir` (emptied first); `minify: false` keeps names readable for a CPU
 * profile (the bench's `BENCH_READABLE=1`). Rejects on a build error (type errors are
 * `tsc`'s business: esbuild only strips types).
 */
export async function bundleAgent(outDir: string, options: { minify?: boolean } = {}): Promise<AgentBundle> {
  const out = resolve(outDir);
  rmSync(out, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: 'app/main.ts' },
    outdir: out,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.3',
    minify: options.minify ?? true,
    sourcemap: 'linked',
    sourcesContent: false,
    external: [...EXTERNAL_PACKAGES],
    // The CommonJS libraries inside the bundle call require() for node's builtins.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';const require=__createRequire(import.meta.url);",
    },
    metafile: true,
    logLevel: 'warning',
  });
  const splitPoints = new Map<string, string>();
  let main = '';
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (!output.entryPoint) continue;
    const absolute = resolve(root, file);
    if (output.entryPoint === 'app/main.ts') main = absolute;
    else splitPoints.set(output.entryPoint, absolute);
  }
  if (!main) throw new Error('esbuild produced no main.js');
  return { main, splitPoints };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const bundle = await bundleAgent(join(root, 'dist', 'app'));
  process.stdout.write(`bundled the agent into ${relative(root, bundle.main)}\n`);
}
