import { afterEach, describe, expect, it } from 'vitest';
import { epsonResults } from '../../../drivers/epson-fpmate/messages-results.js';
import type { Job } from '../../../src/drivers-api/types.js';
import { isAgentError } from '../../../src/errors.js';
import { textMessage } from '../../../src/messages/message.js';
import { english, messageRenderer } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { afterReceipt, orderItem, payment, printedOf, type Rig, rig, saleJob } from './helpers.js';

const items = [orderItem('i1', { unitGross: 45.5, units: 2, rate: 22, notes: 'Cena' })];
const payments = [payment('p1', 'CashPayment', 91)];

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

const receiptsSent = (rig: Rig) => rig.sim.requests.filter((q) => q === 'printerFiscalReceipt').length;
const never = new AbortController().signal;

function withCheckpoint(job: Job, checkpoint: unknown): Job {
  return { ...job, attempt: job.attempt, checkpoint };
}

describe('epson-fpmate reconcile(): the fate of a receipt whose answer was lost', () => {
  it('crash between send and answer: a new driver on the same store finds the receipt, printed once', async () => {
    r = await rig({ items, payments });
    await r.sim.setFault('dropAfterPrint', true);
    const ectx = recordingExecuteContext();
    await r.driver.execute(saleJob(), ectx);
    // The agent died right after the POST: the journal holds the checkpoint stored before sending.
    const sending = ectx.checkpoints.find((c) => (c as { phase: string }).phase === 'sending');
    expect(sending).toMatchObject({
      phase: 'sending',
      baseline: { z: 1, doc: 0, fresh: true },
      expectedCents: 9100,
    });
    await r.sim.setFault('dropAfterPrint', false);
    const restarted = r.restart();
    const outcome = await restarted.reconcile(withCheckpoint(saleJob(), sending), never);
    expect(outcome).toMatchObject({
      outcome: 'done',
      result: { details: { receiptNumber: '0001-0001', recovered: true } },
    });
    if (outcome.outcome !== 'done') throw new Error('expected done');
    expect(english(outcome.result.notes)).toMatch(
      /^Receipt 0001-0001 on RT 99MEY123456, \d{4}-\d\d-\d\d \d\d:\d\d, total 91\.00 EUR\. /,
    );
    expect(printedOf(r.sim, 'sale')).toHaveLength(1);
    expect(receiptsSent(r)).toBe(1);
  });

  it('printer gone right after printing, no wait configured: execute says STATE_UNKNOWN; after restart reconcile says done', async () => {
    r = await rig({ items, payments, driver: { settleUnansweredForMinutes: 0 } });
    const sim = r.sim;
    afterReceipt(sim, 1, () => sim.setFault('refused', true));
    await r.sim.setFault('dropAfterPrint', true);
    const ectx = recordingExecuteContext();
    const error = await r.driver.execute(saleJob(), ectx).catch((e: unknown) => e);
    expect(isAgentError(error) && error.code).toBe('STATE_UNKNOWN');
    await r.sim.setFault('dropAfterPrint', false);
    await r.sim.setFault('refused', false);
    const outcome = await r.restart().reconcile(withCheckpoint(saleJob(), ectx.checkpoints.at(-1)), never);
    expect(outcome.outcome).toBe('done');
    expect(printedOf(r.sim, 'sale')).toHaveLength(1);
  });

  it('printer unreachable during reconcile, no wait configured: DEVICE_UNAVAILABLE (asked again later), then done once it answers', async () => {
    r = await rig({ items, payments, driver: { settleUnansweredForMinutes: 0 } });
    await r.sim.setFault('dropAfterPrint', true);
    const ectx = recordingExecuteContext();
    await r.driver.execute(saleJob(), ectx);
    const sending = ectx.checkpoints[0];
    await r.sim.setFault('refused', true);
    const restarted = r.restart();
    // Away is not "cannot tell": the engine retries a reconcile that could not ask the device.
    const error = await restarted
      .reconcile(withCheckpoint(saleJob(), sending), never)
      .catch((e: unknown) => e);
    expect(isAgentError(error) && [error.code, error.retryable]).toEqual(['DEVICE_UNAVAILABLE', true]);
    await r.sim.setFault('refused', false);
    const outcome = await restarted.reconcile(withCheckpoint(saleJob(), sending), never);
    expect(outcome.outcome).toBe('done');
    expect(receiptsSent(r)).toBe(1);
    expect(printedOf(r.sim, 'sale')).toHaveLength(1);
  });

  it('printer answers but its last document cannot be read: unknown with a note for staff, nothing resent', async () => {
    r = await rig({ items, payments });
    await r.sim.setFault('dropAfterPrint', true);
    const ectx = recordingExecuteContext();
    await r.driver.execute(saleJob(), ectx);
    const sending = ectx.checkpoints[0];
    await r.sim.setFault('lastDocUnreadable', true);
    const outcome = await r.restart().reconcile(withCheckpoint(saleJob(), sending), never);
    if (outcome.outcome !== 'unknown') throw new Error(`expected unknown, got ${outcome.outcome}`);
    expect(english(outcome.reason)).toBe(
      'The agent stopped while a receipt was being sent and the printer’s last document cannot be read. Check the printer’s last receipt: if it is there, do nothing; if not, issue it again.',
    );
    expect(messageRenderer('it').render(outcome.reason)).toBe(
      'L’agente si è fermato mentre inviava uno scontrino e l’ultimo documento della stampante non si può leggere. Controllare l’ultimo scontrino della stampante: se c’è, non fare nulla; altrimenti emetterlo di nuovo.',
    );
    expect(receiptsSent(r)).toBe(1);
    expect(printedOf(r.sim, 'sale')).toHaveLength(1);
  });

  it('counters unchanged since the checkpoint: not-done (the core may run it again)', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('earlier'), recordingExecuteContext());
    const checkpoint = {
      v: 1,
      phase: 'sending',
      kind: 'receipt',
      label: 'sale',
      baseline: { z: 1, doc: 1, fresh: true },
      expectedCents: 9100,
      resent: false,
    };
    expect(await r.restart().reconcile(withCheckpoint(saleJob(), checkpoint), never)).toEqual({
      outcome: 'not-done',
    });
    expect(receiptsSent(r)).toBe(1);
  });

  it('another document with a different total since the baseline: unknown, never claimed as ours', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('someone-else'), recordingExecuteContext());
    const checkpoint = {
      v: 1,
      phase: 'sending',
      kind: 'receipt',
      label: 'sale',
      baseline: { z: 1, doc: 0, fresh: true },
      expectedCents: 5000,
      resent: false,
    };
    const outcome = await r.restart().reconcile(withCheckpoint(saleJob(), checkpoint), never);
    expect(outcome.outcome).toBe('unknown');
  });

  it('a finished checkpoint answers without the printer; no checkpoint means nothing was sent', async () => {
    r = await rig({ items, payments });
    await r.sim.setFault('refused', true);
    const result = {
      notes: epsonResults.receipt({ kind: 'sale', label: '0001-0007', serial: '99MEY123456' }),
      details: { receiptNumber: '0001-0007' },
    };
    expect(
      await r.driver.reconcile(withCheckpoint(saleJob(), { v: 1, phase: 'done', result }), never),
    ).toEqual({ outcome: 'done', result });
    // An older build stored the Notes as a sentence: they come back as that text.
    const older = {
      ...result,
      notes: 'Receipt 0001-0007 on RT 99MEY123456, 2026-11-21 14:05, total 91.00 EUR',
    };
    expect(
      await r.driver.reconcile(withCheckpoint(saleJob(), { v: 1, phase: 'done', result: older }), never),
    ).toEqual({ outcome: 'done', result: { ...older, notes: textMessage(older.notes) } });
    expect(await r.driver.reconcile(saleJob(), never)).toEqual({ outcome: 'not-done' });
    await r.sim.setFault('refused', false);
  });

  it.each([
    ['a corrupt object', { v: 1, phase: 'sending', kind: 'receipt', baseline: 'garbled' }],
    [
      'another version of the checkpoint',
      { v: 2, phase: 'sending', kind: 'receipt', label: 'sale', resent: false },
    ],
    ['a string', 'sending'],
    ['null', null],
  ])(
    'a checkpoint that exists but cannot be read (%s) is unknown, never not-done',
    async (_name, checkpoint) => {
      r = await rig({ items, payments });
      const outcome = await r.driver.reconcile(withCheckpoint(saleJob(), checkpoint), never);
      if (outcome.outcome !== 'unknown') throw new Error(`expected unknown, got ${outcome.outcome}`);
      expect(english(outcome.reason)).toBe(
        'The agent stopped while a fiscal document was being sent and cannot read what it had recorded about it. Check the printer’s last receipt: if it is there, do nothing; if not, issue it again.',
      );
      expect(r.sim.requests).toEqual([]);
    },
  );

  it('a lost non-fiscal payload is unknown: only receipts can be checked against the counters', async () => {
    r = await rig();
    const checkpoint = {
      v: 1,
      phase: 'sending',
      kind: 'non-fiscal',
      label: 'printerNonFiscal',
      baseline: null,
      resent: false,
    };
    const outcome = await r.driver.reconcile(withCheckpoint(saleJob(), checkpoint), never);
    expect(outcome.outcome).toBe('unknown');
    expect(r.sim.requests).toEqual([]);
  });
});
