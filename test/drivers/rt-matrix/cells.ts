import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect } from 'vitest';
import type { ManualClock } from '../../../src/clock.js';
import type { ExecuteContext, Job, JobResult, Reconciliation } from '../../../src/drivers-api/types.js';
import { type AgentError, toAgentError } from '../../../src/errors.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import type { CellName, MatrixFamily, MatrixRig } from './family.js';

/**
 * The recovery matrix's cells (issue 42 item 3): each names its expected outcome and its source,
 * and asks the device's own record (the simulator's documents), never the driver.
 */
export interface Cell {
  name: CellName;
  expect: string;
  source: string;
  /** The settle wait after a lost answer, in minutes (0: the witnesses are read once). */
  settleMinutes?: number;
  run(rig: MatrixRig, clock: ManualClock, family: MatrixFamily): Promise<void>;
}

type Outcome = { ok: true; result: JobResult } | { ok: false; error: AgentError };

const journal = () => recordingExecuteContext();

/**
 * Runs `work` to its end on the manual clock: turns of the event loop for the loopback I/O, and
 * the clock moved a second whenever something sleeps on it. Bounded: a cell that never ends fails.
 */
export async function drive<T>(work: Promise<T>, clock: ManualClock): Promise<T> {
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  settled.catch(() => undefined);
  for (let turn = 0; !done && turn < 200_000; turn++) {
    await nextTurn();
    if (!done && clock.pending > 0 && turn % 5 === 4) await clock.advance(1_000);
  }
  return settled;
}

/** What `running` ends in: its result, or the error it failed with. */
function outcomeOf(running: Promise<JobResult>): Promise<Outcome> {
  return running.then(
    (result) => ({ ok: true, result }),
    (e: unknown) => ({ ok: false, error: toAgentError(e) }),
  );
}

function execute(rig: MatrixRig, job: Job, clock: ManualClock, ectx = journal()): Promise<Outcome> {
  return drive(outcomeOf(rig.driver.execute(job, ectx)), clock);
}

/** A restarted driver reconciling `job` from `checkpoint`, not yet driven on the clock. */
function reconcileRestarted(rig: MatrixRig, job: Job, checkpoint: unknown): Promise<Reconciliation> {
  return rig.restart().reconcile({ ...job, checkpoint }, new AbortController().signal);
}

/** Turns of the event loop (no clock moved) until `done` holds; bounded. */
async function turnsUntil(done: () => boolean): Promise<void> {
  for (let turn = 0; !done() && turn < 10_000; turn++) await nextTurn();
}

const sending = (checkpoints: unknown[]) =>
  checkpoints.find((c) => (c as { phase?: string }).phase === 'sending');

const failed = (out: Outcome): AgentError => {
  if (out.ok) throw new Error(`expected a failure, got ${JSON.stringify(out.result.details)}`);
  return out.error;
};

