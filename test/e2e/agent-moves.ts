import type { HistoryEntry } from '../../src/platform-simulator/index.js';
import { isTerminal, stateRank } from '../helpers/command-states.js';

/**
 * What the agent did to one command, judged on the platform's history. The interface document
 * lets `commands/update` move any state to the state given (Part B › States and transitions), so
 * a platform that applies it refuses nothing: the simulator in strict-document mode records every
 * move, and the agent's discipline is read from the history rather than from refusals.
 *
 * An agent move (`by: 'agent'`) must not go backwards (Pending < Received < Processing <
 * terminal) and must not move the command out of a terminal state. The one repeat allowed after a
 * terminal state is the agent's own last update sent again, same state and Notes: at-least-once
 * delivery resends the update whose acknowledgement a kill -9 swallowed. Non-terminal repeats
 * (progress, resends) are allowed. Moves by the platform or staff are not the agent's to answer for.
 *
 * One move out of a terminal state is the race the document's rule makes unavoidable: an update
 * already on its way when staff ended the command lands after that end. It is excused only when
 * the agent's very next move puts the staff's terminal state back (`src/commands/outbox/restore.ts`);
 * left standing, it is a problem like any other. A restore sent when the late update had not
 * landed after all (a read cannot always tell: `commands/getAllByIds` returns neither Processing
 * nor terminal commands) is Cancelled over the staff's Cancelled: it changes no state and is not
 * a problem.
 */

export function agentMoveProblems(history: readonly HistoryEntry[]): string[] {
  const problems: string[] = [];
  for (let i = 1; i < history.length; i++) {
    const prev = history[i - 1] as HistoryEntry;
    const cur = history[i] as HistoryEntry;
    if (cur.by !== 'agent') continue;
    if (prev.by !== 'agent' && prev.state === 'Cancelled' && cur.state === 'Cancelled') continue;
    if (isTerminal(prev.state) && prev.by !== 'agent') {
      const restore = history.slice(i + 1).find((e) => e.by === 'agent');
      if (restore?.state === prev.state) {
        i = history.indexOf(restore);
        continue;
      }
    }
    if (isTerminal(prev.state)) {
      const resend = prev.by === 'agent' && prev.state === cur.state && prev.notes === cur.notes;
      const whose = prev.by === 'agent' ? '' : ` (set by ${prev.by})`;
      if (!resend) problems.push(`update after terminal ${prev.state}: ${cur.state}${whose}`);
    } else if (stateRank(cur.state) < stateRank(prev.state)) {
      problems.push(`backwards ${prev.state} → ${cur.state}`);
    }
  }
  return problems;
}
