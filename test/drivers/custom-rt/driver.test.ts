import { afterEach, describe, expect, it } from 'vitest';
import { english } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import {
  type CustomRig,
  customRig,
  fiscalOf,
  loseNextDocumentAnswer,
  orderItem,
  payloadJob,
  payment,
  refundJob,
  SERIAL,
  saleJob,
} from './helpers.js';

/**
 * The Custom driver against the Custom simulator (written from Custom's manuals, never from this
 * driver): sales, refunds and voids from the bill, payloads, and the exactly-once rules.
 */

const items = [
  orderItem('i1', { unitGross: 50, units: 2, rate: 22 }),
  orderItem('i2', { unitGross: 23.45, rate: 10 }),
];
const payments = [payment('p1', 'CreditCardPayment', 123.45)];

let r: CustomRig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

describe('custom-rt driver', () => {
  it('prints a sale from the bill with its IdCmds, the checkpoint on disk before the request', async () => {
    r = await customRig({ items, payments });
    await r.driver.open(new AbortController().signal);
    const ectx = recordingExecuteContext();
    const result = await r.driver.execute(saleJob('sale1'), ectx);
    const [sale] = fiscalOf(r.sim, 'sale');
    expect(sale?.totalCents).toBe(12345);
    expect(sale?.lines.map((l) => [l.quantityMilli, l.unitPriceCents, l.idVat])).toEqual([
      [2000, 5000, 1],
      [1000, 2345, 2],
    ]);
    expect(sale?.payments).toEqual([expect.objectContaining({ paymentType: 3, amountCents: 12345 })]);
    expect(r.sim.idCmds).toEqual(['Csale11B', 'Csale11E']);
    expect(ectx.checkpoints[0]).toMatchObject({
      phase: 'sending',
      ids: { begin: 'Csale11B', end: 'Csale11E' },
    });
    expect(result.details).toMatchObject({ receiptNumber: `0001-0001`, printerSerial: SERIAL });
    expect(english(result.notes)).toBe(`Receipt 0001-0001 printed on RT ${SERIAL}.`);
  });

  it('after a lost answer asks the printer and reports the receipt printed, never sending it again', async () => {
    r = await customRig({ items, payments });
    loseNextDocumentAnswer(r.sim);
    const result = await r.driver.execute(saleJob('lost1'), recordingExecuteContext());
    expect(fiscalOf(r.sim, 'sale')).toHaveLength(1);
    expect(result.details).toMatchObject({ receiptNumber: '0001-0001', recovered: true });
  });

  it('after a restart, reconcile decides done from lastIdCmd and the counters', async () => {
    r = await customRig({ items, payments });
    const ectx = recordingExecuteContext();
    loseNextDocumentAnswer(r.sim);
    await r.driver.execute(saleJob('kill1'), ectx);
    // The agent died with only the checkpoint taken before the request: a new one reconciles.
    const sending = ectx.checkpoints.find((c) => (c as { phase: string }).phase === 'sending');
    const job = { ...saleJob('kill1'), checkpoint: sending };
    const outcome = await r.restart().reconcile(job, new AbortController().signal);
    expect(outcome.outcome).toBe('done');
    expect(fiscalOf(r.sim, 'sale')).toHaveLength(1);
  });

  it('a checkpoint whose document never reached the printer is not done', async () => {
    r = await customRig({ items, payments });
    await r.driver.execute(saleJob('before'), recordingExecuteContext());
    const ectx = recordingExecuteContext();
    await r.sim.setFault('refused', true);
    await r.driver.execute(saleJob('never'), ectx).catch(() => undefined);
    await r.sim.setFault('refused', false);
    // The request was refused at connect: no checkpoint needed, but one taken before sending says not done.
    const base = {
      v: 1,
      phase: 'sending',
      label: 'sale',
      ids: { begin: 'Cnever1B', end: 'Cnever1E' },
      sentAt: 0,
    };
    const checkpoint = {
      ...base,
      baseline: { zDone: 0, doc: 1, dateTime: fiscalOf(r.sim, 'sale')[0]?.dateTime.slice(0, 16) },
    };
    const outcome = await r
      .restart()
      .reconcile({ ...saleJob('never'), checkpoint }, new AbortController().signal);
    expect(outcome.outcome).toBe('not-done');
  });

  it('refunds with a checkOnly check first, naming Z, number, date and serial', async () => {
    r = await customRig({ items, payments });
    await r.driver.execute(saleJob('s'), recordingExecuteContext());
    const sale = fiscalOf(r.sim, 'sale')[0];
    const date = sale?.dateTime.slice(0, 10) ?? '';
    const result = await r.driver.execute(
      refundJob(
        { receiptNumber: '0001', sequence: '0001', dateTimeUtc: `${date}T10:00:00Z` },
        SERIAL,
        'ref1',
      ),
      recordingExecuteContext(),
    );
    expect(fiscalOf(r.sim, 'refund')).toHaveLength(1);
    expect(fiscalOf(r.sim, 'refund')[0]?.reference).toMatchObject({ z: 1, doc: 1, serial: SERIAL });
    expect(english(result.notes)).toMatch(/^Refund 0001-0002 printed/);
  });

  it('refuses a refund of a receipt the printer does not know, before printing anything', async () => {
    r = await customRig({ items, payments });
    const refund = refundJob(
      { receiptNumber: '0009', sequence: '0003', dateTimeUtc: '2026-11-20T10:00:00Z' },
      SERIAL,
      'ref2',
    );
    await expect(r.driver.execute(refund, recordingExecuteContext())).rejects.toMatchObject({
      code: 'FISCAL_REJECTED',
    });
    expect(fiscalOf(r.sim, 'refund')).toHaveLength(0);
  });

  it('refuses an Epson payload before sending anything, saying the printer needs the bill data', async () => {
    r = await customRig({ items, payments });
    const epson =
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><printerFiscalReceipt><beginFiscalReceipt operator="1"/><endFiscalReceipt operator="1"/></printerFiscalReceipt></s:Body></s:Envelope>';
    const error = await r.driver.execute(payloadJob(epson), recordingExecuteContext()).catch((e) => e);
    expect(error.code).toBe('COMMAND_INVALID');
    expect(english(error.notes)).toMatch(/needs the bill data/);
    expect(r.sim.requests).toHaveLength(0);
  });

  it('prints a Custom payload with its own IdCmds', async () => {
    r = await customRig();
    const doc =
      '<printerFiscalReceipt><beginFiscalReceipt/><printRecItem description="CAFFE" unitPrice="120" quantity="1000" idVat="1" department="1"/><printRecTotal description="CONTANTI" payment="120" paymentType="1"/><endFiscalReceipt/></printerFiscalReceipt>';
    await r.driver.execute(payloadJob(doc, 'pay1'), recordingExecuteContext());
    expect(fiscalOf(r.sim, 'sale')).toHaveLength(1);
    expect(r.sim.idCmds).toEqual(['Cpay11B', 'Cpay11E']);
  });

  it('paper out refuses, leaving nothing printed, in the printer’s words', async () => {
    r = await customRig({ items, payments });
    await r.sim.setFault('paperOut', true);
    const error = await r.driver.execute(saleJob('p'), recordingExecuteContext()).catch((e) => e);
    expect(error.code).toBe('PAPER_OUT');
    expect(fiscalOf(r.sim, 'sale')).toHaveLength(0);
  });

  it('shows paper, cover and the daily files waiting under the Epson family’s fact names', async () => {
    r = await customRig({ items, payments });
    await r.sim.setFault('filesToSend', { count: 2 });
    await r.sim.setFault('paperLow', true);
    await r.driver.open(new AbortController().signal);
    const status = r.driver.status();
    expect(status.connected).toBe(true);
    expect(status.facts).toMatchObject({ filesToSend: 2, printerStatus: '00100' });
    expect(english(status.facts.paper as never)).toBe('low');
    expect(english(status.facts.cover as never)).toBe('closed');
    expect(status.warnings.map((w) => english(w))).toContain('Paper is running low: have a new roll ready.');
  });
});