export const CELLS: readonly Cell[] = [
  {
    name: 'lost answer after print',
    expect: 'done: the receipt reported printed (recovered), printed once',
    source: 'README "The guarantees" (a fiscal printer’s answer is lost); drivers/fiscal-it/rt/witnesses.ts',
    run: (rig, clock) => recoveredOnce(rig, clock, () => rig.loseNextAnswer()),
  },
  {
    name: 'kill before send',
    expect: 'not done: the checkpoint is on disk, nothing reached the printer, the restart runs it',
    source:
      'src/drivers-api/types.ts (checkpoint before every side effect); drivers/fiscal-it/rt/send.ts step 2',
    async run(rig, clock) {
      const checkpoints: unknown[] = [];
      const dying: ExecuteContext = {
        signal: new AbortController().signal,
        progress: () => undefined,
        // The process dies while the checkpoint syncs: the document is withheld (http.ts holdUntil).
        checkpoint: async (value) => {
          checkpoints.push(value);
          throw new Error('killed');
        },
      };
      await execute(rig, rig.sale('before'), clock, { ...dying, checkpoints } as ReturnType<typeof journal>);
      expect(rig.documents('sale')).toHaveLength(0);
      const job = rig.sale('before');
      expect((await drive(reconcileRestarted(rig, job, sending(checkpoints)), clock)).outcome).toBe(
        'not-done',
      );
    },
  },
  {
    name: 'kill after send',
    expect: 'done: the restart finds the printed receipt from its checkpoint, printed once',
    source: 'README "The guarantees" (the agent crashes or is killed); drivers/fiscal-it/rt/reconcile.ts',
    async run(rig, clock) {
      const ectx = journal();
      rig.loseNextAnswer();
      await execute(rig, rig.sale('after'), clock, ectx);
      const settled = await drive(
        reconcileRestarted(rig, rig.sale('after'), sending(ectx.checkpoints)),
        clock,
      );
      expect(settled.outcome).toBe('done');
      expect(rig.documents('sale')).toHaveLength(1);
    },
  },
  {
    name: 'kill while printing',
    expect: 'done: the restart’s read waits for the printer to finish (one request at a time), printed once',
    source:
      'Custom directIO manual rev 6.00 p.20 (single-threaded device); drivers/fiscal-it/rt/printer-line.ts',
    async run(rig, clock) {
      await rig.slowAnswers(30_000);
      const ectx = journal();
      const first = outcomeOf(rig.driver.execute(rig.sale('while'), ectx));
      await turnsUntil(() => rig.documents('sale').length > 0);
      expect(rig.documents('sale')).toHaveLength(1);
      const settled = reconcileRestarted(rig, rig.sale('while'), sending(ectx.checkpoints));
      const [reconciled] = await drive(Promise.all([settled, first]), clock);
      expect(reconciled.outcome).toBe('done');
      expect(rig.documents('sale')).toHaveLength(1);
    },
  },
  {
    name: 'reboot between',
    expect: 'done: the counters survive the restart (a request id does not), printed once',
    source:
      'issue 42 (after a power cut the printer no longer reports the last command id); witnesses.ts of each family',
    run: (rig, clock) => recoveredOnce(rig, clock, () => rig.afterNextDocument(() => rig.reboot())),
  },
  {
    name: 'unreadable witness',
    expect: 'unknown: Error "check the printer", never sent again (printed once)',
    source:
      'issue 42 item 2 (a witness that cannot be read is unknown); Custom: an unreadable 1017 after a power cut was read as "not printed" at c51eec2',
    async run(rig, clock) {
      rig.afterNextDocument(() => {
        rig.reboot();
        void rig.unreadableWitness();
      });
      const error = failed(await execute(rig, rig.sale('unreadable'), clock));
      expect(error.code).toBe('STATE_UNKNOWN');
      expect(rig.documents('sale')).toHaveLength(1);
    },
  },
  {
    name: 'own id last, document open',
    expect:
      'not printed: the agent resets its own open document, nothing printed; the next attempt prints once',
    source:
      'XML protocol rev 2.00 p.16 (the answer follows the end node) and p.31 (a refused node leaves the document open); issue 42',
    async run(rig, clock) {
      const shared = need(rig.shared);
      await shared.refuseEnd(16);
      const error = failed(await execute(rig, rig.sale('open'), clock));
      expect(error.code).not.toBe('STATE_UNKNOWN');
      expect(rig.documents('sale')).toHaveLength(0);
      await shared.refuseEnd(0);
      const again = await execute(rig, rig.sale('open2'), clock);
      expect(again.ok).toBe(true);
      expect(rig.documents('sale')).toHaveLength(1);
    },
  },
  {
    name: 'another till’s open document',
    expect: 'Error naming the other till after a bounded wait; their document never reset; nothing printed',
    source:
      'XML protocol rev 2.00 p.133 (status 21: wait for the end of the current operation); issue 42 item 2',
    async run(rig, clock) {
      const shared = need(rig.shared);
      shared.openForeign();
      const error = failed(await execute(rig, rig.sale('foreign'), clock));
      expect(error.code).toBe('DEVICE_BUSY');
      expect(error.details.otherTill).toBe(true);
      expect(shared.foreignResets()).toBe(0);
      expect(rig.documents('sale')).toHaveLength(0);
    },
  },
  {
    name: 'another till’s document ends in time',
    expect: 'done: the agent waits for the other till, then prints once; their document never reset',
    source: 'XML protocol rev 2.00 p.133; drivers/fiscal-it/rt/send.ts OTHER_TILL_WAIT_MS',
    run: (rig, clock) => printsOnceTheOtherTillIsDone(rig, clock, (shared) => shared.openForeign()),
  },
  {
    name: 'status 21 mid-send',
    expect:
      'done: the document refused with 21 is sent again once the other till is done; theirs never reset',
    source:
      'XML protocol rev 2.00 p.133 (21: a remote terminal is sending a document); issue 42 (21 used to reset)',
    run: (rig, clock) =>
      printsOnceTheOtherTillIsDone(rig, clock, (shared) => shared.foreignOpensBeforeNextDocument()),
  },
  {
    name: 'status 76 after print',
    expect: 'done: 76 is a receipt being consolidated, confirmed by the witnesses, with its number',
    source:
      'XML protocol rev 2.00 p.137 (76); fiskaltrust/middleware scu-it/src/fiskaltrust.Middleware.SCU.IT.CustomRTPrinter/CustomRTPrinterSCU.cs PdfBusyStatus',
    async run(rig, clock) {
      await need(need(rig.shared).consolidating)(true);
      const out = await execute(rig, rig.sale('s76'), clock);
      expect(out.ok && out.result.details?.receiptNumber).toMatch(/^\d{4}-\d{4}$/);
      expect(rig.documents('sale')).toHaveLength(1);
    },
  },
  {
    name: 'busy answer',
    expect: 'the family’s busy outcome (MatrixFamily.busy), nothing printed, never a blind resend',
    source: 'each family’s status classes (MatrixFamily.busy.source)',
    async run(rig, clock, family) {
      await rig.busy(true);
      const error = failed(await execute(rig, rig.sale('busy'), clock));
      expect(error.code).toBe(family.busy.expect);
      expect(rig.documents('sale')).toHaveLength(0);
    },
  },
  {
    name: 'void of several lines',
    expect: 'done: the void prints, repeating the original’s lines where the family needs them',
    source:
      'Custom XML protocol rev 2.00 p.16 ("at least one sales line"), fiskaltrust CustomRTPrinterSCU.cs and lyancoder/fiscal-printer send the voided items; Epson voids by reference',
    async run(rig, clock) {
      const sale = await execute(rig, rig.sale('to-void'), clock);
      expect(sale.ok).toBe(true);
      const original = rig.documents('sale')[0];
      if (!original) throw new Error('no sale printed');
      const out = await execute(rig, rig.voidOf('the-void', original), clock);
      expect(out.ok ? 'printed' : out.error.code).toBe('printed');
      expect(rig.documents('void')).toHaveLength(1);
    },
  },
  {
    name: 'staff void, answer lost',
    expect: 'done: the staff void is settled by the same witnesses, printed once, and the page shows it',
    source: 'drivers/fiscal-it/rt/staff-document.ts (a staff document’s checkpoint is the pending action)',
    async run(rig, clock) {
      const sale = await execute(rig, rig.sale('staff'), clock);
      expect(sale.ok).toBe(true);
      const original = rig.documents('sale')[0];
      if (!original) throw new Error('no sale printed');
      const action = rig.driver.actions?.().find((a) => a.name === 'void');
      if (!action) throw new Error('no void action');
      const params = action.params.parse(rig.staffVoidParams(original));
      rig.loseNextAnswer();
      const result = await drive(action.run(params, new AbortController().signal), clock);
      expect(result.details?.recovered).toBe(true);
      expect(rig.documents('void')).toHaveLength(1);
      expect(rig.driver.status().facts.lastAction).toBeDefined();
    },
  },
];

/** After `fault`, a sale is reported printed from the printer's memory, and printed once. */
async function recoveredOnce(rig: MatrixRig, clock: ManualClock, fault: () => void): Promise<void> {
  fault();
  const out = await execute(rig, rig.sale('recovered'), clock);
  expect(out.ok && out.result.details?.recovered).toBe(true);
  expect(rig.documents('sale')).toHaveLength(1);
}

/**
 * Another till's document (opened by `arrange`) holds the printer; once the agent waits for it
 * (it sleeps on the clock), the other till ends it: the receipt prints once, theirs is never reset.
 */
async function printsOnceTheOtherTillIsDone(
  rig: MatrixRig,
  clock: ManualClock,
  arrange: (shared: NonNullable<MatrixRig['shared']>) => void,
): Promise<void> {
  const shared = need(rig.shared);
  arrange(shared);
  const job = drive(rig.driver.execute(rig.sale('other-till'), journal()), clock);
  await turnsUntil(() => clock.pending > 0);
  shared.endForeign();
  await job;
  expect(shared.foreignResets()).toBe(0);
  expect(rig.documents('sale')).toHaveLength(1);
}

function need<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('this cell needs a family whose device holds documents open');
  return value;
}
