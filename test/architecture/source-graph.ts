import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of the agent's own sources, for the architecture tests. Imports are found by
 * the TypeScript compiler's own scanner (`ts.preProcessFile`): static, dynamic and type-only
 * ones alike, since a type-only import couples two modules as much as any. Only relative
 * specifiers matter (packages cannot import us back).
 */

export const ROOT = join(import.meta.dirname, '..', '..');

/** Every `.ts` source below `dir` (declaration files left out), depth first. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The files `file` imports, resolved the way Node resolves our `.js` specifiers to `.ts` sources. */
export function importsOf(file: string, text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => {
      const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
      return existsSync(target) ? target : join(target.replace(/\.ts$/, ''), 'index.ts');
    });
}

/** One import: both ends relative to the repository's root, with `/` separators. */
export interface Edge {
  from: string;
  to: string;
}

const repoPath = (file: string) => relative(ROOT, file).split('\\').join('/');

/** The folders of the agent's own code: the composition root, the core, the driver families. */
export const SOURCE_FOLDERS = ['app', 'src', 'drivers'] as const;

function productionSources(): string[] {
  return SOURCE_FOLDERS.flatMap((folder) => tsFiles(join(ROOT, folder))).filter(
    (file) => !file.endsWith('.test.ts'),
  );
}

/** The production sources of `app/`, `src/` and `drivers/` (tests left out), relative to the root. */
export function productionFiles(): string[] {
  return productionSources().map(repoPath);
}

/** Every import of the production sources of `app/`, `src/` and `drivers/`. */
export function productionEdges(): Edge[] {
  return productionSources().flatMap((file) =>
    importsOf(file, readFileSync(file, 'utf8')).map((target) => ({
      from: repoPath(file),
      to: repoPath(target),
    })),
  );
}
