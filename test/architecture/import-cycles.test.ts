import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, ROOT as root, SOURCE_FOLDERS, tsFiles } from './source-graph.js';

/**
 * No import cycles in `app/`, `src/` and `drivers/`, type-only imports included: a cycle means two
 * modules cannot be read, tested or loaded one without the other. Imports are found by the
 * TypeScript compiler's own scanner (`source-graph.ts`), static and dynamic; only relative ones
 * matter (packages cannot import us back).
 */

type Graph = ReadonlyMap<string, readonly string[]>;

/** The strongly connected components with more than one file, or one file importing itself. */
function cyclesOf(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1 || graph.get(node)?.includes(node)) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('import cycles', () => {
  it('app/, src/ and drivers/ have none, type-only imports included', () => {
    const files = SOURCE_FOLDERS.flatMap((folder) => tsFiles(join(root, folder)));
    const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(file, 'utf8'))]));
    const cycles = cyclesOf(graph).map((cycle) => cycle.map((file) => relative(root, file)).join(' ⇄ '));
    expect(cycles).toEqual([]);
  });

  it('the check finds a cycle through three files, a self-import and a type-only import', () => {
    const graph: Graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c'], ['e']]);
    const typeOnly = importsOf('/x/a.ts', "import type { B } from './b.js';\nexport type A = B;");
    expect(typeOnly).toEqual([join('/x', 'b', 'index.ts')]);
  });
});
