import { describe, expect, it } from 'vitest';
import { type House, houseViolations, roomsWithoutFront } from './houses.js';
import { type Edge, productionEdges, productionFiles } from './source-graph.js';

/**
 * The command engine (`src/commands/`) is one folder per stage of a command's life, and its
 * imports run one way, as `src/commands/README.md` tells it:
 *
 *   rules ← journal ← intake ← run ← outbox ← the engine (engine.ts, types.ts, index.ts)
 *
 * - `rules/`: the pure rules and the record's shape; they import no other stage.
 * - `journal/`: stores what the rules decide.
 * - `intake/`: discovery, and the commands the agent creates itself; it hands what it finds to
 *   its ports (`IntakeSink`, `PlatformObserver`) and imports nothing of the stages after it.
 * - `run/`: ownership, lifecycle, executor, device turns; it implements the intake's sink and
 *   writes updates through its own port (`OutboxWriter`).
 * - `outbox/`: delivery; it implements the run stage's `OutboxWriter` and, behind its own ports,
 *   applies what a delivery or a refusal means through the run stage.
 * - The engine on top composes the stages through their front files; no stage imports it.
 *
 * And (`houses.ts`): a stage imports another stage only through that stage's front file
 * (`<stage>/index.ts`), its own files import each other directly, and the rest of `src/` imports
 * the engine only through `src/commands/index.ts`.
 */

const ORDER = ['rules', 'journal', 'intake', 'run', 'outbox'] as const;

/** Each stage may enter the stages before it. */
const ENGINE: House = {
  home: 'src/commands/',
  top: ['engine.ts', 'types.ts', 'index.ts', 'README.md'],
  rooms: Object.fromEntries(ORDER.map((stage, i) => [stage, ORDER.slice(0, i)])),
  entrances: ['index.ts'],
};

describe('the stages of the command engine', () => {
  it('import each other in one direction, through their front files only', () => {
    expect(houseViolations(ENGINE, productionEdges(), productionFiles())).toEqual([]);
  });

  it('each has its front file', () => {
    expect(roomsWithoutFront(ENGINE, productionFiles())).toEqual([]);
  });

  it('the check finds a backward import, one past a front file, one of the engine, a stray file', () => {
    const edges: Edge[] = [
      { from: 'src/commands/rules/machine.ts', to: 'src/commands/run/index.ts' },
      { from: 'src/commands/outbox/queue.ts', to: 'src/commands/run/types.ts' },
      { from: 'src/commands/run/executor.ts', to: 'src/commands/engine.ts' },
      { from: 'src/commands/journal/journal.ts', to: 'src/commands/journal/index.ts' },
      { from: 'src/status/page/page.ts', to: 'src/commands/rules/messages.ts' },
      // Allowed: forward through a front file, within a stage, the engine over the stages.
      { from: 'src/commands/outbox/queue.ts', to: 'src/commands/run/index.ts' },
      { from: 'src/commands/run/executor.ts', to: 'src/commands/run/lifecycle.ts' },
      { from: 'src/commands/engine.ts', to: 'src/commands/intake/index.ts' },
      { from: 'src/agent/command-engine.ts', to: 'src/commands/index.ts' },
    ];
    expect(houseViolations(ENGINE, edges, ['src/commands/queue.ts', 'src/commands/later/thing.ts'])).toEqual([
      'src/commands/queue.ts is in no room of src/commands/',
      'src/commands/later/thing.ts is in no room of src/commands/',
      'src/commands/rules/machine.ts (rules) imports src/commands/run/index.ts, a room it may not enter (run)',
      'src/commands/outbox/queue.ts imports src/commands/run/types.ts, past the front file of run',
      'src/commands/run/executor.ts (run) imports src/commands/engine.ts, on top of src/commands/',
      'src/commands/journal/journal.ts imports the front file of its own room',
      'src/status/page/page.ts imports src/commands/rules/messages.ts, not a front file of src/commands/',
    ]);
  });
});
