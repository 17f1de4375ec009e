import { type CommandState, TERMINAL_STATES } from '../../connector/wire.js';

/**
 * How urgent a pending update is, for the outbox's `heads()`: a result (Processed, Error,
 * Cancelled) 0, progress (Processing) 1, the rest (Received) 2.
 */
export function urgencyOf(state: CommandState): number {
  if (TERMINAL_STATES.includes(state)) return 0;
  return state === 'Processing' ? 1 : 2;
}

interface Pending {
  seq: number;
  urgency: number;
}

/**
 * The outbox's pending updates by command, in memory: each command's seqs in order with their
 * urgency. Seqs come from an AUTOINCREMENT key, so a new one is always the largest and appending
 * keeps each list sorted. `heads()` answers what the outbox's former `GROUP BY` query did: each
 * command's first seq, commands ranked by their most urgent pending update, then oldest head first.
 */
export class HeadIndex {
  private readonly byCommand = new Map<string, Pending[]>();

  add(commandId: string, seq: number, urgency: number): void {
    const list = this.byCommand.get(commandId);
    if (!list) {
      this.byCommand.set(commandId, [{ seq, urgency }]);
      return;
    }
    const last = list[list.length - 1];
    if (last && last.seq > seq) {
      // Not expected (see above), but kept correct: insert in order.
      const at = list.findIndex((p) => p.seq > seq);
      list.splice(at, 0, { seq, urgency });
    } else list.push({ seq, urgency });
  }

  remove(commandId: string, seq: number): void {
    const list = this.byCommand.get(commandId);
    if (!list) return;
    const at = list.findIndex((p) => p.seq === seq);
    if (at < 0) return;
    list.splice(at, 1);
    if (list.length === 0) this.byCommand.delete(commandId);
  }

  drop(commandId: string): void {
    this.byCommand.delete(commandId);
  }

  /** Up to `limit` head seqs, most urgent first, oldest first within an urgency; `exclude` left out. */
  heads(limit: number, exclude: ReadonlySet<string>): number[] {
    if (limit <= 0) return [];
    const found: Pending[] = [];
    for (const [commandId, list] of this.byCommand) {
      if (exclude.has(commandId)) continue;
      let urgency = 2;
      for (const p of list) if (p.urgency < urgency) urgency = p.urgency;
      found.push({ seq: (list[0] as Pending).seq, urgency });
    }
    found.sort((a, b) => a.urgency - b.urgency || a.seq - b.seq);
    return found.slice(0, limit).map((p) => p.seq);
  }
}
