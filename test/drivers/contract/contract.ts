import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Driver, Job } from '../../../src/drivers-api/types.js';
import { english } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { inCi, requireTool } from '../../helpers/tools.js';
import { corruptCheckpoints, execute, rejection, statusOf } from './checks.js';
import type { ContractEntry, ContractRig } from './entry.js';

/**
 * The driver contract suite: the rules of `src/drivers-api/types.ts` (`Driver`), written once and
 * run over every driver on every device it can talk to. Each check uses only the `Driver`
 * interface and the device's own record of what it did (a simulator's documents and cards, a
 * ledger) — never the driver's word for it.
 *
 * How a driver joins: write a `ContractEntry` (see `entry.ts`) — how to start its device, a job
 * the device completes, how to count the device's side effects and be told of one as it happens,
 * and, for a device behind a link, how to take it away and bring it back — and add it to
 * `entries/index.ts`. A driver kind in `drivers/index.ts` without an entry fails `drivers.test.ts`.
 *
 * The checks:
 * - lifecycle: `open()`/`close()` idempotent (open twice, concurrently, close twice, close without
 *   open, open after close, then a job runs); `status()` well-formed before open, open, after close;
 * - unreachable device: `open()` rejects DEVICE_UNAVAILABLE (retryable), never synchronously; the
 *   driver stays usable and opens once the device is back; on a device that never answers, `open()`
 *   settles with ABORTED when its signal fires (also when it is already aborted);
 * - device gone while open: `status()` well-formed and not connected; a job fails retryable with
 *   nothing done and, if it stored a checkpoint, says `nothingSent`; once back, jobs run again;
 * - `reconcile()` on a driver never opened (the agent after a crash): no checkpoint → `not-done`;
 *   a corrupt checkpoint (null, a string, another shape, each field of a real one of another type)
 *   → `unknown` with a reason — both from the checkpoint alone, with the device gone; the checkpoint
 *   of a completed job → `done` with the result execute gave; nothing runs again;
 * - abort: an already-aborted signal → ABORTED and no side effect; an abort as the device acts →
 *   ABORTED with the job not finished on the device, or the real, finished outcome;
 * - every side effect comes after a checkpoint, and that checkpoint, reconciled by a restarted
 *   driver, is never `not-done`.
 */
export function driverContract(entry: ContractEntry): void {
  describe(`driver contract: ${entry.name}`, () => {
    let missing: unknown;
    try {
      for (const t of entry.tools ?? []) {
        if (!requireTool(t.tool, t.why)) missing = `${t.tool} is missing (${t.why})`;
      }
    } catch (error) {
      missing = error;
    }
    if (missing !== undefined) {
      // Under CI requireTool threw: the entry fails; elsewhere it is skipped, saying why.
      if (inCi) it('has the tools its device needs', () => expect.fail(String(missing)));
      else it.skip(`needs ${String(missing)}`, () => undefined);
      return;
    }
    defineChecks(entry);
  });
}

/** A signal nobody aborts. */
const live = () => new AbortController().signal;

