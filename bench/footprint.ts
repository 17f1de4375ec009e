import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { shebangLaunch } from '../test/helpers/node-flags.js';

/**
 * Where idle memory goes: the resident size of a fresh `node` after importing each runtime
 * dependency of the agent alone (from node_modules, one module file at a time, as an unbundled
 * program would), then all of them, then the installed agent's bundle of the daemon (`run`) with
 * nothing started. Each reading is a separate process (after a forced GC), so the figures are
 * independent.
 */

export const RUNTIME_PACKAGES = [
  'zod',
  'fastify',
  'winston',
  'prom-client',
  'better-sqlite3',
  'ws',
  'yaml',
  'fast-xml-parser',
  'commander',
  'p-retry',
] as const;

export interface FootprintRow {
  what: string;
  rssBytes: number;
}

const root = join(import.meta.dirname, '..');

/**
 * Runs `code` as an ES module in a fresh `node --expose-gc`, with the flags and environment of the
 * agent's own shebang (as it runs installed), and returns the number it prints.
 */
function numberFrom(code: string): number {
  const launch = shebangLaunch(join(root, 'app', 'main.ts'));
  const out = execFileSync(
    process.execPath,
    [...launch.flags, '--expose-gc', '--input-type=module', '-e', code],
    { cwd: root, encoding: 'utf8', env: { ...process.env, ...launch.env } },
  );
  return Number(out.trim());
}

function rssAfter(imports: string[]): number {
  const code = [
    ...imports.map((spec) => `await import(${JSON.stringify(spec)});`),
    'globalThis.gc();',
    'await new Promise((r) => setTimeout(r, 100));',
    'process.stdout.write(String(process.memoryUsage().rss));',
  ].join('\n');
  return numberFrom(code);
}

/**
 * Measures bare node, each package, all packages, and the bundle's `run` chunk (`runChunk`, see
 * bench/build.ts): the daemon's code with its libraries, tree-shaken, loaded and not started.
 */
export function measureFootprint(runChunk: string): FootprintRow[] {
  const rows: FootprintRow[] = [{ what: 'node (nothing imported)', rssBytes: rssAfter([]) }];
  for (const pkg of RUNTIME_PACKAGES) rows.push({ what: pkg, rssBytes: rssAfter([pkg]) });
  rows.push({ what: 'all of the above', rssBytes: rssAfter([...RUNTIME_PACKAGES]) });
  rows.push({
    what: 'the daemon’s bundle (loaded, not started)',
    rssBytes: rssAfter([pathToFileURL(runChunk).href]),
  });
  return rows;
}
