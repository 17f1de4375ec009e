import { expect } from 'vitest';
import type { Driver, Job } from '../../../src/drivers-api/types.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { eventually } from '../../helpers/eventually.js';
import {
  type CellName,
  type Expected,
  executed,
  type KeyMatrixRig,
  type Outcome,
  verdictOf,
  WatchedClock,
} from './family.js';

/**
 * The key recovery matrix's cells: each plays one fault during a job of three keys and names the
 * outcome every family must end in — done, not done, failed with how many keys cut (and which
 * card is in doubt), or unknown — and why. A family whose protocol makes a cell end otherwise
 * says so, with its source, in its `expects`.
 */
type Opened = (driver: Promise<Driver>) => Promise<Driver>;

export interface Cell {
  name: CellName;
  /** What happens, in words. */
  plays: string;
  /** The outcome, unless the family's protocol says otherwise (`KeyMatrixFamily.expects`). */
  expect?: Expected;
  /** Plays the cell; `opened` keeps each driver the cell opens, to close it afterwards. */
  run(rig: KeyMatrixRig, opened: Opened): Promise<Outcome>;
}

const live = () => new AbortController().signal;

/** What a restart (a new driver on the same device and store) decides from `checkpoint`. */
async function restart(rig: KeyMatrixRig, opened: Opened, job: Job, checkpoint: unknown) {
  const driver = await opened(rig.driver());
  return verdictOf(await driver.reconcile({ ...job, attempt: 2, checkpoint }, live()));
}

const device = (rig: KeyMatrixRig) => ({ deviceCards: rig.cards(), deviceRequests: rig.requests() });

export const CELLS: readonly Cell[] = [
  {
    name: 'kill after a card',
    plays: 'the agent is killed as it reports card 2 of 3 cut; a new agent decides from what is on disk',
    expect: {
      outcome: 'failed',
      cut: 2,
      deviceCards: 2,
      deviceRequests: 2,
      why: 'each card’s checkpoint is on disk before its milestone (cutKeyCards, src/drivers-api/key-jobs.ts; issue 42 item 4), so the restart knows 2 were cut and none is in doubt; it does not cut the third by itself: a new key would void the cards handed out (README "The guarantees")',
    },
    async run(rig, opened) {
      const driver = await opened(rig.driver());
      const job = rig.job();
      const killed = new AbortController();
      const ctx = recordingExecuteContext(killed.signal);
      let onDisk: unknown;
      const progress = ctx.progress;
      ctx.progress = (fraction, options) => {
        progress(fraction, options);
        if (options?.milestone && ctx.progressSeen.filter((p) => p.milestone).length === 2) {
          onDisk = ctx.checkpoints[ctx.durable() - 1];
          killed.abort();
        }
      };
      await executed(driver, job, ctx);
      return { ...(await restart(rig, opened, job, onDisk)), ...device(rig) };
    },
  },
  {
    name: 'lost answer',
    plays: 'the device writes card 2 and its answer never comes',
    expect: {
      outcome: 'failed',
      cut: 1,
      inDoubt: 2,
      deviceCards: 2,
      deviceRequests: 2,
      why: 'a request whose answer is lost may have been written: Error "test that card", never sent again, and a restart says the same (README "The guarantees", a key card’s answer is lost)',
    },
    async run(rig, opened) {
      const clock = new WatchedClock();
      const driver = await opened(rig.driver(clock));
      rig.fault('lost-answer', 2);
      const job = rig.job();
      const ctx = recordingExecuteContext();
      const running = executed(driver, job, ctx);
      await eventually(
        'the driver waits for card 2’s answer',
        () => rig.requests() === 2 && clock.waiting(rig.answerTimeoutMs) === 1,
      );
      await clock.advance(rig.answerTimeoutMs);
      const outcome = verdictOf(await running);
      expect(await restart(rig, opened, job, ctx.checkpoints.at(-1))).toEqual(outcome);
      return { ...outcome, ...device(rig) };
    },
  },
  {
    name: 'link replaced mid-card',
    plays: 'the link to the device is replaced while card 2 is in flight',
    async run(rig, opened) {
      const driver = await opened(rig.driver());
      rig.replaceLink?.(2);
      return { ...verdictOf(await executed(driver, rig.job())), ...device(rig) };
    },
  },
  {
    name: 'encoder rebooted',
    plays:
      'the device restarts on card 2’s request (nothing written, no answer, away a while); then a new job',
    expect: {
      outcome: 'failed',
      cut: 1,
      inDoubt: 2,
      deviceCards: 1,
      deviceRequests: 2,
      why: 'the agent cannot tell a device that restarted before writing from one that wrote and lost the link: card 2 is in doubt and never sent again; once the device is back the next job is cut (README "The guarantees", a key card’s answer is lost)',
    },
    async run(rig, opened) {
      const driver = await opened(rig.driver());
      rig.fault('reboot', 2);
      const outcome = { ...verdictOf(await executed(driver, rig.job())), ...device(rig) };
      await rig.back();
      expect(await executed(driver, rig.job())).toEqual({ ok: true });
      return outcome;
    },
  },
  {
    name: 'busy encoder',
    plays: 'the device answers busy twice for card 2',
    expect: {
      outcome: 'done',
      deviceCards: 3,
      deviceRequests: 5,
      why: 'a busy answer writes nothing and is asked again after the shared capped backoff (src/backoff.ts, at most 30 s): PMS protocol OV, FIAS BY/RY (IFC8 FIAS specification Appendix B p.103–104)',
    },
    async run(rig, opened) {
      const driver = await opened(rig.driver());
      rig.fault('busy', 2);
      rig.fault('busy', 1);
      return { ...verdictOf(await executed(driver, rig.job())), ...device(rig) };
    },
  },
  {
    name: 'corrupt checkpoint',
    plays: 'a new agent finds a checkpoint it cannot read',
    expect: {
      outcome: 'unknown',
      deviceCards: 0,
      deviceRequests: 0,
      why: 'a checkpoint that exists may stand for cards already written: unknown ("test the cards"), never not-done, and nothing is cut (README "Design"; readCardCheckpoint, src/drivers-api/key-jobs.ts)',
    },
    async run(rig, opened) {
      const checkpoint = { v: 1, total: 'three', confirmed: -1, writing: [] };
      return { ...(await restart(rig, opened, rig.job(), checkpoint)), ...device(rig) };
    },
  },
];
