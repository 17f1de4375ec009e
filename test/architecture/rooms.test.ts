import { describe, expect, it } from 'vitest';
import { type House, houseViolations, roomsWithoutFront } from './houses.js';
import { type Edge, productionEdges, productionFiles } from './source-graph.js';

/**
 * The outer rooms get the engine's rules (`houses.ts`, as `command-stages.test.ts` checks them
 * for `src/commands/`): each room a folder entered from outside only through its front file.
 *
 * The status page (`src/status/`, its README says what each room holds): `server.ts`, `start.ts`
 * and `index.ts` on top compose the rooms; outside code enters through `index.ts` (the server) or
 * a room's front file. The rooms stand in this order:
 *
 *   page, sockets, metrics (on nothing) ← events (the page's sections) ← callers (the login page
 *   is drawn like the page; the staff socket names its peers) ← actions (who acts, in the page's
 *   words)
 *
 * The agent (`src/agent/`): its parts on top (`agent.ts` lists them), entered through `index.ts`,
 * and the device-drivers room (building the configured drivers, for the agent and for `doctor`),
 * entered through `device-drivers/index.ts`.
 */

const STATUS: House = {
  home: 'src/status/',
  top: ['index.ts', 'server.ts', 'start.ts', 'README.md'],
  rooms: {
    page: [],
    sockets: [],
    metrics: [],
    events: ['page'],
    callers: ['page', 'sockets'],
    actions: ['page', 'callers'],
  },
  entrances: [
    'index.ts',
    ...['page', 'sockets', 'metrics', 'events', 'callers', 'actions'].map((r) => `${r}/index.ts`),
  ],
};

const AGENT: House = {
  home: 'src/agent/',
  rooms: { 'device-drivers': [] },
  entrances: ['index.ts', 'device-drivers/index.ts'],
};

describe('the rooms of the status page and the agent', () => {
  it.each([STATUS, AGENT])(
    '$home is entered only through its front files, its rooms in their order',
    (house) => {
      expect(houseViolations(house, productionEdges(), productionFiles())).toEqual([]);
    },
  );

  it('each room of the status page has its front file', () => {
    expect(roomsWithoutFront(STATUS, productionFiles())).toEqual([]);
  });

  it('the check finds a room entered past its front, a room out of order, the top reached from a room, a stray file', () => {
    const edges: Edge[] = [
      { from: 'src/cli/login.ts', to: 'src/status/callers/messages.ts' },
      { from: 'src/status/page/page.ts', to: 'src/status/actions/index.ts' },
      { from: 'src/status/actions/cut-keys.ts', to: 'src/status/server.ts' },
      { from: 'src/status/server.ts', to: 'src/status/page/page.ts' },
      { from: 'src/cli/run.ts', to: 'src/agent/agent.ts' },
      // Allowed: through a front file, in order; the top through fronts; within a room.
      { from: 'src/cli/login.ts', to: 'src/status/callers/index.ts' },
      { from: 'src/status/actions/cut-keys.ts', to: 'src/status/callers/index.ts' },
      { from: 'src/status/server.ts', to: 'src/status/actions/index.ts' },
      { from: 'src/status/page/page.ts', to: 'src/status/page/html.ts' },
      { from: 'src/cli/run.ts', to: 'src/agent/index.ts' },
    ];
    const files = ['src/status/helpers.ts', 'src/status/tokens/token.ts', 'src/agent/anything.ts'];
    expect([...houseViolations(STATUS, edges, files), ...houseViolations(AGENT, edges, files)]).toEqual([
      'src/status/helpers.ts is in no room of src/status/',
      'src/status/tokens/token.ts is in no room of src/status/',
      'src/cli/login.ts imports src/status/callers/messages.ts, not a front file of src/status/',
      'src/status/page/page.ts (page) imports src/status/actions/index.ts, a room it may not enter (actions)',
      'src/status/actions/cut-keys.ts (actions) imports src/status/server.ts, on top of src/status/',
      'src/status/server.ts imports src/status/page/page.ts, past the front file of page',
      'src/cli/run.ts imports src/agent/agent.ts, not a front file of src/agent/',
    ]);
  });
});
