import { COMMAND_STATES, type CommandState, TERMINAL_STATES } from '../../src/connector/wire.js';

/**
 * The platform's order of command states, for every test that judges a history or plays the
 * platform: derived from the wire's own lists (`COMMAND_STATES` in life order, `TERMINAL_STATES`
 * all final and equal), never copied into a table. The simulator's own rule is proved equal to
 * this one in `test/commands/helpers/fake-platform.contract.test.ts`.
 */
export function stateRank(state: CommandState): number {
  const terminal = COMMAND_STATES.findIndex((s) => TERMINAL_STATES.includes(s));
  return TERMINAL_STATES.includes(state) ? terminal : COMMAND_STATES.indexOf(state);
}

export function isTerminal(state: CommandState): boolean {
  return TERMINAL_STATES.includes(state);
}

/**
 * Whether the platform takes `commands/update` from `from` to `to`: never backwards, nothing
 * leaves a terminal state; the same state again is taken (a progress update, or an update resent
 * because its acknowledgement was lost).
 */
export function updateAllowed(from: CommandState, to: CommandState): boolean {
  return !isTerminal(from) && stateRank(to) >= stateRank(from);
}

/**
 * Problems with one history: states out of order, anything after a terminal state, and (unless
 * `allowRepeats`, for runs with crashes, where at-least-once delivery may resend the update whose
 * acknowledgement was lost) the same state reported twice.
 */
export function historyProblems(
  history: ReadonlyArray<{ state: CommandState }>,
  allowRepeats = false,
): string[] {
  const problems: string[] = [];
  for (let i = 1; i < history.length; i++) {
    const prev = (history[i - 1] as { state: CommandState }).state;
    const cur = (history[i] as { state: CommandState }).state;
    if (isTerminal(prev)) problems.push(`update after terminal ${prev}: ${cur}`);
    if (stateRank(cur) < stateRank(prev)) problems.push(`backwards ${prev} → ${cur}`);
    if (!allowRepeats && cur === prev && cur !== 'Processing') problems.push(`${cur} twice`);
  }
  return problems;
}
