import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src/platform-simulator/index.js';
import { agentMoveProblems } from './agent-moves.js';

/** The judge of the agent's moves, judged (platform-interfaces.md, Part B › States and transitions). */

type Step = [HistoryEntry['state'], HistoryEntry['by'], string?];
const history = (...steps: Step[]): HistoryEntry[] =>
  steps.map(([state, by, notes], i) => ({
    state,
    by,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    ...(notes ? { notes } : {}),
  }));

describe('agentMoveProblems', () => {
  it('accepts a clean life, progress repeats, and the resend of the last update after a kill -9', () => {
    expect(
      agentMoveProblems(
        history(
          ['Pending', 'platform'],
          ['Received', 'agent'],
          ['Received', 'agent'],
          ['Processing', 'agent'],
          ['Processing', 'agent'],
          ['Processed', 'agent', 'Receipt 0001-0002'],
          ['Processed', 'agent', 'Receipt 0001-0002'],
        ),
      ),
    ).toEqual([]);
  });

  it('flags a move backwards and any move out of a terminal state, including after staff cancelled', () => {
    expect(
      agentMoveProblems(history(['Pending', 'platform'], ['Processing', 'agent'], ['Received', 'agent'])),
    ).toEqual(['backwards Processing → Received']);
    expect(
      agentMoveProblems(
        history(['Pending', 'platform'], ['Processed', 'agent', 'ok'], ['Error', 'agent', 'x']),
      ),
    ).toEqual(['update after terminal Processed: Error']);
    expect(
      agentMoveProblems(
        history(
          ['Pending', 'platform'],
          ['Processing', 'agent'],
          ['Cancelled', 'staff'],
          ['Processing', 'agent'],
        ),
      ),
    ).toEqual(['update after terminal Cancelled: Processing (set by staff)']);
    expect(
      agentMoveProblems(
        history(['Pending', 'platform'], ['Processed', 'agent', 'a'], ['Processed', 'agent', 'b']),
      ),
    ).toEqual(['update after terminal Processed: Processed']);
  });

  it('excuses an update that landed after staff cancelled only when the agent’s next move puts Cancelled back', () => {
    const raced = (...after: Step[]) =>
      agentMoveProblems(
        history(
          ['Pending', 'platform'],
          ['Received', 'agent'],
          ['Processing', 'agent'],
          ['Cancelled', 'staff', 'guest left'],
          ['Processing', 'agent'],
          ...after,
        ),
      );
    expect(raced(['Cancelled', 'agent', 'Cancelled on the platform.'])).toEqual([]);
    // A restore whose late update had not landed after all: Cancelled over Cancelled moves nothing.
    expect(
      agentMoveProblems(
        history(
          ['Pending', 'platform'],
          ['Processing', 'agent'],
          ['Cancelled', 'staff', 'guest left'],
          ['Cancelled', 'agent', 'Cancelled on the platform.'],
        ),
      ),
    ).toEqual([]);
    expect(raced()).toEqual(['update after terminal Cancelled: Processing (set by staff)']);
    expect(raced(['Processed', 'agent', 'Receipt 0001-0002'])).toEqual([
      'update after terminal Cancelled: Processing (set by staff)',
    ]);
    // A result that landed late, then the restore: excused too.
    expect(
      agentMoveProblems(
        history(
          ['Pending', 'platform'],
          ['Processing', 'agent'],
          ['Cancelled', 'staff'],
          ['Processed', 'agent', 'Receipt 0001-0002'],
          [
            'Cancelled',
            'agent',
            'Cancelled on the platform, but the device had already done it: Receipt 0001-0002',
          ],
        ),
      ),
    ).toEqual([]);
  });

  it('does not judge moves the agent did not make', () => {
    expect(
      agentMoveProblems(history(['Pending', 'platform'], ['Received', 'agent'], ['Cancelled', 'staff'])),
    ).toEqual([]);
  });
});
