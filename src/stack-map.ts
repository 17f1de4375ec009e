import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Readable stack traces for the installed agent. It runs as a bundle (`dist/app/main.js` and
 * `dist/app/chunks/*.js`, see scripts/bundle.ts), whose frames name a chunk, line 1 and a column
 * in the hundred thousands. `sourceMappedStack` rewrites each frame `…/file.js:line:column` whose
 * file has a source map beside it (`file.js.map`) to the original file, line and column
 * (`/opt/frontdesk-agent/src/connector/websocket.ts:214:31`), so a logged stack and the process
 * guard's "whose code was it" (src/supervision/escaped-faults.ts) read as they do under tsx.
 *
 * Node's `--enable-source-maps` would do this too, but it keeps every map it loaded resident for
 * the process's life; here a map is read only when an unexpected error is reported, and dropped a
 * while after the last use (an error storm does not re-read it for every error). Frames without a
 * map (node's own, tsx's, an unbundled dependency's) stay as they are. Never throws.
 */

const KEEP_MS = 30_000;
const FRAME_LOCATION = /((?:file:\/\/)?\/[^\s()]+?\.[cm]?js):(\d+):(\d+)/g;

const maps = new Map<string, SourceMap | null>();
let dropTimer: NodeJS.Timeout | undefined;

function mapFor(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  clearTimeout(dropTimer);
  dropTimer = setTimeout(() => maps.clear(), KEEP_MS).unref();
  return map;
}

function mapLocation(location: string, file: string, line: string, column: string): string {
  const path = file.startsWith('file://') ? fileURLToPath(file) : file;
  const map = mapFor(path);
  if (!map) return location;
  const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
  if (!('originalSource' in entry)) return location;
  const source = resolve(dirname(path), entry.originalSource);
  return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}

/** `stack` with every frame of a source-mapped file pointing at its original source. */
export function sourceMappedStack(stack: string): string {
  try {
    return stack.replace(FRAME_LOCATION, mapLocation);
  } catch {
    return stack;
  }
}
