import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildProgram } from '../../app/cli.js';
import { driverRegistry } from '../../drivers/index.js';
import { jsonSchemaOf, pathsOf } from '../../scripts/configuration-rows.js';
import { ConfigSchema } from '../../src/config.js';
import { captureCli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/source-files.js';
import {
  documentationPages,
  pageProblems,
  sourceNamesOf,
  type TreeFacts,
  topFoldersOf,
} from './doc-references.js';

/**
 * The documentation names only what the tree has: README.md, docs/*.md and systemd/README.md are
 * read for paths, links, commands, options and counts (`doc-references.ts` says how each is
 * recognised), and a planted dead path in a temporary copy must be caught.
 */

const root = REPO_ROOT;
const scratch = mkdtempSync(join(tmpdir(), 'docs-references-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function treeFacts(): TreeFacts {
  const program = buildProgram(captureCli().io, () => undefined);
  const flags = (options: readonly { long?: string; short?: string }[]) =>
    options.flatMap((o) => [o.long, o.short]).filter((flag): flag is string => Boolean(flag));
  const topFolders = topFoldersOf(root);
  const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return {
    root,
    topFolders,
    sourceNames: sourceNamesOf(
      root,
      [...topFolders].filter((folder) => !folder.startsWith('.')),
    ),
    commands: new Map(program.commands.map((c) => [c.name(), new Set(flags(c.options))])),
    globalOptions: new Set(['--help', '-h', ...flags(program.options)]),
    npmScripts: new Set(Object.keys(packageJson.scripts)),
    configPaths: pathsOf(jsonSchemaOf(ConfigSchema)),
    // Written on other branches at the same time as this one; a link to either is accepted
    // while it is absent, and checked like any other page once it is there.
    pagesInFlight: new Set(['docs/security.md', 'docs/adding-a-driver-family.md']),
  };
}

const facts = treeFacts();
const read = (page: string) => readFileSync(join(root, page), 'utf8');

const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const numberOf = (word: string): number =>
  /^\d+$/.test(word) ? Number(word) : NUMBERS.indexOf(word.toLowerCase());

const demoDevices = (parseYaml(read('config/simulator.yaml')) as { devices: unknown[] }).devices.length;
const driverKinds = [...driverRegistry.keys()];
/** A family for real devices has its folder and README; the simulated devices share `drivers/stand-ins/`. */
const realFamilies = driverKinds.filter((kind) => existsSync(join(root, 'drivers', kind, 'README.md')));

/**
 * The counts the pages write, each with what it counts. Every claim must be found at least once,
 * so rewording one away from its check fails here instead of going unchecked.
 */
const COUNT_CLAIMS: ReadonlyArray<{ page: string; pattern: RegExp; what: string; count: number }> = [
  {
    page: 'README.md',
    pattern: /and\s+(\w+)\s+devices:/g,
    what: 'devices in config/simulator.yaml',
    count: demoDevices,
  },
  {
    page: 'docs/command-line.md',
    pattern: /(\d+)\s+(?:configured\s+)?devices\b/g,
    what: "devices in config/simulator.yaml (doctor's demo output)",
    count: demoDevices,
  },
  {
    page: 'docs/drivers.md',
    pattern: /(\w+)\s+drivers:\s/g,
    what: 'drivers in drivers/index.ts',
    count: driverKinds.length,
  },
  {
    page: 'docs/drivers.md',
    pattern: /(\w+)\s+families\s+for\s+real\s+devices/g,
    what: 'real driver families',
    count: realFamilies.length,
  },
  {
    page: 'docs/drivers.md',
    pattern: /and\s+(\w+)\s+simulated\s+devices\s+in-process/g,
    what: 'simulated drivers',
    count: driverKinds.length - realFamilies.length,
  },
  {
    page: 'docs/design.md',
    pattern: /(\w+)\s+drivers,\s/g,
    what: 'drivers in drivers/index.ts',
    count: driverKinds.length,
  },
  {
    page: 'docs/design.md',
    pattern: /(\w+)\s+for\s+real\s+devices/g,
    what: 'real driver families',
    count: realFamilies.length,
  },
];

/** Every count claim that is missing or does not match, reading each page with `readPage`. */
function countProblems(readPage: (page: string) => string): string[] {
  const wrong: string[] = [];
  for (const claim of COUNT_CLAIMS) {
    const found = [...readPage(claim.page).matchAll(claim.pattern)];
    if (found.length === 0) wrong.push(`${claim.page}: no claim ${claim.pattern} about the ${claim.what}`);
    for (const m of found) {
      if (numberOf(m[1]!) !== claim.count)
        wrong.push(`${claim.page}: "${m[0]}", but ${claim.count} ${claim.what}`);
    }
  }
  return wrong;
}

describe('the documentation names only what the tree has', () => {
  it.each(documentationPages(root))('%s', (page) => {
    expect(pageProblems(page, read(page), facts)).toEqual([]);
  });

  it('writes counts that match what they count', () => {
    expect(countProblems(read)).toEqual([]);
  });

  it("maps the house: the README's table has one row for each top folder of the tree", () => {
    const readme = read('README.md');
    const house = readme.slice(
      readme.indexOf('## The house'),
      readme.indexOf('\n## ', readme.indexOf('## The house') + 1),
    );
    const rows = [...house.matchAll(/^\| \[`([^`]+)\/`\]/gm)].map((m) => m[1]!);
    expect(rows.sort()).toEqual([...facts.topFolders].sort());
  });

  it('keeps the README short, with the two commands first', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    const top = readme.split('\n').slice(0, 6).join('\n');
    expect(top).toContain('npm ci && npm start');
    expect(top).toContain('npm ci && npm test');
  });

  it('lists every page of docs/ in its index, and only those', () => {
    const index = read('docs/README.md');
    const listed = [...index.matchAll(/^\| \[([\w-]+\.md)\]/gm)].map((m) => `docs/${m[1]}`);
    const pages = documentationPages(root).filter(
      (page) => page.startsWith('docs/') && page !== 'docs/README.md',
    );
    const expected = [...new Set([...pages, ...facts.pagesInFlight])].sort();
    expect(listed.sort()).toEqual(expected);
  });
});

describe('a planted mistake is caught', () => {
  it('finds a dead path, a dead link, an unknown command and option, and a wrong count in a temporary copy', () => {
    const planted = join(scratch, 'README.md');
    writeFileSync(
      planted,
      `${read('README.md')}
The durability argument is in \`src/commands/journal-durability.ts\`; see [the old guide](docs/install.md).
Run \`frontdesk-agent reboot\`, or \`frontdesk-agent doctor --fast\`, after setting \`poll.sleepMs\`.

\`\`\`sh
sudo systemd/setup.sh
frontdesk-agent devices --all   # a fenced block is read too
\`\`\`
`,
    );
    expect(pageProblems('README.md', readFileSync(planted, 'utf8'), facts)).toEqual([
      'README.md: link docs/install.md: no docs/install.md in the tree',
      'README.md: `systemd/setup.sh`: no systemd/setup.sh in the tree',
      'README.md: `frontdesk-agent devices`: no option --all',
      'README.md: `src/commands/journal-durability.ts`: no src/commands/journal-durability.ts in the tree',
      'README.md: `frontdesk-agent reboot`: no such command',
      'README.md: `frontdesk-agent doctor`: no option --fast',
      'README.md: configuration option poll.sleepMs: not in the schema',
    ]);
  });

  it('finds a bare file name that exists nowhere, and a heading a link points to that is not there', () => {
    const text =
      'The argument is in `journal-durability.ts`; see [doctor](docs/command-line.md#the-doctor).\n';
    expect(pageProblems('README.md', text, facts)).toEqual([
      'README.md: link docs/command-line.md#the-doctor: no heading #the-doctor in docs/command-line.md',
      'README.md: `journal-durability.ts`: no file journal-durability.ts anywhere in the tree',
    ]);
  });

  it('finds a count that no longer matches, and a claim reworded away from its check', () => {
    const planted = join(scratch, 'README-count.md');
    writeFileSync(planted, read('README.md').replace(/and\s+(\w+)\s+devices:/, 'and six devices:'));
    const reworded = read('docs/drivers.md').replace(/(\w+)\s+drivers:\s/, 'Here are the drivers. ');
    const readPlanted = (page: string) =>
      page === 'README.md'
        ? readFileSync(planted, 'utf8')
        : page === 'docs/drivers.md'
          ? reworded
          : read(page);
    expect(countProblems(readPlanted)).toEqual([
      `README.md: "and six devices:", but ${demoDevices} devices in config/simulator.yaml`,
      'docs/drivers.md: no claim /(\\w+)\\s+drivers:\\s/g about the drivers in drivers/index.ts',
    ]);
  });
});
