import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/**
 * A fresh folder under the system's temporary directory for every test of the file that calls
 * this (at its top level), removed with all it holds after the test. The returned function names
 * a path inside the running test's folder: `tempPath('journal.db')`.
 */
export function tempFolderEachTest(prefix: string): (...names: string[]) => string {
  let dir: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return (...names) => {
    if (!dir) throw new Error('a temporary path is only given while a test runs');
    return join(dir, ...names);
  };
}
