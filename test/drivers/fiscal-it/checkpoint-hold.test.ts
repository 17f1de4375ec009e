import { afterEach, describe, expect, it } from 'vitest';
import type { ExecuteContext } from '../../../src/drivers-api/types.js';
import { AgentError } from '../../../src/errors.js';
import { type CustomRig, customRig, fiscalOf } from '../custom-rt/helpers.js';
import { orderItem, payment, printedOf, type Rig, rig, saleJob } from '../epson-fpmate/helpers.js';

/**
 * Both RT drivers open the printer's connection while a receipt's checkpoint goes to disk, and
 * write the document only once it is there (`HttpRequest.holdUntil`, issue 26). What this must
 * keep: a checkpoint the journal cannot keep means nothing reached the printer, and the job ends in
 * that journal error, not in a printer failure.
 */

const items = [orderItem('i1', { unitGross: 45.5, units: 2, rate: 22, notes: 'Cena' })];
const payments = [payment('p1', 'CashPayment', 91)];

let epson: Rig | undefined;
let custom: CustomRig | undefined;
afterEach(async () => {
  await epson?.close();
  await custom?.close();
  epson = undefined;
  custom = undefined;
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

describe('RT drivers: the document leaves only once its checkpoint is on disk', () => {
  it('Epson: nothing printed while the checkpoint waits; printed once when it is kept', async () => {
    epson = await rig({ items, payments });
    const gate = gatedContext();
    const job = epson.driver.execute(saleJob('held'), gate.ectx);
    await gate.checkpointAsked;
    expect(epson.sim.requests).not.toContain('printerFiscalReceipt');
    gate.settle();
    await job;
    expect(printedOf(epson.sim, 'sale')).toHaveLength(1);
  });

  it('Epson: a checkpoint the journal refuses ends the job in that error, with nothing sent', async () => {
    epson = await rig({ items, payments });
    const gate = gatedContext();
    const job = epson.driver.execute(saleJob('refused'), gate.ectx);
    await gate.checkpointAsked;
    gate.settle(journalFull());
    await expect(job).rejects.toMatchObject({ code: 'JOURNAL_ERROR' });
    expect(epson.sim.requests).not.toContain('printerFiscalReceipt');
    expect(printedOf(epson.sim, 'sale')).toHaveLength(0);
  });

  it('Custom: nothing printed while the checkpoint waits; printed once when it is kept', async () => {
    custom = await customRig({ items, payments });
    const gate = gatedContext();
    const job = custom.driver.execute(saleJob('held'), gate.ectx);
    await gate.checkpointAsked;
    expect(fiscalOf(custom.sim, 'sale')).toHaveLength(0);
    gate.settle();
    await job;
    expect(fiscalOf(custom.sim, 'sale')).toHaveLength(1);
  });

  it('Custom: a checkpoint the journal refuses ends the job in that error, with nothing sent', async () => {
    custom = await customRig({ items, payments });
    const gate = gatedContext();
    const sentBefore = custom.sim.requests.length;
    const job = custom.driver.execute(saleJob('refused'), gate.ectx);
    await gate.checkpointAsked;
    const readsBeforeCheckpoint = custom.sim.requests.length - sentBefore;
    gate.settle(journalFull());
    await expect(job).rejects.toMatchObject({ code: 'JOURNAL_ERROR' });
    expect(custom.sim.requests.length - sentBefore).toBe(readsBeforeCheckpoint);
    expect(fiscalOf(custom.sim, 'sale')).toHaveLength(0);
  });
});
