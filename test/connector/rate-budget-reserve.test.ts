import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { RateBudget, type RequestPriority } from '../../src/connector/index.js';

/**
 * The budget's reservation for known work: discovery spends only the surplus the declared work
 * leaves in the window, waits at most one window, and a listing's further pages are not held.
 */

function rig(requests: number, windowSeconds: number) {
  const clock = new ManualClock();
  const budget = new RateBudget({ requests, windowSeconds, clock });
  const granted: string[] = [];
  const settles = new Map<string, () => void>();
  const take = (name: string, priority: RequestPriority = 'normal', continuation = false) =>
    budget.acquire(priority, undefined, { continuation }).then((settle) => {
      granted.push(name);
      settles.set(name, settle);
    });
  return { clock, budget, granted, take };
}

describe('RateBudget reservation for known work', () => {
  it('lets a poll go only when the window leaves room beyond the work still to send', async () => {
    const { clock, budget, granted, take } = rig(10, 30);
    let demand = 8;
    budget.reserve(() => demand);
    for (let i = 0; i < 3; i++) void take(`update-${i}`);
    await clock.advance(0);
    void take('poll', 'discovery');
    await clock.advance(0);
    // 3 in the window + 8 still to send > 10: the poll waits though the window has room.
    expect(granted).toEqual(['update-0', 'update-1', 'update-2']);
    expect(budget.snapshot().waiting).toBe(1);
    demand = 7;
    void take('update-3');
    await clock.advance(0);
    // 4 + 7 > 10 still.
    expect(granted).not.toContain('poll');
    demand = 4;
    // Any pump re-reads the demand: 5 + 4 < 10.
    void take('update-4');
    await clock.advance(0);
    expect(granted).toHaveLength(6);
    expect(granted).toContain('poll');
  });

  it('makes a held poll go after one window at the latest, and frees it as the window slides', async () => {
    const { clock, budget, granted, take } = rig(4, 10);
    budget.reserve(() => 100);
    void take('a');
    void take('b');
    await clock.advance(0);
    void take('poll-1', 'discovery');
    await clock.advance(9999);
    expect(granted).toEqual(['a', 'b']);
    await clock.advance(1);
    expect(granted).toEqual(['a', 'b', 'poll-1']);
    // Without known work the next poll goes at once.
    const { budget: idle, granted: idleGranted, take: idleTake, clock: idleClock } = rig(4, 10);
    let work = 3;
    idle.reserve(() => work);
    void idleTake('u');
    await idleClock.advance(0);
    void idleTake('poll', 'discovery');
    await idleClock.advance(0);
    expect(idleGranted).toEqual(['u']);
    work = 0;
    // The window slides: u leaves it at 10 s and the poll is looked at again.
    await idleClock.advance(10_000);
    expect(idleGranted).toEqual(['u', 'poll']);
  });

  it('does not hold a further page of a listing already begun, nor non-discovery requests', async () => {
    const { clock, budget, granted, take } = rig(10, 30);
    budget.reserve(() => 50);
    void take('poll', 'discovery');
    void take('page-2', 'discovery', true);
    void take('read', 'result');
    void take('update', 'normal');
    await clock.advance(0);
    expect(granted).toEqual(['page-2', 'read', 'update']);
    expect(budget.snapshot().waiting).toBe(1);
  });

  it('withdraws a reservation', async () => {
    const { clock, budget, granted, take } = rig(10, 30);
    const withdraw = budget.reserve(() => 50);
    void take('poll', 'discovery');
    await clock.advance(0);
    expect(granted).toEqual([]);
    expect(budget.reserved()).toBe(50);
    withdraw();
    await clock.advance(0);
    expect(granted).toEqual(['poll']);
    expect(budget.reserved()).toBe(0);
  });
});
