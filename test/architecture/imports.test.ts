import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tsFiles } from '../helpers/source-files.js';
import { SOURCE_FOLDERS } from './source-graph.js';

const root = REPO_ROOT;

const importPattern = /(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(importPattern)].map((m) => m[1] as string);
}

/** Whether `spec`, imported by `file`, is a file of the top-level `drivers/` folder. */
function reachesDrivers(file: string, spec: string): boolean {
  return spec.startsWith('.') && relative(root, resolve(dirname(file), spec)).startsWith(`drivers${sep}`);
}

describe('module boundaries', () => {
  it('src/ never imports drivers/: the composition root above both (app/) wires the registry', () => {
    const offenders = tsFiles(join(root, 'src')).flatMap((file) =>
      importsOf(file)
        .filter((spec) => reachesDrivers(file, spec))
        .map((spec) => `${relative(root, file)} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('drivers/ import only src/drivers-api, src/transport, src/errors, src/messages, src/log, src/clock, src/random, src/time-zone, src/backoff, src/listeners, src/signals and the connector model', () => {
    const allowed =
      /(^|\/)src\/(drivers-api|transport|errors|messages|log|clock|random|time-zone|backoff|listeners|signals|periodic|mutex|loopback|zod-issues|connector\/(model|wire))(\/|\.js$)/;
    const offenders = tsFiles(join(root, 'drivers'))
      .filter((file) => !file.endsWith('.test.ts'))
      .flatMap((file) =>
        importsOf(file)
          .filter((spec) => spec.includes('/src/') && !allowed.test(spec))
          .map((spec) => `${relative(root, file)} imports ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('app/, src/ and drivers/ never call the global fetch: the installed agent runs without WebAssembly, which its parser needs (app/main.ts)', () => {
    const globalFetch = /(?:\bawait|\breturn|[=(,:?]|globalThis\.)\s*fetch\s*\(/;
    const offenders = SOURCE_FOLDERS.flatMap((folder) => tsFiles(join(root, folder)))
      // The status page's script runs in the browser.
      .filter(
        (file) => !file.endsWith('.test.ts') && !/src[\\/]status[\\/]page[\\/]page-assets\.ts$/.test(file),
      )
      .filter((file) => globalFetch.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
    expect(globalFetch.test('const r = await fetch(url);')).toBe(true);
    expect(globalFetch.test('const p = globalThis.fetch(url);')).toBe(true);
    expect(globalFetch.test('await this.fetch(ids); ctx.fetch(url); async fetch(ids) {}')).toBe(false);
  });

  it('the boundary check itself finds an offending import, and not a folder of src/ that is called drivers', () => {
    const sample = "import { x } from '../../drivers/stand-ins/index.js';";
    const [spec] = [...sample.matchAll(importPattern)].map((m) => m[1] as string);
    expect(reachesDrivers(join(root, 'src', 'cli', 'devices.ts'), spec as string)).toBe(true);
    expect(
      reachesDrivers(join(root, 'src', 'cli', 'doctor-devices.ts'), '../agent/device-drivers/index.js'),
    ).toBe(false);
  });
});
