import { afterEach, describe, expect, it } from 'vitest';
import type { Driver, ExecuteContext } from '../../../src/drivers-api/types.js';
import { AgentError } from '../../../src/errors.js';
import { customRig, fiscalOf } from '../custom-rt/helpers.js';
import { orderItem, payment, printedOf, rig, saleJob } from '../epson-fpmate/helpers.js';

/**
 * Both RT drivers open the printer's connection while a receipt's checkpoint goes to disk, and
 * write the document only once it is there (`HttpRequest.holdUntil`, issue 26). What this must
 * keep: a checkpoint the journal cannot keep means nothing reached the printer, and the job ends in
 * that journal error, not in a printer failure.
 */

const items = [orderItem('i1', { unitGross: 45.5, units: 2, rate: 22, notes: 'Cena' })];
const payments = [payment('p1', 'CashPayment', 91)];

/** One RT family under test: its rig, how many sales it printed, and its exchanges so far. */
interface Family {
  name: string;
  start(): Promise<{ driver: Driver; printed(): number; exchanges(): number; close(): Promise<void> }>;
}

/** A family from its rig and how its simulator counts printed sales. */
function family<S extends { requests: readonly string[] }>(
  name: string,
  open: () => Promise<{ driver: Driver; sim: S; close(): Promise<void> }>,
  sales: (sim: S) => number,
): Family {
  return {
    name,
    async start() {
      const r = await open();
      return {
        driver: r.driver,
        printed: () => sales(r.sim),
        exchanges: () => r.sim.requests.length,
        close: () => r.close(),
      };
    },
  };
}

const families: Family[] = [
  family(
    'Epson',
    () => rig({ items, payments }),
    (sim) => printedOf(sim, 'sale').length,
  ),
  family(
    'Custom',
    () => customRig({ items, payments }),
    (sim) => fiscalOf(sim, 'sale').length,
  ),
];

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** An execute context whose first checkpoint waits for the test, then keeps or refuses it. */
function gatedContext() {
  let asked: () => void = () => undefined;
  const checkpointAsked = new Promise<void>((resolve) => (asked = resolve));
  let settle: (error?: Error) => void = () => undefined;
  let first = true;
  const ectx: ExecuteContext = {
    signal: new AbortController().signal,
    progress: () => undefined,
    checkpoint: () => {
      if (!first) return Promise.resolve();
      first = false;
      asked();
      return new Promise<void>((resolve, reject) => {
        settle = (error) => (error ? reject(error) : resolve());
      });
    },
  };
  return { ectx, checkpointAsked, settle: (error?: Error) => settle(error) };
}

const journalFull = () => new AgentError('JOURNAL_ERROR', 'Journal could not be synced to disk');

describe.each(families)(
  '$name RT driver: the document leaves only once its checkpoint is on disk',
  (family) => {
    it('prints nothing while the checkpoint waits, and once when it is kept', async () => {
      const printer = await family.start();
      close = printer.close;
      const gate = gatedContext();
      const job = printer.driver.execute(saleJob('held'), gate.ectx);
      await gate.checkpointAsked;
      expect(printer.printed()).toBe(0);
      gate.settle();
      await job;
      expect(printer.printed()).toBe(1);
    });

    it('ends the job in the journal error when the checkpoint is refused, with nothing sent after it', async () => {
      const printer = await family.start();
      close = printer.close;
      const gate = gatedContext();
      const job = printer.driver.execute(saleJob('refused'), gate.ectx);
      await gate.checkpointAsked;
      const exchangesBeforeCheckpoint = printer.exchanges();
      gate.settle(journalFull());
      await expect(job).rejects.toMatchObject({ code: 'JOURNAL_ERROR' });
      expect(printer.exchanges()).toBe(exchangesBeforeCheckpoint);
      expect(printer.printed()).toBe(0);
    });
  },
);
