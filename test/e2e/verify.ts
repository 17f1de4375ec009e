import { join } from 'node:path';
import type { PlatformSimulator } from '../../src/platform-simulator/index.js';
import { historyProblems, isTerminal } from '../helpers/command-states.js';
import { eventually } from '../helpers/eventually.js';
import { ledgerCounts, type Planned } from './harness.js';

/**
 * Waits until every command the agent owns is terminal on the simulator. `timeoutMs` is only the
 * safety net against a hung run (generous by default); nothing here measures how long it took.
 */
export async function waitForAll(
  sim: PlatformSimulator,
  planned: Planned[],
  timeoutMs = 300_000,
): Promise<void> {
  await eventually(
    () => {
      const open = planned.filter(
        (p) => p.expected !== 'untouched' && !isTerminal(sim.command(p.view.id)?.state ?? 'Pending'),
      );
      return `${open.length} commands to reach a terminal state (e.g. ${open
        .slice(0, 3)
        .map((p) => `${p.view.kind} ${p.view.id} ${sim.command(p.view.id)?.state}`)
        .join(', ')})`;
    },
    () =>
      planned.every(
        (p) => p.expected === 'untouched' || isTerminal(sim.command(p.view.id)?.state ?? 'Pending'),
      ),
    { timeoutMs, intervalMs: 200 },
  );
}

export interface Verdict {
  problems: string[];
  processed: number;
  errors: number;
  untouched: number;
}

/**
 * Checks the guarantees: each command ended as scripted (partial key jobs after a crash may end
 * in Error saying how many keys were cut), with Notes; histories legal; commands not ours never
 * touched; no fiscal document printed twice; no more cards than asked for.
 */
export function verify(
  sim: PlatformSimulator,
  planned: Planned[],
  dir: string,
  options: { crashes?: boolean } = {},
): Verdict {
  const problems: string[] = [];
  const receipts = new Map([
    ...ledgerCounts(join(dir, 'ledger-fiscal-ok.jsonl')),
    ...ledgerCounts(join(dir, 'ledger-fiscal-paper.jsonl')),
  ]);
  const cards = new Map([
    ...ledgerCounts(join(dir, 'ledger-keys-ok.jsonl')),
    ...ledgerCounts(join(dir, 'ledger-keys-nocard.jsonl')),
  ]);
  let processed = 0;
  let errors = 0;
  let untouched = 0;
  for (const p of planned) {
    const id = p.view.id;
    const history = sim.history(id);
    const final = history.at(-1);
    const label = `${p.view.kind} ${id}`;
    problems.push(...historyProblems(history, options.crashes).map((x) => `${label}: ${x}`));
    if (p.expected === 'untouched') {
      untouched++;
      if (history.length !== 1) problems.push(`${label}: not ours but updated to ${final?.state}`);
      continue;
    }
    if (!final) {
      problems.push(`${label}: no history`);
      continue;
    }
    if (final.state === 'Processed') processed++;
    if (final.state === 'Error') errors++;
    const partialKeys =
      p.view.kind === 'keys' &&
      final.state === 'Error' &&
      /keys (was|were) cut before the agent restarted/.test(final.notes ?? '');
    const okAsPartial = p.expected === 'Processed' && partialKeys;
    if (final.state !== p.expected && !okAsPartial) {
      problems.push(`${label}: ended ${final.state} (${final.notes ?? 'no notes'}), expected ${p.expected}`);
    }
    if ((final.state === 'Processed' || final.state === 'Error') && !final.notes) {
      problems.push(`${label}: ${final.state} without Notes`);
    }
    if (p.view.kind.startsWith('fiscal')) {
      const printed = receipts.get(id) ?? 0;
      if (printed > 1) problems.push(`${label}: printed ${printed} times`);
      if (final.state === 'Processed' && printed !== 1)
        problems.push(`${label}: Processed but printed ${printed} times`);
      if (final.state === 'Error' && printed !== 0) problems.push(`${label}: Error but printed`);
    }
    if (p.view.kind === 'keys' && p.keyCount) {
      const cut = cards.get(id) ?? 0;
      if (cut > p.keyCount) problems.push(`${label}: ${cut} cards cut for ${p.keyCount} keys`);
      if (final.state === 'Processed' && cut !== p.keyCount)
        problems.push(`${label}: Processed with ${cut} cards cut`);
    }
  }
  return { problems, processed, errors, untouched };
}
