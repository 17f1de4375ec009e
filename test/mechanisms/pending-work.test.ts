import { describe, expect, it } from 'vitest';
import { drainMicrotasks } from '../../src/microtasks.js';
import { letPendingWorkRun } from '../helpers/pending-work.js';

/** A promise chain `depth` awaits deep that records when it reaches its end. */
function chain(depth: number, seen: string[], name: string): void {
  const step = async (left: number): Promise<void> => {
    if (left > 0) return step(left - 1);
    seen.push(name);
  };
  void (async () => {
    for (let i = 0; i < depth; i++) await Promise.resolve();
    await step(0);
  })();
}

describe('letting pending work run', () => {
  it('drainMicrotasks runs the promise chains already set off, and no timer or I/O callback', async () => {
    const seen: string[] = [];
    chain(12, seen, 'chain');
    setImmediate(() => seen.push('immediate'));
    setTimeout(() => seen.push('timer'), 0);
    await drainMicrotasks();
    expect(seen).toEqual(['chain']);
  });

  it('letPendingWorkRun also lets the event loop turn: immediates, the I/O due, what they set off', async () => {
    const seen: string[] = [];
    setImmediate(() => {
      seen.push('immediate');
      setImmediate(() => chain(30, seen, 'chain set off by an immediate'));
    });
    await letPendingWorkRun();
    expect(seen).toEqual(['immediate', 'chain set off by an immediate']);
  });
});