function defineChecks(entry: ContractEntry): void {
  let rig: ContractRig;
  let drivers: Driver[] = [];
  const driver = (): Driver => {
    const d = rig.driver();
    drivers.push(d);
    return d;
  };
  /** A job as the core hands it after a crash: the same command, with a checkpoint. */
  const withCheckpoint = (job: Job, checkpoint: unknown): Job => ({ ...job, attempt: 2, checkpoint });

  beforeEach(async () => {
    rig = await entry.rig();
    drivers = [];
  });
  afterEach(async () => {
    for (const d of drivers) await d.close();
    await rig.dispose();
  });
  afterAll(async () => {
    await entry.shutdown?.();
  });

  it('open() and close() are idempotent: open twice, close twice, close without open, open after close', async () => {
    const d = driver();
    await d.close();
    await d.open(live());
    await d.open(live());
    await Promise.all([d.open(live()), d.open(live())]);
    await d.close();
    await d.close();
    await d.open(live());
    const before = rig.effects();
    const out = await execute(d, rig.job());
    expect(out.ok ? 'ok' : out.error.message).toBe('ok');
    expect(rig.effects() - before).toBe(rig.units);
  });

  it('status() never throws and is well-formed before open, while open and after close', async () => {
    const d = driver();
    expect(statusOf(d, 'before open').connected).toBe(false);
    await d.open(live());
    expect(statusOf(d, 'while open').connected).toBe(true);
    expect((await execute(d, rig.job())).ok).toBe(true);
    statusOf(d, 'after a job');
    await d.close();
    statusOf(d, 'after close');
  });

  it('reconcile() without a checkpoint: not-done, from a driver never opened, device gone', async () => {
    await rig.device?.gone();
    const d = driver();
    expect(await d.reconcile(rig.job(), live())).toEqual({ outcome: 'not-done' });
    expect(rig.effects()).toBe(0);
  });

  it('reconcile() of a corrupt checkpoint: unknown with a reason, from the checkpoint alone', async () => {
    const first = driver();
    await first.open(live());
    const job = rig.job();
    const out = await execute(first, job);
    expect(out.ok).toBe(true);
    const effects = rig.effects();
    await rig.device?.gone();
    const restarted = driver();
    for (const { label, value } of corruptCheckpoints(out.checkpoints)) {
      const verdict = await restarted.reconcile(withCheckpoint(job, value), live());
      expect(verdict.outcome, `checkpoint ${label}`).toBe('unknown');
      const reason = verdict.outcome === 'unknown' ? english(verdict.reason) : '';
      expect(reason.trim(), `the reason for ${label}`).not.toBe('');
    }
    expect(rig.effects()).toBe(effects);
  });

  it('reconcile() of a completed job: done with the result execute gave; nothing runs again', async () => {
    const first = driver();
    await first.open(live());
    const job = rig.job();
    const out = await execute(first, job);
    if (!out.ok) throw out.error;
    const effects = rig.effects();
    const verdict = await driver().reconcile(withCheckpoint(job, out.checkpoints.at(-1)), live());
    expect(verdict.outcome).toBe('done');
    expect(verdict.outcome === 'done' && verdict.result.notes).toEqual(out.result.notes);
    expect(rig.effects()).toBe(effects);
  });

  it('execute() with an already-aborted signal: ABORTED, and the device does nothing', async () => {
    const d = driver();
    await d.open(live());
    const stop = new AbortController();
    stop.abort();
    const out = await execute(d, rig.job(), recordingExecuteContext(stop.signal));
    expect(out.ok ? 'resolved' : out.error.code).toBe('ABORTED');
    expect(rig.effects()).toBe(0);
  });

  if (entry.offers.effectMoment) defineEffectChecks(entry, () => rig, driver, withCheckpoint);
  if (entry.offers.device) defineDeviceChecks(() => rig, driver);
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the entry offers ${what}, but its rig has none`);
  return value;
}

/** The checks that need the moment of a side effect (`ContractRig.onEffect`). */
function defineEffectChecks(
  entry: ContractEntry,
  current: () => ContractRig,
  driver: () => Driver,
  withCheckpoint: (job: Job, checkpoint: unknown) => Job,
): void {
  if (entry.offers.finished) {
    it('abort as the device acts: ABORTED with the job unfinished, or the real finished outcome', async () => {
      const rig = current();
      const finishedCount = need(rig.finished, 'finished()');
      const d = driver();
      await d.open(live());
      const stop = new AbortController();
      const off = need(rig.onEffect, 'onEffect()')(() => stop.abort());
      const finishedBefore = finishedCount();
      const out = await execute(d, rig.job(), recordingExecuteContext(stop.signal));
      off();
      expect(stop.signal.aborted, 'the device acted').toBe(true);
      const finished = finishedCount() - finishedBefore;
      if (out.ok) expect(finished, 'a resolved job is finished on the device').toBe(rig.units);
      else {
        expect(out.error.code).toBe('ABORTED');
        expect(finished, 'a job reported ABORTED is not finished on the device').toBeLessThan(rig.units);
      }
    });
  }

  it('every side effect comes after a checkpoint on disk that a restart never reads as not-done', async () => {
    const rig = current();
    const d = driver();
    await d.open(live());
    const job = rig.job();
    // A disk that takes 20 ms to sync: a driver that does not await its checkpoint reaches the
    // device (on loopback, or a simulated link) before the checkpoint is durable.
    const ctx = recordingExecuteContext(undefined, 20);
    const atEffect: unknown[] = [];
    const durableAtEffect: boolean[] = [];
    const off = need(
      rig.onEffect,
      'onEffect()',
    )(() => {
      atEffect.push(ctx.checkpoints.at(-1));
      // The engine relies on it: the checkpoint's flush is what puts the job's start on disk.
      durableAtEffect.push(ctx.checkpoints.length > 0 && ctx.durable() === ctx.checkpoints.length);
    });
    const out = await execute(d, job, ctx);
    off();
    expect(out.ok ? 'ok' : out.error.message).toBe('ok');
    expect(atEffect).toHaveLength(rig.units);
    expect(durableAtEffect, 'the checkpoint before each side effect was awaited').not.toContain(false);
    for (const [i, checkpoint] of atEffect.entries()) {
      expect(checkpoint, `a checkpoint before side effect ${i + 1}`).toBeDefined();
      const verdict = await driver().reconcile(withCheckpoint(job, checkpoint), live());
      expect(verdict.outcome, `reconciling ${JSON.stringify(checkpoint)}`).not.toBe('not-done');
    }
  });
}

/** The checks for a device behind a link (`ContractRig.device`). */
function defineDeviceChecks(current: () => ContractRig, driver: () => Driver): void {
  const deviceOf = () => need(current().device, 'a device');

  it('open() on an unreachable device rejects DEVICE_UNAVAILABLE; once it is back, open() resolves', async () => {
    const device = deviceOf();
    await device.gone();
    const d = driver();
    for (const attempt of ['first', 'second']) {
      let opening: Promise<void> = Promise.resolve();
      expect(() => {
        opening = d.open(live());
      }, 'open() throws synchronously').not.toThrow();
      const error = await rejection(opening, `the ${attempt} open() while unreachable`);
      expect([error.code, error.retryable], error.message).toEqual(['DEVICE_UNAVAILABLE', true]);
      expect(statusOf(d, `after the ${attempt} failed open`).connected).toBe(false);
    }
    await device.back();
    await d.open(live());
    expect(statusOf(d, 'open once the device is back').connected).toBe(true);
  });

  it('open() on a device that never answers settles with ABORTED when its signal fires', async () => {
    const silent = await deviceOf().silent();
    try {
      const stop = new AbortController();
      const opening = silent.driver.open(stop.signal);
      await silent.asked;
      stop.abort();
      expect((await rejection(opening, 'open() on a silent device')).code).toBe('ABORTED');
      expect((await rejection(silent.driver.open(stop.signal), 'open() with an aborted signal')).code).toBe(
        'ABORTED',
      );
      expect(statusOf(silent.driver, 'after an aborted open').connected).toBe(false);
    } finally {
      await silent.driver.close();
      await silent.dispose();
    }
  });

  it('a device gone while open: status() says so, a job fails retryable with nothing done, then runs once it is back', async () => {
    const rig = current();
    const device = deviceOf();
    const d = driver();
    await d.open(live());
    await device.gone();
    const out = await execute(d, rig.job());
    if (out.ok) throw new Error('a job on a device that is gone resolved');
    expect([out.error.code, out.error.retryable], out.error.message).toEqual(['DEVICE_UNAVAILABLE', true]);
    const nothingSent = out.checkpoints.length === 0 || out.error.details.nothingSent === true;
    expect(nothingSent, 'no checkpoint, or the error says nothingSent').toBe(true);
    expect(rig.effects()).toBe(0);
    expect(statusOf(d, 'with the device gone').connected).toBe(false);
    await device.back();
    await d.open(live());
    const again = await execute(d, rig.job());
    expect(again.ok ? 'ok' : again.error.message).toBe('ok');
    expect(rig.effects()).toBe(rig.units);
  });
}
