import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Lets the work already set off run to where it waits on something outside the test's hands — a
 * `ManualClock` sleep, a gate, a socket — without any clock moving: a few turns of the event loop,
 * each running every promise callback queued (and those they queue) and the I/O callbacks due.
 * For code driven by a `ManualClock` and in-memory fakes, before asserting what it did or did not
 * do. Work that takes real time (a child process, a real socket's peer) is waited for with
 * `eventually`, never with more turns.
 */
export async function letPendingWorkRun(): Promise<void> {
  for (let turn = 0; turn < PENDING_WORK_TURNS; turn++) await nextTurn();
}

/** Enough for the deepest chain the engine's tests set off (a device turn, its journal and outbox). */
const PENDING_WORK_TURNS = 5;
