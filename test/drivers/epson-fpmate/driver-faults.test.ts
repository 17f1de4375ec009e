import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import type { AgentError } from '../../../src/errors.js';
import { english } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { rejection } from '../../helpers/rejection.js';
import {
  afterReceipt,
  inWords,
  orderItem,
  payment,
  pressZKey,
  printedOf,
  type Rig,
  type RigOptions,
  rig,
  saleJob,
} from './helpers.js';

const items = [orderItem('i1', { unitGross: 80, rate: 10, notes: 'Camera' })];
const payments = [payment('p1', 'CreditCardPayment', 80)];

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

async function start(extra: RigOptions = {}): Promise<Rig> {
  r = await rig({ items, payments, ...extra });
  return r;
}

/** How a sale on `rig` fails. */
const failure = (rig: Rig, commandId = 'cmd'): Promise<AgentError> =>
  rejection(rig.driver.execute(saleJob(commandId), recordingExecuteContext()));

const receiptsSent = (rig: Rig) => rig.sim.requests.filter((q) => q === 'printerFiscalReceipt').length;

describe('epson-fpmate driver: every printer fault ends in one clear outcome, never two prints', () => {
  it('paper out: PAPER_OUT, nothing printed, the printer reset; prints once the roll is back', async () => {
    const t = await start();
    await t.sim.setFault('paperOut', true);
    const error = await failure(t);
    expect(error.code).toBe('PAPER_OUT');
    expect(english(error.notes)).toBe(
      'Printer out of paper or its cover is open — replace the roll and close the cover; the receipt was not printed. Then try again.',
    );
    expect(t.sim.printed).toHaveLength(0);
    expect(t.sim.requests.at(-1)).toBe('printerCommand');
    expect(inWords(t.driver.status()).warnings).toContain(
      'The last receipt failed: paper out or cover open.',
    );
    expect(inWords(t.driver.status()).facts.paperOut).toBe(true);
    await t.sim.setFault('paperOut', false);
    await t.driver.execute(saleJob(), recordingExecuteContext());
    expect(printedOf(t.sim, 'sale')).toHaveLength(1);
    expect(inWords(t.driver.status()).facts.paperOut).toBe(false);
  });

  it('cover open: COVER_OPEN, nothing printed', async () => {
    const t = await start();
    await t.sim.setFault('coverOpen', true);
    const error = await failure(t);
    expect(error.code).toBe('COVER_OPEN');
    expect(english(error.notes)).toContain('its cover is open');
    expect(t.sim.printed).toHaveLength(0);
    // The printer's status cannot tell an open cover from paper out: no paperOut claim.
    expect(inWords(t.driver.status()).facts.paperOut).not.toBe(true);
  });

  it('LAN_TIME_OUT while the printer stays busy: its counters cannot be read, STATE_UNKNOWN, never resent blindly', async () => {
    const t = await start();
    await t.driver.execute(saleJob('first'), recordingExecuteContext());
    const readsBefore = t.sim.directIo.length;
    await t.sim.setFault('busy', true);
    const error = await failure(t);
    expect(error.code).toBe('STATE_UNKNOWN');
    expect(error.message).toContain('printer answered LAN_TIME_OUT');
    expect(receiptsSent(t)).toBe(2);
    // One read of the counters, then busyRetries more while the printer answers LAN_TIME_OUT.
    expect(t.sim.directIo.slice(readsBefore)).toEqual(Array(1 + t.options.busyRetries).fill('1387'));
    expect(printedOf(t.sim, 'sale')).toHaveLength(1);
  });

  it('LAN_TIME_OUT once: the counters prove nothing was printed, so it is sent again and printed once', async () => {
    const t = await start();
    await t.driver.execute(saleJob('first'), recordingExecuteContext());
    await t.sim.setFault('busy', true);
    afterReceipt(t.sim, 1, () => t.sim.setFault('busy', false));
    const result = await t.driver.execute(saleJob(), recordingExecuteContext());
    expect(english(result.notes)).toMatch(/^Receipt 0001-0002 /);
    expect(printedOf(t.sim, 'sale')).toHaveLength(2);
    expect(receiptsSent(t)).toBe(3);
  });

  it('LAN_TIME_OUT after the printer printed: the counters show it, reported printed, never sent twice (the README used to say "busy: resend")', async () => {
    const t = await start();
    await t.sim.setFault('timeOutAfterPrint', true);
    const result = await t.driver.execute(saleJob(), recordingExecuteContext());
    expect(result.details).toMatchObject({
      recovered: true,
      receiptNumber: '0001-0001',
      total: { money: 80, currency: 'EUR' },
    });
    expect(printedOf(t.sim, 'sale')).toHaveLength(1);
    expect(receiptsSent(t)).toBe(1);
  });

  it('LAN_TIME_OUT every time with counters that prove nothing printed: DEVICE_BUSY after busyRetries resends, nothing printed', async () => {
    const t = await start({ driver: { busyRetries: 1 } });
    await t.driver.execute(saleJob('first'), recordingExecuteContext());
    // From now on the printer times out on every receipt and answers everything else.
    t.sim.onHandled((request) => {
      void t.sim.setFault('busy', request.root !== 'printerFiscalReceipt');
    });
    await t.sim.setFault('busy', true);
    const error = await failure(t);
    expect(error.code).toBe('DEVICE_BUSY');
    expect(error.details.nothingSent).toBe(true);
    expect(receiptsSent(t)).toBe(3);
    expect(printedOf(t.sim, 'sale')).toHaveLength(1);
  });

  it('slow answer past the client timeout: the printer’s memory confirms the receipt, no resend', async () => {
    const t = await start();
    await t.sim.setFault('slow', { ms: 1500 });
    const result = await t.driver.execute(saleJob(), recordingExecuteContext());
    expect(english(result.notes)).toMatch(
      /^Receipt 0001-0001 on RT 99MEY123456, .*total 80\.00 EUR\. Confirmed from the printer’s memory after its answer was lost$/,
    );
    expect(result.details).toMatchObject({ recovered: true, receiptNumber: '0001-0001' });
    expect(printedOf(t.sim, 'sale')).toHaveLength(1);
    expect(receiptsSent(t)).toBe(1);
  });

  it('response dropped after printing: reported printed from the printer’s memory, printed once', async () => {
    const t = await start();
    await t.sim.setFault('dropAfterPrint', true);
    const result = await t.driver.execute(saleJob(), recordingExecuteContext());
    expect(result.details).toMatchObject({
      recovered: true,
      receiptNumber: '0001-0001',
      total: { money: 80, currency: 'EUR' },
    });
    expect(printedOf(t.sim, 'sale')).toHaveLength(1);
    expect(receiptsSent(t)).toBe(1);
  });

  it('connection dropped before printing: counters prove it, the receipt is sent once more and printed once', async () => {
    const t = await start();
    await t.sim.setFault('dropBeforePrint', true);
    afterReceipt(t.sim, 1, () => t.sim.setFault('dropBeforePrint', false));
    const ectx = recordingExecuteContext();
    const result = await t.driver.execute(saleJob(), ectx);
    expect(result.details).toMatchObject({ recovered: false, receiptNumber: '0001-0001' });
    expect(printedOf(t.sim, 'sale')).toHaveLength(1);
    expect(receiptsSent(t)).toBe(2);
    expect(ectx.checkpoints.filter((c) => (c as { phase: string }).phase === 'sending')).toMatchObject([
      { resent: false },
      { resent: true },
    ]);
  });

  it('connection dropped before printing, twice: DEVICE_UNAVAILABLE after one resend, nothing printed', async () => {
    const t = await start();
    await t.sim.setFault('dropBeforePrint', true);
    const error = await failure(t);
    expect(error.code).toBe('DEVICE_UNAVAILABLE');
    expect(english(error.notes)).toContain('did not print the receipt');
    expect(receiptsSent(t)).toBe(2);
    expect(t.sim.printed).toHaveLength(0);
  });

  it('answer lost and the last document unreadable: STATE_UNKNOWN, never resent', async () => {
    const t = await start();
    await t.sim.setFault('dropAfterPrint', true);
    await t.sim.setFault('lastDocUnreadable', true);
    const error = await failure(t);
    expect(error.code).toBe('STATE_UNKNOWN');
    expect(english(error.notes)).toBe(
      'The printer did not confirm the receipt and the agent cannot tell whether it was printed. Check the printer’s last receipt: if it is there, do nothing; if not, issue the receipt again.',
    );
    expect(receiptsSent(t)).toBe(1);
    expect(printedOf(t.sim, 'sale')).toHaveLength(1);
  });

  it('connection refused: DEVICE_UNAVAILABLE, nothing printed, status unreachable', async () => {
    const t = await start();
    await t.driver.open(new AbortController().signal);
    await t.sim.setFault('refused', true);
    const error = await failure(t);
    expect(error.code).toBe('DEVICE_UNAVAILABLE');
    expect(english(error.notes)).toMatch(
      /^The fiscal printer cannot be reached \(ECONNREFUSED\); the receipt was not printed\./,
    );
    await t.driver.close();
    expect(inWords(t.driver.status())).toMatchObject({
      connected: false,
      summary: expect.stringMatching(/^unreachable/),
    });
    await t.sim.setFault('refused', false);
    expect(t.sim.printed).toHaveLength(0);
  });

  it('journal near full and paper low: printed, with the warnings in Notes and on the status page', async () => {
    const t = await start();
    await t.sim.setFault('journalNearFull', true);
    await t.sim.setFault('paperLow', true);
    const result = await t.driver.execute(saleJob(), recordingExecuteContext());
    expect(english(result.notes)).toMatch(/\. Printer: paper running low; electronic journal nearly full$/);
    await t.driver.open(new AbortController().signal);
    expect(inWords(t.driver.status()).warnings).toEqual([
      'Paper is running low: have a new roll ready.',
      'The electronic journal is nearly full: call the printer’s technician.',
    ]);
  });

  // With dailyClosure.onDayTooLong: refuse; the default closes the day first (closure tests).
  const refusing = { dailyClosure: { enabled: false, onDayTooLong: 'refuse' } };

  it('fiscal day open over 24 h: refused until the Z report, then numbering restarts under the next Z', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0));
    const t = await start({ sim: { clock }, driver: refusing });
    await t.driver.execute(saleJob('a'), recordingExecuteContext());
    await clock.advance(25 * 3600 * 1000);
    const error = await failure(t, 'b');
    expect(error.code).toBe('DEVICE_ERROR');
    expect(english(error.notes)).toBe(
      'The printer refuses receipts until the daily closure (Z report) is run: it says it is waiting for the closure; the receipt was not printed. Run the Z report (Print Z report, or on the printer), then issue the receipt again.',
    );
    expect(error.details).toMatchObject({ printerStatusCode: '17', closureDue: true });
    expect(inWords(t.driver.status()).warnings).toContain(
      'The printer refuses receipts until the daily closure (Z report) is run: use Print Z report, or run it on the printer.',
    );
    await pressZKey(t.sim);
    const after = await t.driver.execute(saleJob('c'), recordingExecuteContext());
    expect(english(after.notes)).toMatch(/^Receipt 0002-0001 /);
    expect(printedOf(t.sim, 'sale')).toHaveLength(2);
  });

  it('the switch dayOpenOver24h refuses receipts the same way', async () => {
    const t = await start({ driver: refusing });
    await t.sim.setFault('dayOpenOver24h', true);
    expect((await failure(t)).details).toMatchObject({
      printerCode: 'PRINTER ERROR',
      printerStatusCode: '17',
    });
    expect(t.sim.printed).toHaveLength(0);
  });
});
