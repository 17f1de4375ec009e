import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root, for tests that read its source files. */
export const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** Every `.ts` file below `dir`, depth first. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}
