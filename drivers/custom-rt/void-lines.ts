import { AgentError } from '../../src/errors.js';
import type { DocumentLine, FiscalDocumentModel } from '../fiscal-it/model.js';
import type { Nature } from '../fiscal-it/natures.js';
import type { HistoryEntry } from '../fiscal-it/rt/history-ring.js';
import { customRefusals } from './messages.js';

/**
 * A Custom void repeats the original's sales lines: the XML protocol manual rev 2.00 p.16 says a
 * fiscal document "must include at least one sales line", and the public drivers that void on a
 * Custom send the voided items (`fiskaltrust/middleware`
 * `scu-it/src/fiskaltrust.Middleware.SCU.IT.CustomRTPrinter/CustomRTPrinterSCU.cs`, the void
 * path's `PrintRecItem`s; `lyancoder/fiscal-printer`). The printer then voids the original as it
 * stands (directIO 7101 DOC=A prints from the reference alone, so either reading is satisfied).
 *
 * For a staff void the agent repeats what it remembered of the receipt: its net amount per
 * department and VAT class, kept with the printed document (`history-ring.ts`).
 */
export type SoldLine = NonNullable<HistoryEntry['lines']>[number];

/** A sale's net amount per department and class (lines less discounts and deductions). */
export function soldLines(model: FiscalDocumentModel): SoldLine[] {
  const byDepartment = new Map<number, SoldLine>();
  const add = (use: { department: number; rate?: number; nature?: string }, cents: number) => {
    const line = byDepartment.get(use.department) ?? { department: use.department, cents: 0 };
    if (use.rate !== undefined) line.rate = use.rate;
    if (use.nature !== undefined) line.nature = use.nature;
    line.cents += cents;
    byDepartment.set(use.department, line);
  };
  for (const l of model.lines) add(l, l.totalCents);
  for (const d of [...model.discounts, ...model.deductions]) add(d, -d.cents);
  return [...byDepartment.values()].filter((l) => l.cents > 0);
}

/** The remembered lines as the document lines of a void; refuses when none are known. */
export function voidLinesOf(entry: HistoryEntry | undefined, label: string): DocumentLine[] {
  const lines = entry?.lines ?? [];
  if (lines.length === 0) {
    throw new AgentError('COMMAND_INVALID', `The lines of receipt ${label} are not known to the agent`, {
      notes: customRefusals.voidLinesUnknown({ label }),
      retryable: false,
    });
  }
  return lines.map((l) => {
    const line: DocumentLine = {
      description: `REPARTO ${l.department}`,
      quantity: 1,
      unitCents: l.cents,
      totalCents: l.cents,
      department: l.department,
    };
    if (l.rate !== undefined) line.rate = l.rate;
    if (l.nature !== undefined) line.nature = l.nature as Nature;
    return line;
  });
}
