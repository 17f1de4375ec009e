import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { kindsOf } from '../../drivers/index.js';
import { REPO_ROOT } from '../helpers/source-files.js';

/**
 * Test doubles and device simulators stay out of the production path, as serialport keeps
 * `@serialport/binding-mock` and zwave-js keeps `@zwave-js/testing` in packages of their own:
 * - a test double of the core (any file in a `testing/` folder of `src/`, today
 *   `src/transport/testing/`) is imported by tests, the bench, other doubles and the device
 *   simulators (`drivers/<family>/simulator/`) only — never by another module of `src/` or
 *   `drivers/`, not even for a type;
 * - a family's `simulator/` is reached from outside it only by that family's `index.ts`, by a
 *   dynamic `import()` (the `simulate()` wiring, so an agent driving real hardware never loads
 *   it) or a type-only import or export;
 * - no file named `simulator*` sits outside a `simulator/` folder of `drivers/`, so no driver
 *   folder mixes the simulator's files with the driver's.
 * The rules are pure functions over a map of repository-relative paths to source text, so the
 * last tests can show each rule catching a planted offender.
 */

interface ImportRef {
  spec: string;
  /** `import type …` / `export type … from`: erased by the compiler, loads nothing. */
  typeOnly: boolean;
  /** `import('…')`: loaded only when that line runs. */
  dynamic: boolean;
}

