import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * What a page of the documentation says about the tree, checked against the tree: every relative
 * link and its anchor, every repository path in code (`src/status/callers/callers.ts`, a bare
 * `durability.ts`), every `frontdesk-agent <command>` and its options, every `npm run <script>`,
 * every configuration option written as a dotted path (`poll.intervalMs`). Each problem is one
 * line naming the page and what it names that the tree lacks.
 */

/** What the tree has, gathered once by the caller. */
export interface TreeFacts {
  root: string;
  /** Top-level folders that are part of the tree (not ignored by `.gitignore`). */
  topFolders: ReadonlySet<string>;
  /** Base names of every TypeScript file of the tree, for a path written without its folder. */
  sourceNames: ReadonlySet<string>;
  /** Command name → its options, long and short (`--config`, `-c`), from the commander program. */
  commands: ReadonlyMap<string, ReadonlySet<string>>;
  /** Options every command takes (`--help`, `-h`) and the program's own (`--version`). */
  globalOptions: ReadonlySet<string>;
  npmScripts: ReadonlySet<string>;
  /** Every option path of the configuration schema (`platform.rateLimit.requests`, `devices[].id`). */
  configPaths: ReadonlySet<string>;
  /** Pages that other branches are writing now: a link to one is accepted while it is absent. */
  pagesInFlight: ReadonlySet<string>;
}

const IGNORED_ALWAYS = new Set(['.git', 'node_modules']);

/** The top-level folders of `root` that `.gitignore` does not exclude. */
export function topFoldersOf(root: string): Set<string> {
  const ignore = existsSync(join(root, '.gitignore'))
    ? readFileSync(join(root, '.gitignore'), 'utf8')
        .split('\n')
        .map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''))
        .filter((line) => line && !line.startsWith('#'))
    : [];
  return new Set(
    readdirSync(root, { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && !IGNORED_ALWAYS.has(entry.name) && !ignore.includes(entry.name),
      )
      .map((entry) => entry.name),
  );
}

/** Base names of the `.ts` files under the given top folders. */
export function sourceNamesOf(root: string, folders: Iterable<string>): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.ts')) names.add(entry.name);
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return names;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces become hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsIn(text: string): Set<string> {
  const anchors = new Set<string>();
  for (const m of withoutFences(text).matchAll(/^#{1,6} (.+)$/gm)) anchors.add(anchorOf(m[1]!));
  return anchors;
}

/** The text with fenced code blocks blanked out (line count kept). */
function withoutFences(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ''));
}

/** Every piece of code of a page: inline spans (joined across line breaks) and fenced lines. */
function codePieces(text: string): string[] {
  const pieces: string[] = [];
  for (const m of text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)) pieces.push(...m[1]!.split('\n'));
  for (const m of withoutFences(text).matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) {
    pieces.push(m[2]!.replace(/\s*\n\s*/g, ' ').trim());
  }
  return pieces;
}

const PLACEHOLDER = /[*<>…{}]/;
const FILE_EXTENSION = /\.(json|md|ts|js|yaml|yml|sh|txt|db|sock|service|rules|png|svg|gz)$/;

