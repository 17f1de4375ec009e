import type { Edge } from './source-graph.js';

/**
 * A folder of `src/` built as rooms (the command engine's stages, the status page's rooms, the
 * agent): each room a subfolder with a front file, `index.ts`, its public surface; the files on
 * top of the house compose the rooms. The rules, checked over the import graph:
 *
 * - every file of the house is one of its top files or in one of its rooms;
 * - from outside the house, only its entrances are imported (the front files it names);
 * - a room imports another room only through that room's front file, and only a room it is
 *   allowed to enter (so the rooms stand in an order), never a top file of the house, and never
 *   its own front file (its files import each other directly: a front imported from inside would
 *   make cycles likely);
 * - a top file imports a room only through its front file.
 */
export interface House {
  /** The folder, with its last slash: `src/commands/`. */
  home: string;
  /** Its own files above every room; omitted: every file directly in the folder. */
  top?: readonly string[];
  /** Each room (a subfolder) and the rooms it may import. */
  rooms: Readonly<Record<string, readonly string[]>>;
  /** What files outside the house may import, relative to the house: `index.ts`, `page/index.ts`. */
  entrances: readonly string[];
}

/** The room of a file of the house (`top` for its own files), or undefined outside it. */
function roomOf(house: House, file: string): string | undefined {
  if (!file.startsWith(house.home)) return undefined;
  const rest = file.slice(house.home.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? 'top' : rest.slice(0, slash);
}

const frontOf = (house: House, room: string) => `${house.home}${room}/index.ts`;

/** The rooms of `house` that have no front file (`<room>/index.ts`) among `files`. */
export function roomsWithoutFront(house: House, files: readonly string[]): string[] {
  return Object.keys(house.rooms).filter((room) => !files.includes(frontOf(house, room)));
}

/** Every file of `house` in no room, and every import against its rules, one line each. */
export function houseViolations(house: House, edges: readonly Edge[], files: readonly string[]): string[] {
  const problems = new Set<string>();
  const { home } = house;
  for (const file of files) {
    const room = roomOf(house, file);
    if (room === undefined) continue;
    const placed =
      room === 'top'
        ? house.top === undefined || house.top.includes(file.slice(home.length))
        : Object.hasOwn(house.rooms, room);
    if (!placed) problems.add(`${file} is in no room of ${home}`);
  }
  for (const { from, to } of edges) {
    const here = roomOf(house, from);
    const there = roomOf(house, to);
    if (there === undefined) continue;
    if (here === undefined) {
      if (!house.entrances.some((entrance) => to === `${home}${entrance}`))
        problems.add(`${from} imports ${to}, not a front file of ${home}`);
      continue;
    }
    if (here === there) {
      if (here !== 'top' && to === frontOf(house, there))
        problems.add(`${from} imports the front file of its own room`);
      continue;
    }
    if (there === 'top') {
      problems.add(`${from} (${here}) imports ${to}, on top of ${home}`);
      continue;
    }
    if (here !== 'top' && !house.rooms[here]?.includes(there))
      problems.add(`${from} (${here}) imports ${to}, a room it may not enter (${there})`);
    else if (to !== frontOf(house, there))
      problems.add(`${from} imports ${to}, past the front file of ${there}`);
  }
  return [...problems];
}
