import type { HistoryEntry } from '../../src/platform-simulator/index.js';
import { agentMoveProblems } from '../e2e/agent-moves.js';
import { isTerminal } from '../helpers/command-states.js';
import type { TraceLine } from './http-trace.js';
import type { PlannedCommand } from './plan.js';

/**
 * The campaign's platform-side invariants, as pure functions over what the run recorded. Each
 * returns one line per violation, starting with the invariant's name in brackets and naming the
 * command (id and what it was), so a failure says exactly who broke what.
 */

export type Histories = ReadonlyMap<string, readonly HistoryEntry[]>;

export function describe(c: PlannedCommand): string {
  return `${c.label} ${c.id}`;
}

function summary(history: readonly HistoryEntry[] | undefined): string {
  if (!history || history.length === 0) return 'no history';
  return history.map((e) => e.state).join(' → ');
}

/**
 * Every command the agent owns ends terminal; commands it does not own are never updated; the
 * agent never moves a command backwards nor out of a terminal state (`agentMoveProblems`: repeats
 * are allowed, an update whose acknowledgement a kill -9 swallowed is sent again).
 */
export function platformStateProblems(planned: readonly PlannedCommand[], histories: Histories): string[] {
  const problems: string[] = [];
  for (const c of planned) {
    const history = histories.get(c.id) ?? [];
    const last = history.at(-1);
    if (c.owned) {
      if (!last || !isTerminal(last.state)) {
        problems.push(
          `[owned commands end terminal] ${describe(c)} is ${last?.state ?? 'unknown'} (${summary(history)})`,
        );
      } else if ((last.state === 'Processed' || last.state === 'Error') && !last.notes) {
        problems.push(`[results carry Notes] ${describe(c)} ended ${last.state} without Notes`);
      }
    } else if (history.length !== 1) {
      problems.push(`[never touch what is not ours] ${describe(c)} was updated: ${summary(history)}`);
    }
    // Judged on the history (every move is there when the platform applies the document).
    for (const p of agentMoveProblems(history)) {
      problems.push(`[legal history] ${describe(c)}: ${p} (${summary(history)})`);
    }
  }
  return problems;
}

/**
 * Nothing is sent while a `Retry-After` runs, judged on the daemon's own clock and in its own
 * order (`http-trace.ts`), so a loaded machine that delays requests on their way cannot make a
 * well-behaved agent look guilty, nor hide a guilty one:
 * for each 429 a process received, no request of that process may start after it `noted` the
 * 429 (its log line, written after the budget was blocked) and before `Retry-After` has run from
 * the answer's arrival (`limited`, never later than the agent's own start of the block).
 * Requests started before the daemon knew were legitimately on their way; another process (after
 * a kill -9) cannot know. A 429 that the process outlived but never noted is reported too: then
 * the check could not judge it. With `capSeconds` (the agent's `maxRetryAfterSeconds`) the quiet
 * window is the capped wait.
 */
export function retryAfterProblems(
  trace: readonly TraceLine[],
  capSeconds = Number.POSITIVE_INFINITY,
): string[] {
  const problems: string[] = [];
  const byPid = new Map<number, TraceLine[]>();
  for (const line of trace) byPid.set(line.pid, [...(byPid.get(line.pid) ?? []), line]);
  for (const [pid, lines] of byPid) {
    for (const limited of lines) {
      if (limited.kind !== 'limited' || !limited.retryAfterSeconds) continue;
      const noted = lines.find((l) => l.kind === 'noted' && l.requestId === limited.requestId);
      const until = limited.t + Math.min(limited.retryAfterSeconds, capSeconds) * 1000;
      if (!noted) {
        if (lines.some((l) => l.t > until)) {
          problems.push(
            `[no request during Retry-After] daemon ${pid} never logged the 429 it got for ${limited.operation} (request ${limited.requestId}): cannot judge it`,
          );
        }
        continue;
      }
      for (const sent of lines) {
        if (sent.kind !== 'send' || sent.t <= noted.t || sent.t >= until) continue;
        problems.push(
          `[no request during Retry-After] daemon ${pid} sent ${sent.operation} ${sent.t - limited.t} ms after a 429 ` +
            `(request ${limited.requestId}, ${limited.operation}) that said Retry-After: ${limited.retryAfterSeconds}, ` +
            `${sent.t - noted.t} ms after it had noted it`,
        );
      }
    }
  }
  return problems;
}

/** Reads the daemon's HTTP trace; a line torn by kill -9 is skipped. */
export function readTrace(text: string): TraceLine[] {
  const out: TraceLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as TraceLine);
    } catch {
      // torn by kill -9
    }
  }
  return out;
}

/** No line the daemon printed carries a token. The line itself is not repeated (it would leak). */
export function tokenProblems(lines: readonly string[], tokens: readonly string[]): string[] {
  const problems: string[] = [];
  lines.forEach((line, i) => {
    for (const token of tokens) {
      if (token && line.includes(token)) {
        problems.push(
          `[no token in the log] line ${i + 1} of the daemon's output carries a token (${token.length} characters)`,
        );
      }
    }
  });
  return problems;
}

/**
 * The daemon never exited except when killed: every exit but the last is a SIGKILL we sent, the
 * last is the final graceful stop (code 0), and there are exactly `kills` SIGKILL exits.
 */
export function exitProblems(
  exits: ReadonlyArray<{ code: number | null; signal: NodeJS.Signals | null }>,
  kills: number,
): string[] {
  const problems: string[] = [];
  const last = exits.at(-1);
  exits.slice(0, -1).forEach((e, i) => {
    if (e.signal !== 'SIGKILL') {
      problems.push(
        `[exits only when killed] run ${i + 1} ended by itself (code ${e.code}, signal ${e.signal})`,
      );
    }
  });
  if (last?.code !== 0) {
    problems.push(
      `[exits only when killed] the final graceful stop ended with ${JSON.stringify(last ?? null)}, not code 0`,
    );
  }
  const killed = exits.filter((e) => e.signal === 'SIGKILL').length;
  if (killed !== kills)
    problems.push(`[exits only when killed] ${kills} kills sent, ${killed} runs ended by SIGKILL`);
  return problems;
}
