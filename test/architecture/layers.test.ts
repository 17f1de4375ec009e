import { describe, expect, it } from 'vitest';
import { type Edge, productionEdges, productionFiles } from './source-graph.js';

/**
 * Imports run downward, the composition root's included. The production sources of `app/`,
 * `src/` and `drivers/` stand on floors, the lowest first; a room may import its own files and
 * the rooms of lower floors, never one above, and never another room of its own floor (rooms on
 * one floor know nothing of each other) —
 * except on the ground floor, a toolbox whose mechanisms may build on one another (the periodic
 * loop on the clock; the import-cycle test keeps them from going round). Type-only imports count.
 * Every source file must be in a room: a new part is placed here, with the reason.
 *
 * The floors, as the code's imports have them:
 *
 * 0. The ground floor: the catalogue of sentences and the small mechanisms every part uses. They
 *    import nothing above them — the catalogue included: the lists of every part's sentences are
 *    loaded by the composition root (`src/catalogues.ts`, `drivers/index.ts`).
 * 1. `errors.ts`: an AgentError carries catalogue sentences (`messages/error-codes.ts`).
 * 2. `log.ts`: the logger knows AgentError and reads source maps (`stack-map.ts`).
 * 3. The configuration, the transports (serial, TCP, HID, HTTP) and supervision (sd_notify, the
 *    watchdog, the loop-lag probe, the escaped-fault guard): each needs only the ground.
 * 4. The platform's client (`connector/`), over the HTTP transport.
 * 5. The driver contract (`drivers-api/`: it speaks the connector's command model and hands
 *    drivers the transports) and the platform simulator (`platform-simulator/`: the connector's wire
 *    schemas and the configuration).
 * 5½. The Italian fiscal core (`drivers/fiscal-it/`): the law every RT family shares, bill →
 *    document model; it reads the platform through the driver contract and is no driver, so it
 *    stands below the families that render its model (issue 24: the law in one place).
 * 5¾. The simulator kit (`drivers/simulator-kit/`): the HTTP and TCP servers and the fault
 *    switches every family's device simulator shares (issue 42 item 6).
 * 6. The driver families (each a room: one never imports another) and the status page's view
 *    model (`status-model.ts`: the engine speaks it, the page shows it).
 * 7. The command engine (`commands/`; its stages have their own order: `command-stages.test.ts`).
 * 8. The status page (`status/`): it shows the engine's words (`stateWord`) and supervision's;
 *    its own rooms have their order and front files (`rooms.test.ts`).
 * 9. The agent (`agent/`): its parts — the platform link, the journal, the devices, the engine,
 *    the page — listed and composed in `agent.ts`.
 * 10. The command line's commands (`cli/`): `run` starts the agent.
 * 11. The lists the composition root loads: every core catalogue (`src/catalogues.ts`) and every
 *    driver family (`drivers/index.ts`).
 * 12. The composition root (`app/cli.ts`: the command line, with every driver family wired in),
 *     13. the one file that touches the process (`app/main.ts`). Both stand in `app/`, above
 *     `src/` and `drivers/`: nothing of `src/` imports `drivers/` (`imports.test.ts`), and no
 *     import runs up to the root.
 */

interface Floor {
  floor: string;
  /** Its rooms may import one another (the ground floor's mechanisms); else they stay apart. */
  together?: true;
  /** Rooms: a file (`src/log.ts`), a folder (`src/connector/`), or `drivers/*\/`: each family. */
  rooms: ReadonlyArray<string | readonly string[]>;
}

const FLOORS: readonly Floor[] = [
  {
    floor: 'ground',
    together: true,
    rooms: [
      'src/messages/',
      'src/clock.ts',
      'src/random.ts',
      'src/backoff.ts',
      'src/listeners.ts',
      'src/signals.ts',
      'src/time-zone.ts',
      'src/version.ts',
      'src/stack-map.ts',
      'src/microtasks.ts',
      'src/mutex.ts',
      'src/periodic.ts',
      'src/loopback.ts',
      'src/zod-issues.ts',
      // The log's brake on floods and its audit file: mechanisms on the clock and the file system.
      'src/log-repeats.ts',
      'src/audit-file.ts',
    ],
  },
  { floor: 'errors', rooms: ['src/errors.ts'] },
  { floor: 'log', rooms: ['src/log.ts'] },
  {
    floor: 'configuration, transports, supervision',
    rooms: ['src/config.ts', 'src/transport/', 'src/supervision/'],
  },
  { floor: 'platform client', rooms: ['src/connector/'] },
  { floor: 'driver contract, platform simulator', rooms: ['src/drivers-api/', 'src/platform-simulator/'] },
  // Listed before the families so that drivers/fiscal-it/ is placed here, not taken for a family.
  { floor: 'fiscal law', rooms: ['drivers/fiscal-it/'] },
  // The device simulators' shared parts (an HTTP(S) and a TCP server, fault switches), below every family's simulator.
  { floor: 'simulator kit', rooms: ['drivers/simulator-kit/'] },
  { floor: 'driver families, view model', rooms: ['drivers/*/', 'src/status-model.ts'] },
  { floor: 'command engine', rooms: ['src/commands/'] },
  { floor: 'status page', rooms: ['src/status/'] },
  { floor: 'agent', rooms: ['src/agent/'] },
  { floor: 'command line', rooms: ['src/cli/'] },
  { floor: 'lists of parts', rooms: ['src/catalogues.ts', 'drivers/index.ts'] },
  { floor: 'composition root', rooms: ['app/cli.ts'] },
  { floor: 'process', rooms: ['app/main.ts'] },
];

