import { existsSync, readFileSync } from 'node:fs';

/**
 * Where the configuration reference (`scripts/configuration-reference.ts`) finds the words for an
 * option. Doc comments are gone at run time, so a description comes from text that is there:
 *
 * - an example configuration's comments (`config/agent.example.yaml`, then
 *   `config/simulator.yaml`): the comment lines just above a key, and a comment after its value
 *   on the same line. A commented-out key (`# accessTokenFile: …`) counts as that key; a run of
 *   them shares the prose above it. The file's first comment block is its heading, no key's.
 * - a driver family's README, its `## Options` table: a row whose first cell names the option in
 *   backticks (`` `tls.fingerprint` ``, or several: `` `host`, `port` ``) describes it in the
 *   column headed "meaning" (or the last one); the "default" column is kept for an option the
 *   schema gives no default, as what its absence means.
 *
 * Paths are dotted from the document's root (`platform.rateLimit.requests`); a list's items add
 * `[]` (`devices[].id`). Only paths the caller accepts (`isPath`) are kept, so prose that merely
 * looks like a key never becomes one.
 */

export interface Described {
  description: string;
  /** From a README table: what the option's absence means, as its "default" column says. */
  absent?: string;
}

/** The comments of an example YAML file, by the option path they describe. */
export function exampleComments(text: string, isPath: (path: string) => boolean): Map<string, Described> {
  const found = new Map<string, Described>();
  const open: Array<{ indent: number; path: string }> = [];
  let prose: string[] = [];
  let inHeading = true;
  let afterCommentedKey = false;
  const parentOf = (indent: number): string => {
    while (open.length > 0 && open[open.length - 1]!.indent >= indent) open.pop();
    return open.length > 0 ? `${open[open.length - 1]!.path}.` : '';
  };
  // The first place a key appears describes it: a later example of it (another device's
  // `options:`) speaks of that example.
  const seen = new Set<string>();
  const keep = (path: string, words: string[]) => {
    if (!isPath(path) || seen.has(path)) return;
    seen.add(path);
    const description = words.join(' ').trim();
    if (description) found.set(path, { description });
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      prose = [];
      inHeading = false;
      afterCommentedKey = false;
      continue;
    }
    const comment = /^(\s*)#\s?(.*)$/.exec(line);
    if (comment) {
      if (inHeading) continue;
      const [, indent = '', body = ''] = comment;
      const commented = /^(- )?([a-z][A-Za-z0-9]*):(\s|$)(.*)$/.exec(body);
      const path = commented ? `${parentOf(indent.length)}${commented[2]}` : undefined;
      if (commented && path && isPath(path)) {
        const trailing = /(?:^|\s)#\s(.*)$/.exec(commented[4] ?? '')?.[1];
        keep(path, trailing ? [trailing] : prose);
        afterCommentedKey = true;
        continue;
      }
      if (afterCommentedKey) prose = [];
      afterCommentedKey = false;
      prose.push(body);
      continue;
    }
    inHeading = false;
    if (afterCommentedKey) prose = [];
    afterCommentedKey = false;
    const entry = /^(\s*)(- )?([A-Za-z_][\w-]*):(\s|$)(.*)$/.exec(line);
    if (!entry) continue;
    const [, spaces = '', item, key = '', , value = ''] = entry;
    let indent = spaces.length;
    if (item) {
      // `- key:` opens a list item: its keys sit two columns right, under the list's path + `[]`.
      // The prose above the first item speaks of the list.
      const list = parentOf(indent).replace(/\.$/, '');
      const words = prose.join(' ').trim();
      if (words && isPath(list) && !found.has(list) && !seen.has(`${list}[]`))
        found.set(list, { description: words });
      seen.add(`${list}[]`);
      prose = [];
      open.push({ indent, path: `${list}[]` });
      indent += 2;
    }
    const path = `${parentOf(indent)}${key}`;
    const trailing = /(?:^|\s)#\s(.*)$/.exec(value)?.[1];
    keep(path, trailing ? [...prose, trailing] : prose);
    open.push({ indent, path });
    prose = [];
  }
  return found;
}

/** Splits a Markdown table row into its cells, keeping `\|` inside a cell. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/** The rows of the first table under `## Options…` in a README, by the option names they hold. */
export function readmeOptions(path: string): Map<string, Described> {
  const found = new Map<string, Described>();
  if (!existsSync(path)) return found;
  const lines = readFileSync(path, 'utf8').split('\n');
  const start = lines.findIndex((line) => /^## Options\b/.test(line));
  if (start < 0) return found;
  let header: string[] | undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,2} /.test(line)) break;
    if (!line.trim().startsWith('|')) {
      if (header) break;
      continue;
    }
    const row = cells(line);
    if (!header) {
      header = row.map((cell) => cell.toLowerCase());
      continue;
    }
    if (row.every((cell) => /^:?-+:?$/.test(cell))) continue;
    const meaning = header.indexOf('meaning') >= 0 ? header.indexOf('meaning') : row.length - 1;
    const byDefault = header.indexOf('default');
    const names = [...(row[0] ?? '').matchAll(/`([A-Za-z][\w.]*)`/g)].map((m) => m[1]!);
    const description = row[meaning] ?? '';
    const absent = byDefault >= 0 ? row[byDefault] : undefined;
    for (const name of names) {
      if (!found.has(name)) found.set(name, { description, ...(absent ? { absent } : {}) });
    }
  }
  return found;
}