/** Every import of `text`: static, re-exports and dynamic, found by the TypeScript parser. */
function importsOf(path: string, text: string): ImportRef[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const refs: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      // Under verbatimModuleSyntax only a clause-level `import type` is erased whole.
      refs.push({
        spec: node.moduleSpecifier.text,
        typeOnly: node.importClause?.isTypeOnly ?? false,
        dynamic: false,
      });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      refs.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, dynamic: false });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      refs.push({ spec: node.arguments[0].text, typeOnly: false, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

/** The file a relative specifier names, the way Node maps our `.js` specifiers to `.ts` sources. */
function resolveIn(files: ReadonlyMap<string, string>, from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const target = posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.js$/, '.ts');
  if (files.has(target)) return target;
  const index = posix.join(target.replace(/\.ts$/, ''), 'index.ts');
  return files.has(index) ? index : target;
}

const TEST_DOUBLE = /^src\/(?:.+\/)?testing\//;
/** `drivers/<family>/simulator/…` → the family. */
const SIMULATOR_FILE = /^drivers\/([^/]+)\/simulator\//;

/** Who breaks the rules, one line each; `files` maps repository-relative paths to source text. */
function offenders(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of files) {
    if (!/^(app|src|drivers)\//.test(path) || path.endsWith('.test.ts')) continue;
    const name = posix.basename(path);
    if (
      path.startsWith('drivers/') &&
      name.startsWith('simulator') &&
      posix.basename(posix.dirname(path)) !== 'simulator'
    ) {
      found.push(`${path} is a simulator file outside a simulator/ folder`);
    }
    const ownFamily = SIMULATOR_FILE.exec(path)?.[1];
    for (const ref of importsOf(path, text)) {
      const target = resolveIn(files, path, ref.spec);
      if (!target) continue;
      if (TEST_DOUBLE.test(target) && !TEST_DOUBLE.test(path) && ownFamily === undefined) {
        found.push(`${path} imports the test double ${target}`);
      }
      const family = SIMULATOR_FILE.exec(target)?.[1];
      if (family === undefined || family === ownFamily) continue;
      const wiring = path === `drivers/${family}/index.ts` && (ref.dynamic || ref.typeOnly);
      if (!wiring)
        found.push(
          `${path} imports ${target} (only simulate() in drivers/${family}/index.ts may, by import())`,
        );
    }
  }
  return found;
}

/** Every file below `dir` (repository-relative, POSIX separators), with the text of `.ts` ones. */
function sourcesBelow(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (abs: string): void => {
    for (const name of readdirSync(abs)) {
      const path = join(abs, name);
      if (statSync(path).isDirectory()) walk(path);
      else
        files.set(
          relative(REPO_ROOT, path).split(sep).join('/'),
          path.endsWith('.ts') ? readFileSync(path, 'utf8') : '',
        );
    }
  };
  walk(join(REPO_ROOT, dir));
  return files;
}

const tree = new Map([...sourcesBelow('app'), ...sourcesBelow('src'), ...sourcesBelow('drivers')]);

describe('test doubles and simulators stay out of production', () => {
  it('no module of src/ or drivers/ imports a test double or a simulator it should not, and no simulator file sits among a driver’s', () => {
    expect(offenders(tree)).toEqual([]);
  });

  it('sees the tree it guards: the test doubles, each family’s simulator/ and the simulate() wiring', () => {
    expect([...tree.keys()].filter((p) => TEST_DOUBLE.test(p)).sort()).toEqual([
      'src/transport/testing/README.md',
      'src/transport/testing/fake-hid.ts',
      'src/transport/testing/memory.ts',
    ]);
    // Every registered family with a device of its own, from the registry (issue 42 item 8: a
    // hand-kept list left custom-rt out).
    const families = (['rt-printer', 'key-encoder', 'office-printer'] as const).flatMap(kindsOf);
    expect(families).toContain('custom-rt');
    for (const family of families) {
      expect(tree.has(`drivers/${family}/simulator/index.ts`)).toBe(true);
      const index = tree.get(`drivers/${family}/index.ts`) ?? '';
      const wiring = importsOf(`drivers/${family}/index.ts`, index).filter(
        (ref) =>
          resolveIn(tree, `drivers/${family}/index.ts`, ref.spec) === `drivers/${family}/simulator/index.ts`,
      );
      expect(wiring.some((ref) => ref.dynamic)).toBe(true);
    }
  });

  it('finds a production module importing a test double, even for a type, and lets doubles and simulators do so', () => {
    const files = new Map([
      ['src/transport/testing/memory.ts', "import type { Transport } from '../types.js';"],
      ['src/transport/testing/fake-hid.ts', "import { MemoryHub } from './memory.js';"],
      ['src/transport/types.ts', ''],
      ['src/transport/factory.ts', "import type { MemoryHub } from './testing/memory.js';"],
      ['src/agent/agent.ts', "const { FakeCp2110 } = await import('../transport/testing/fake-hid.js');"],
      [
        'drivers/salto-encoder/simulator/encoder.ts',
        "import type { MemoryHub } from '../../../src/transport/testing/memory.js';",
      ],
      ['drivers/salto-encoder/link.ts', "import { MemoryHub } from '../../src/transport/testing/memory.js';"],
    ]);
    expect(offenders(files)).toEqual([
      'src/transport/factory.ts imports the test double src/transport/testing/memory.ts',
      'src/agent/agent.ts imports the test double src/transport/testing/fake-hid.ts',
      'drivers/salto-encoder/link.ts imports the test double src/transport/testing/memory.ts',
    ]);
  });

  it('finds a driver file reaching into its simulator/, and allows only the family index’s import() or type import', () => {
    const files = new Map([
      ['drivers/ipp-printer/simulator/index.ts', "export { startIppSimulator } from './server.js';"],
      ['drivers/ipp-printer/simulator/server.ts', "import { encodeMessage } from '../ipp-codec.js';"],
      ['drivers/ipp-printer/ipp-codec.ts', ''],
      ['drivers/ipp-printer/index.ts', "const { startIppSimulator } = await import('./simulator/index.js');"],
      ['drivers/salto-encoder/simulator/index.ts', ''],
      ['drivers/salto-encoder/index.ts', "export type { EncoderBehaviour } from './simulator/index.js';"],
      ['drivers/epson-fpmate/simulator/index.ts', ''],
      ['drivers/epson-fpmate/index.ts', "import { startFpmateSimulator } from './simulator/index.js';"],
      ['drivers/epson-fpmate/driver.ts', "import type { Faults } from './simulator/index.js';"],
      ['drivers/index.ts', "await import('./ipp-printer/simulator/server.js');"],
    ]);
    expect(offenders(files)).toEqual([
      'drivers/epson-fpmate/index.ts imports drivers/epson-fpmate/simulator/index.ts (only simulate() in drivers/epson-fpmate/index.ts may, by import())',
      'drivers/epson-fpmate/driver.ts imports drivers/epson-fpmate/simulator/index.ts (only simulate() in drivers/epson-fpmate/index.ts may, by import())',
      'drivers/index.ts imports drivers/ipp-printer/simulator/server.ts (only simulate() in drivers/ipp-printer/index.ts may, by import())',
    ]);
  });

  it('finds a simulator file among a driver’s files', () => {
    const files = new Map([
      ['drivers/epson-fpmate/simulator-printer.ts', ''],
      ['drivers/epson-fpmate/simulator/printer.ts', ''],
      ['drivers/ipp-printer/simulator.ts', ''],
      ['drivers/stand-ins/stand-in-driver.ts', ''],
    ]);
    expect(offenders(files)).toEqual([
      'drivers/epson-fpmate/simulator-printer.ts is a simulator file outside a simulator/ folder',
      'drivers/ipp-printer/simulator.ts is a simulator file outside a simulator/ folder',
    ]);
  });
});
