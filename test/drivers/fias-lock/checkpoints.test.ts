import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/clock.js';
import { english } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { type FiasRig, fiasRig, keyJob, live } from './rig.js';

/**
 * Issue 42's two FIAS findings, each played through the driver against the lock-server simulator
 * (both failed at c51eec2):
 *
 * - the checkpoint after a card was stored without being awaited (`driver.ts:98`), so the lock
 *   server was asked for the next card, the platform told of the milestone and the job's result
 *   handed over while the disk still said "card k in flight": a kill there made the restart tell
 *   staff to test card k and cut the keys again — a card confirmed, cut a second time;
 * - BY/RY waited `busyBackoffMs × 2^n` with no ceiling (`driver.ts:183`): 10 retries from 2 s
 *   waited 17 minutes before the last one, while a person stood at the desk.
 *
 * The rule both break is the driver contract's (README "Design": the checkpoint is awaited, on
 * disk, around each side effect) and the one backoff's (`src/backoff.ts`, capped).
 */

let rig: FiasRig | undefined;

afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

describe('fias-lock: at most once, around every card', () => {
  it('a card’s checkpoint is on disk before the next request, the milestone and the result: a kill there never has it cut again', async () => {
    rig = await fiasRig();
    const driver = await rig.linked();
    const ctx = recordingExecuteContext();
    /** What a kill at this moment leaves on disk. */
    const onDisk = () => ctx.checkpoints[ctx.durable() - 1];
    const atRequest: unknown[] = [];
    const atMilestone: unknown[] = [];
    rig.sim.onRequest(() => atRequest.push(onDisk()));
    const progress = ctx.progress;
    ctx.progress = (fraction, options) => {
      progress(fraction, options);
      if (options?.milestone) atMilestone.push(onDisk());
    };
    const job = keyJob({ keyCount: 3 });
    await driver.execute(job, ctx);
    const atResult = onDisk();

    expect(atRequest).toEqual([
      { v: 1, total: 3, confirmed: 0, inFlight: 1 },
      { v: 1, total: 3, confirmed: 1, inFlight: 2 },
      { v: 1, total: 3, confirmed: 2, inFlight: 3 },
    ]);
    expect(atMilestone).toEqual([
      { v: 1, total: 3, confirmed: 1 },
      { v: 1, total: 3, confirmed: 2 },
      { v: 1, total: 3, confirmed: 3 },
    ]);
    expect(atResult).toEqual({ v: 1, total: 3, confirmed: 3 });

    // The agent killed at the first milestone, then restarted: one key cut, none in doubt.
    const restarted = rig.driver();
    const afterFirst = await restarted.reconcile({ ...job, attempt: 2, checkpoint: atMilestone[0] }, live());
    expect(afterFirst.outcome === 'failed' && english(afterFirst.error.notes)).toBe(
      '1 of 3 keys was cut before the agent restarted; cut the rest again if needed.',
    );
    // Killed as the result was handed over: done, nothing to cut again.
    expect((await restarted.reconcile({ ...job, attempt: 2, checkpoint: atResult }, live())).outcome).toBe(
      'done',
    );
    expect(rig.sim.cards).toHaveLength(3);
  });

  it('a busy encoder (BY) is asked again after the shared capped backoff: 2 s doubling, never more than 30 s', async () => {
    const clock = waitsPassAtOnce();
    rig = await fiasRig();
    const driver = await rig.linked({ busyRetries: 10, busyBackoffMs: 2000, ...NEVER_TIMES_OUT }, { clock });
    rig.sim.defaultBehaviour = { answer: 'BY', text: 'Encoder busy' };
    const ctx = recordingExecuteContext();
    const error = await driver.execute(keyJob({ keyCount: 1 }), ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'DEVICE_BUSY' });
    expect(rig.sim.requests).toHaveLength(11);
    expect(clock.waits).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000, 30_000, 30_000]);
    expect(rig.sim.cards).toEqual([]);
  });
});

/** Timeouts of an hour: only the busy pauses are waits this test lets pass. */
const NEVER_TIMES_OUT = { answerTimeoutMs: 3_600_000, linkTimeoutMs: 3_600_000, openWaitMs: 3_600_000 };

/**
 * A clock on which a wait shorter than an hour passes at once and is recorded; a longer one (a
 * timeout) never ends unless its signal aborts. No wall-clock time is measured.
 */
function waitsPassAtOnce(): Clock & { waits: number[] } {
  const waits: number[] = [];
  const now = Date.UTC(2026, 10, 21, 12);
  return {
    waits,
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        if (ms < 3_600_000) {
          waits.push(ms);
          resolve();
          return;
        }
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  };
}