/** A token as written, without the punctuation around it and a line reference (`:32-36`). */
function clean(token: string): string {
  return token
    .replace(/^[("'[]+/, '')
    .replace(/[)"',;.\]]+$/, '')
    .replace(/:(\d+(-\d+)?)?$/, '');
}

function pathProblem(token: string, facts: TreeFacts): string | undefined {
  const segments = token.split('/');
  if (segments.length > 1 && facts.topFolders.has(segments[0]!)) {
    // A placeholder (`drivers/*/README.md`, `…`) ends what can be checked: the folders before it.
    const placeholder = segments.findIndex((segment) => PLACEHOLDER.test(segment));
    const path = (placeholder < 0 ? segments : segments.slice(0, placeholder)).join('/');
    return existsSync(join(facts.root, path)) ? undefined : `no ${path} in the tree`;
  }
  if (segments.length === 1 && /^[\w.-]+\.ts$/.test(token) && !facts.sourceNames.has(token)) {
    return `no file ${token} anywhere in the tree`;
  }
  return undefined;
}

const STOP = new Set(['#', '|', '||', ';', '&&', '>', '<', '2>&1']);
/** What may stand before a program's name on a command line. */
const PROGRAM_STARTS = new Set(['sudo', 'exec', 'env', '$', '&&', '||', ';', '|', 'then', 'do']);

/** `frontdesk-agent <command> [options]` (or `app/main.ts <command>`) in one piece of code. */
function commandProblems(piece: string, facts: TreeFacts): string[] {
  const problems: string[] = [];
  const tokens = piece.split(/\s+/).filter(Boolean);
  tokens.forEach((token, i) => {
    // The program itself, not its name as another program's argument (`journalctl -u frontdesk-agent`).
    const before = tokens[i - 1];
    const invoked =
      token === 'frontdesk-agent'
        ? before === undefined || PROGRAM_STARTS.has(before)
        : token === 'app/main.ts' && before === 'tsx';
    if (!invoked) return;
    const next = tokens[i + 1];
    let options: ReadonlySet<string> | undefined;
    let start = i + 1;
    if (next && /^[a-z][a-z-]*$/.test(next)) {
      options = facts.commands.get(next);
      if (!options) {
        problems.push(`\`${token} ${next}\`: no such command`);
        return;
      }
      start = i + 2;
    }
    for (const word of tokens.slice(start)) {
      if (STOP.has(word) || word.startsWith('#')) break;
      for (const flag of word.replace(/[[\]]/g, ' ').split(/[\s|]+/)) {
        const name = flag.replace(/=.*$/, '');
        if (!/^--?[a-zA-Z]/.test(name)) continue;
        if (facts.globalOptions.has(name) || options?.has(name)) continue;
        problems.push(`\`${token}${options ? ` ${next}` : ''}\`: no option ${name}`);
      }
    }
  });
  return problems;
}

function npmProblems(piece: string, facts: TreeFacts): string[] {
  const problems: string[] = [];
  for (const m of piece.matchAll(/\bnpm (?:run(?: -s| --silent)? ([\w:-]+)|(start|test)\b)/g)) {
    const script = m[1] ?? m[2]!;
    if (!facts.npmScripts.has(script)) problems.push(`npm script ${script}: not in package.json`);
  }
  return problems;
}

function optionProblem(piece: string, facts: TreeFacts): string | undefined {
  if (!/^[a-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*|\[\])+$/.test(piece) || FILE_EXTENSION.test(piece))
    return undefined;
  // Only a path from one of the configuration's own keys is an option; `Limitation.Count` is not.
  const top = piece.split(/[.[]/)[0]!;
  if (!facts.configPaths.has(top) || facts.configPaths.has(piece)) return undefined;
  return `configuration option ${piece}: not in the schema`;
}

function linkProblems(file: string, text: string, facts: TreeFacts): string[] {
  const problems: string[] = [];
  const here = dirname(join(facts.root, file));
  const prose = withoutFences(text).replace(/(`+)[^`][\s\S]*?\1/g, '');
  for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z]+:/.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const absolute = path ? join(here, path) : join(facts.root, file);
    const shown = relative(facts.root, absolute);
    if (!existsSync(absolute)) {
      if (!facts.pagesInFlight.has(shown)) problems.push(`link ${target}: no ${shown} in the tree`);
      continue;
    }
    if (anchor && statSync(absolute).isFile() && absolute.endsWith('.md')) {
      const own = path ? readFileSync(absolute, 'utf8') : text;
      if (!anchorsIn(own).has(anchor)) problems.push(`link ${target}: no heading #${anchor} in ${shown}`);
    }
  }
  return problems;
}

/** Every problem of one page (`file` relative to the root; `text` its content). */
export function pageProblems(file: string, text: string, facts: TreeFacts): string[] {
  const problems = linkProblems(file, text, facts);
  for (const piece of codePieces(text)) {
    for (const token of piece.split(/\s+/).map(clean).filter(Boolean)) {
      const problem = pathProblem(token, facts);
      if (problem) problems.push(`\`${token}\`: ${problem}`);
    }
    problems.push(...commandProblems(piece, facts), ...npmProblems(piece, facts));
    const option = optionProblem(piece, facts);
    if (option) problems.push(option);
  }
  return [...new Set(problems)].map((problem) => `${file}: ${problem}`);
}

/** The pages the checks cover: the README, every page of docs/, and systemd/README.md. */
export function documentationPages(root: string): string[] {
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`)
    : [];
  return ['README.md', ...docs.sort(), 'systemd/README.md'].filter((page) => existsSync(join(root, page)));
}
