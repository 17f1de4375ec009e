import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Where idle memory goes: the resident size of a fresh `node` after importing each runtime
 * dependency of the agent alone, then all of them, then the compiled agent's own modules. Each
 * reading is a separate process (after a forced GC), so the figures are independent.
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

/** Runs `code` as an ES module in a fresh `node --expose-gc` and returns the number it prints. */
function numberFrom(code: string): number {
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', code], {
    cwd: root,
    encoding: 'utf8',
  });
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

/** Measures bare node, each package, all packages, and the compiled agent under `build`. */
export function measureFootprint(build: string): FootprintRow[] {
  const rows: FootprintRow[] = [{ what: 'node (nothing imported)', rssBytes: rssAfter([]) }];
  for (const pkg of RUNTIME_PACKAGES) rows.push({ what: pkg, rssBytes: rssAfter([pkg]) });
  rows.push({ what: 'all of the above', rssBytes: rssAfter([...RUNTIME_PACKAGES]) });
  const agentModules = ['src/agent.js', 'src/cli.js', 'drivers/index.js'].map(
    (p) => pathToFileURL(join(build, p)).href,
  );
  rows.push({ what: 'agent modules (compiled, not started)', rssBytes: rssAfter(agentModules) });
  return rows;
}

/**
 * Live heap held by the simulated devices' in-memory ledgers after a run: a fresh `node` loads
 * every `ledger-*.jsonl` of `dir` with the compiled `drivers/sim/ledger.js` (the code the daemon
 * ran) and reports the heap it added after a forced GC. That memory is the simulated hardware's,
 * not the agent's; the analysis subtracts it.
 */
export function ledgerHeapBytes(build: string, dir: string): number {
  const ledger = pathToFileURL(join(build, 'drivers', 'sim', 'ledger.js')).href;
  const code = [
    `const { openLedger } = await import(${JSON.stringify(ledger)});`,
    `const { readdirSync } = await import('node:fs');`,
    `const dir = ${JSON.stringify(dir)};`,
    'const store = { get: () => undefined, set: () => undefined };',
    'globalThis.gc(); const before = process.memoryUsage().heapUsed;',
    "globalThis.kept = readdirSync(dir).filter((f) => /^ledger-.*\\.jsonl$/.test(f)).map((f) => openLedger(dir + '/' + f, store));",
    'globalThis.gc(); const after = process.memoryUsage().heapUsed;',
    'process.stdout.write(String(after - before));',
  ].join('\n');
  return numberFrom(code);
}
