import { describe, expect, it } from 'vitest';
import { type Edge, productionEdges, productionFiles } from './source-graph.js';

/**
 * The command engine (`src/commands/`) is one folder per stage of a command's life, and its
 * imports run one way, as `src/commands/README.md` tells it:
 *
 *   rules ← journal ← intake ← run ← outbox ← the engine (engine.ts, types.ts, index.ts)
 *
 * - `rules/`: the pure rules and the record's shape; they import no other stage.
 * - `journal/`: stores what the rules decide.
 * - `intake/`: discovery; it hands what it finds to its ports (`IntakeSink`, `PlatformObserver`)
 *   and imports nothing of the stages after it.
 * - `run/`: ownership, lifecycle, executor, device turns; it implements the intake's sink and
 *   writes updates through its own port (`OutboxWriter`).
 * - `outbox/`: delivery; it implements the run stage's `OutboxWriter` and, behind its own ports,
 *   applies what a delivery or a refusal means through the run stage.
 * - The engine on top composes the stages through their front files; no stage imports it.
 *
 * And: a stage imports another stage only through that stage's front file (`<stage>/index.ts`),
 * its own files import each other directly (never their own front: that would make cycles
 * likely), and the rest of `src/` imports the engine only through `src/commands/index.ts`.
 */

const STAGES = ['rules', 'journal', 'intake', 'run', 'outbox'] as const;
/** The engine's own files, above every stage. */
const TOP = ['engine.ts', 'types.ts', 'index.ts'];
const HOME = 'src/commands/';

/** The stage of a file of the engine (`top` for the engine's own), or undefined outside it. */
function stageOf(file: string): string | undefined {
  if (!file.startsWith(HOME)) return undefined;
  const rest = file.slice(HOME.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? 'top' : rest.slice(0, slash);
}

const rank = (stage: string) => (stage === 'top' ? STAGES.length : STAGES.indexOf(stage as never));
const isFront = (file: string, stage: string) => file === `${HOME}${stage}/index.ts`;

/** Every import against the stages' order or past a front file, and every file in no stage. */
function stageViolations(edges: readonly Edge[], files: readonly string[]): string[] {
  const problems = new Set<string>();
  for (const file of files) {
    const stage = stageOf(file);
    if (stage === undefined) continue;
    if (stage === 'top' ? !TOP.includes(file.slice(HOME.length)) : rank(stage) < 0) {
      problems.add(`${file} is in no stage`);
    }
  }
  for (const { from, to } of edges) {
    const here = stageOf(from);
    const there = stageOf(to);
    if (there === undefined) continue;
    if (here === undefined) {
      if (to !== `${HOME}index.ts`) problems.add(`${from} imports ${to}, not the front file of the engine`);
      continue;
    }
    if (here === there) {
      if (here !== 'top' && isFront(to, there))
        problems.add(`${from} imports the front file of its own stage`);
      continue;
    }
    if (there === 'top') problems.add(`${from} (${here}) imports ${to}, the engine above every stage`);
    else if (rank(there) > rank(here))
      problems.add(`${from} (${here}) imports ${to}, a later stage (${there})`);
    else if (!isFront(to, there)) problems.add(`${from} imports ${to}, past the front file of ${there}`);
  }
  return [...problems];
}

describe('the stages of the command engine', () => {
  it('import each other in one direction, through their front files only', () => {
    expect(stageViolations(productionEdges(), productionFiles())).toEqual([]);
  });

  it('each has its front file', () => {
    const files = productionFiles();
    expect(STAGES.filter((stage) => !files.includes(`${HOME}${stage}/index.ts`))).toEqual([]);
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
      { from: 'src/agent/agent.ts', to: 'src/commands/index.ts' },
    ];
    expect(stageViolations(edges, ['src/commands/queue.ts', 'src/commands/later/thing.ts'])).toEqual([
      'src/commands/queue.ts is in no stage',
      'src/commands/later/thing.ts is in no stage',
      'src/commands/rules/machine.ts (rules) imports src/commands/run/index.ts, a later stage (run)',
      'src/commands/outbox/queue.ts imports src/commands/run/types.ts, past the front file of run',
      'src/commands/run/executor.ts (run) imports src/commands/engine.ts, the engine above every stage',
      'src/commands/journal/journal.ts imports the front file of its own stage',
      'src/status/page/page.ts imports src/commands/rules/messages.ts, not the front file of the engine',
    ]);
  });
});
