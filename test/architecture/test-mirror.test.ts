import { existsSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tsFiles } from '../helpers/source-files.js';

/**
 * `test/` mirrors the tree (docs/development.md, Tests): a test of one part sits in the folder
 * that names it — `test/commands/rules/` for `src/commands/rules/`, `test/status/page/` for
 * `src/status/page/`, `test/drivers/salto-encoder/` for `drivers/salto-encoder/`, `test/log/` for
 * `src/log.ts`, `test/scripts/` for `scripts/`. Suites that test the whole agent, or one concern
 * across every part, are named for what they test instead, and their names are kept here; the
 * tests' shared helpers and fixtures sit in `helpers/` and `fixtures/` folders.
 */

/** Suites across the whole agent, each named for what it tests. */
const SUITES = [
  'architecture',
  'browser',
  'docs',
  'e2e',
  'faults',
  'fiscal-law',
  'hostile-lan',
  'hostile-local',
  'mechanisms',
  'systemd',
];
/** Suites across the driver families: the contract every driver keeps, the recovery matrices. */
const FAMILY_SUITES = ['drivers/contract', 'drivers/key-matrix', 'drivers/rt-matrix'];
/** Folders that hold what tests share, wherever they sit. */
const SUPPORT = ['helpers', 'fixtures'];

/**
 * The test files whose folder names nothing of the tree. `folder` is a test file's folder below
 * `test/` (POSIX separators); `exists(path)` says whether a repository path is a folder, or
 * with `.ts` a file. A mirror folder `a/b` names `src/a/b/`, `src/a/b.ts` or `a/b/` (a top
 * folder beside `src/`: `drivers/…`, `scripts/`, `monitoring/`).
 */
function strays(testFiles: readonly string[], exists: (path: string) => boolean): string[] {
  return testFiles.filter((file) => {
    const folder = file.slice('test/'.length, file.lastIndexOf('/'));
    const parts = folder.split('/');
    if (SUITES.includes(parts[0] ?? '') || parts.some((part) => SUPPORT.includes(part))) return false;
    if (FAMILY_SUITES.some((suite) => folder === suite || folder.startsWith(`${suite}/`))) return false;
    return !(exists(`src/${folder}`) || exists(`src/${folder}.ts`) || exists(folder));
  });
}

const onDisk = (path: string) => {
  const full = join(REPO_ROOT, path);
  return existsSync(full) && (path.endsWith('.ts') || statSync(full).isDirectory());
};

describe('test/ mirrors src/ and drivers/', () => {
  it('every test file outside the named suites sits in a folder that names a part of the tree', () => {
    const files = tsFiles(join(REPO_ROOT, 'test'))
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => relative(REPO_ROOT, file).split(sep).join('/'));
    expect(files.length).toBeGreaterThan(100);
    expect(strays(files, onDisk)).toEqual([]);
  });

  it('the named suites exist', () => {
    expect([...SUITES, ...FAMILY_SUITES].filter((suite) => !onDisk(`test/${suite}`))).toEqual([]);
  });

  it('finds a folder of a part that is gone or was never there, and passes mirrors, suites and helpers', () => {
    const tree = new Set([
      'src/commands/rules',
      'src/log.ts',
      'drivers/salto-encoder',
      'scripts',
      'src/status/page',
    ]);
    const files = [
      'test/simulator/generator.test.ts',
      'test/commands/queue/queue.test.ts',
      'test/status/stack-map/stack-map.test.ts',
      // Allowed: a mirror of a folder, of a file, of a top folder; a suite; helpers.
      'test/commands/rules/machine.test.ts',
      'test/log/log.test.ts',
      'test/drivers/salto-encoder/link.test.ts',
      'test/scripts/bundle.test.ts',
      'test/status/page/render.test.ts',
      'test/faults/campaign.test.ts',
      'test/drivers/contract/contract.test.ts',
      'test/commands/helpers/fake-platform.contract.test.ts',
    ];
    expect(strays(files, (path) => tree.has(path))).toEqual([
      'test/simulator/generator.test.ts',
      'test/commands/queue/queue.test.ts',
      'test/status/stack-map/stack-map.test.ts',
    ]);
  });
});