interface Place {
  floor: number;
  room: string;
}

/** The floor and room of a file (its most specific room), or undefined when it has none. */
function placeOf(file: string, floors: readonly Floor[]): Place | undefined {
  let best: (Place & { length: number }) | undefined;
  floors.forEach(({ rooms }, floor) => {
    for (const room of rooms) {
      for (const path of typeof room === 'string' ? [room] : room) {
        const name = typeof room === 'string' ? room : room.join(' + ');
        let match: string | undefined;
        if (path.endsWith('*/')) {
          const family = new RegExp(`^${path.slice(0, -2)}[^/]+/`).exec(file);
          match = family?.[0];
        } else if (path.endsWith('/') ? file.startsWith(path) : file === path) {
          match = path;
        }
        if (match && (!best || match.length > best.length)) {
          best = { floor, room: path.endsWith('*/') ? match : name, length: match.length };
        }
      }
    }
  });
  return best && { floor: best.floor, room: best.room };
}

/** Every import that runs sideways or upward, and every file on no floor. */
function floorViolations(edges: readonly Edge[], floors: readonly Floor[]): string[] {
  const problems = new Set<string>();
  for (const { from, to } of edges) {
    const here = placeOf(from, floors);
    const there = placeOf(to, floors);
    if (!here) problems.add(`${from} is on no floor`);
    if (!there) problems.add(`${to} is on no floor`);
    if (!here || !there || here.room === there.room) continue;
    const a = floors[here.floor]?.floor;
    const b = floors[there.floor]?.floor;
    if (there.floor > here.floor) problems.add(`${from} (${a}) imports ${to}, a floor above (${b})`);
    else if (there.floor === here.floor && !floors[here.floor]?.together)
      problems.add(`${from} imports ${to}, another room of its floor (${a})`);
  }
  return [...problems];
}

describe('the floors of app/, src/ and drivers/', () => {
  it('every import runs down a floor, or stays in its room', () => {
    expect(floorViolations(productionEdges(), FLOORS)).toEqual([]);
  });

  it('every source file is on a floor', () => {
    expect(productionFiles().filter((file) => !placeOf(file, FLOORS))).toEqual([]);
  });

  it('the check finds an upward import (to the composition root too), a sideways one, a file on no floor; it allows a room its own files and the ground floor its toolbox', () => {
    const edges: Edge[] = [
      // The ground floor's catalogue reaching up to a part (what core-catalogues.ts did).
      { from: 'src/messages/core-catalogues.ts', to: 'src/commands/rules/messages.ts' },
      // One driver family using another's code.
      { from: 'drivers/stand-ins/index.ts', to: 'drivers/salto-encoder/protocol.ts' },
      { from: 'src/elsewhere.ts', to: 'src/errors.ts' },
      // The core reaching up to the composition root.
      { from: 'src/cli/run.ts', to: 'app/cli.ts' },
      // Allowed: downward (the root wiring the registry and the commands), and within a room.
      { from: 'app/cli.ts', to: 'drivers/index.ts' },
      { from: 'app/cli.ts', to: 'src/cli/run.ts' },
      { from: 'src/status/page/page.ts', to: 'src/commands/index.ts' },
      { from: 'src/agent/agent.ts', to: 'src/agent/drivers.ts' },
      { from: 'drivers/index.ts', to: 'drivers/stand-ins/index.ts' },
      { from: 'src/backoff.ts', to: 'src/clock.ts' },
    ];
    expect(floorViolations(edges, FLOORS)).toEqual([
      'src/messages/core-catalogues.ts (ground) imports src/commands/rules/messages.ts, a floor above (command engine)',
      'drivers/stand-ins/index.ts imports drivers/salto-encoder/protocol.ts, another room of its floor (driver families, view model)',
      'src/elsewhere.ts is on no floor',
      'src/cli/run.ts (command line) imports app/cli.ts, a floor above (composition root)',
    ]);
  });
});
