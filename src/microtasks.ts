/**
 * Lets the promise callbacks already queued run — and those they queue, up to `MICROTASK_ROUNDS`
 * deep — without letting any timer or I/O callback in: nothing outside the current chains moves.
 * The `ManualClock` runs it after each wake-up, so a woken sleeper's continuation runs before the
 * next sleeper wakes; the engine runs it for a zero deadline, to ask whether work has already
 * settled without waiting for anything. (Tests that want I/O callbacks to run as well let the
 * event loop turn: `test/helpers/pending-work.ts`.)
 */
export async function drainMicrotasks(): Promise<void> {
  for (let round = 0; round < MICROTASK_ROUNDS; round++) await Promise.resolve();
}

/** Deeper than any chain a wake-up sets off in the agent (an await through a few async layers). */
const MICROTASK_ROUNDS = 20;
