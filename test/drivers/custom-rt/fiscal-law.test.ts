import { afterEach, describe, expect, it } from 'vitest';
import type { CustomPrintedDocument, CustomRtSimulator } from '../../../drivers/custom-rt/simulator/index.js';
import type { Driver, JobResult } from '../../../src/drivers-api/types.js';
import { type AgentError, isAgentError } from '../../../src/errors.js';
import { english } from '../../../src/messages/render.js';
import {
  billCents,
  item,
  pay,
  publish,
  type WireCommandOptions,
  wireCommand,
} from '../../fiscal-law/helpers.js';
import { type Recorder, recordedRig } from '../../fiscal-law/law-bench.js';
import { jobFor, recordingExecuteContext } from '../../helpers/driver-context.js';
import { customRig } from './helpers.js';

/**
 * The fiscal law suite's cases (`test/fiscal-law/`, with their sources there: [c540] L. 232/2016
 * art. 1 c. 540, [AdE] one code of the two, [PD21] principio di diritto 21/2019, [DPR6] deposits
 * at their own rate) rendered for Custom: the same bills through the Custom driver to the Custom
 * simulator, read from what the printer booked and the XML the driver sent.
 */

interface Bench extends Recorder {
  sim: CustomRtSimulator;
  driver: Driver;
  close(): Promise<void>;
}

let open: Bench[] = [];
afterEach(async () => {
  for (const b of open) await b.close();
  open = [];
});

/** A Custom rig whose driver reads the recorder's bill and posts through it (`sent`). */
async function bench(options: Record<string, unknown> = {}): Promise<Bench> {
  const { rec, rig } = await recordedRig(customRig, options);
  const b = { ...rec, sim: rig.sim, driver: rig.driver, close: rig.close };
  open.push(b);
  return b;
}

async function run(
  b: Bench,
  o: WireCommandOptions = {},
): Promise<{ result?: JobResult; error?: AgentError; doc?: CustomPrintedDocument; xml?: string }> {
  const printed = b.sim.printed.length;
  const sent = b.sent.length;
  const out: { result?: JobResult; error?: AgentError; doc?: CustomPrintedDocument; xml?: string } = {};
  try {
    out.result = await b.driver.execute(
      jobFor(wireCommand(o), { commandId: `law${printed}${sent}` }),
      recordingExecuteContext(),
    );
  } catch (e) {
    if (!isAgentError(e)) throw e;
    out.error = e;
  }
  if (b.sim.printed.length > printed) out.doc = b.sim.printed.at(-1);
  const xml = b.sent.slice(sent).find((x) => x.includes('<endFiscalReceipt'));
  if (xml) out.xml = xml;
  return out;
}

const ROOM = () => item('room', 110, 10, { name: 'Camera 101' });
const consumer = { legalIdentifiers: { ItLotteryCode: 'AB12CD34' } };

describe('the lottery code, on Custom', () => {
  it('prints the consumer’s code on a sale paid by card, after the begin node (setLotteryCode, XML p.115) [c540]', async () => {
    const b = await bench();
    publish(b, [ROOM()], [pay('p', 'CreditCardPayment', 110)]);
    const out = await run(b, consumer);
    expect(out.error).toBeUndefined();
    expect(out.doc?.lottery).toBe('AB12CD34');
    expect(out.xml).toMatch(
      /<beginFiscalReceipt IdCmd="[^"]+"><\/beginFiscalReceipt><setLotteryCode code="AB12CD34">/,
    );
    expect(out.doc?.totalCents).toBe(billCents(b.items));
  });

  it('never prints it on a sale paid partly in cash [c540], nor beside a codice fiscale [AdE]', async () => {
    const b = await bench();
    publish(b, [ROOM()], [pay('c', 'CashPayment', 10), pay('p', 'CreditCardPayment', 100)]);
    expect((await run(b, consumer)).doc?.lottery).toBeUndefined();
    publish(b, [ROOM()], [pay('p', 'CreditCardPayment', 110)]);
    const both = await run(b, { ...consumer, taxIdentifier: 'RSSMRA80A01H501U' });
    expect(both.doc?.lottery).toBeUndefined();
    expect(both.doc?.customerId).toBe('RSSMRA80A01H501U');
  });
});

describe('deposits and refunds, on Custom', () => {
  it('takes a deposit receipted at 10 % off the 10 % slot only, as a discount on its department (XML p.90) [DPR6]', async () => {
    const b = await bench();
    publish(
      b,
      [ROOM(), item('bar', 40, 22, { name: 'Minibar' })],
      [
        pay('d', 'ExternalPayment:DepositCreditCard', 80, [{ rate: 10, gross: 80 }]),
        pay('p', 'CreditCardPayment', 70),
      ],
    );
    const out = await run(b);
    expect(out.error).toBeUndefined();
    expect(out.doc?.totalCents).toBe(billCents(b.items) - 8000);
    // printRecAdvancePayments (p.87) would spread it over both rates; the deposit's receipt said 10 %.
    const deducted = out.doc?.lines.filter((l) => l.type === 'adjustment' && l.description === 'ACCONTO');
    expect(deducted?.map((l) => [l.idVat, l.amountCents])).toEqual([[2, -8000]]);
    expect(out.doc?.payments.reduce((s, p) => s + p.amountCents, 0)).toBe(7000);
  });

  it('refuses a refund naming no receipt by default, sending nothing [PD21]', async () => {
    const b = await bench();
    publish(b, [item('bar', -50, 22, { name: 'Minibar' })], [pay('p', 'CashPayment', -50)]);
    const out = await run(b, { refund: {} });
    expect(out.error?.code).toBe('COMMAND_INVALID');
    expect(b.sent).toHaveLength(0);
  });

  it('prints it as ND only when unreferencedRefunds is on (beginRtDocRefundSpecial service="ND", XML p.39)', async () => {
    const b = await bench({ unreferencedRefunds: true });
    publish(b, [item('bar', -50, 22, { name: 'Minibar' })], [pay('p', 'CashPayment', -50)]);
    const out = await run(b, { refund: {} });
    expect(out.error).toBeUndefined();
    expect(out.doc).toMatchObject({ kind: 'refund', totalCents: 5000 });
    expect(out.xml).toContain('<beginRtDocRefundSpecial service="ND"');
    expect(english(out.result?.notes ?? { id: 'x', values: {} })).toMatch(/^Refund \d{4}-\d{4} printed/);
  });

  it('prints a partita IVA as fixedLines pitch B before the payments (XML p.55)', async () => {
    const b = await bench();
    publish(b, [ROOM()], [pay('p', 'CreditCardPayment', 110)]);
    const out = await run(b, { taxIdentifier: 'IT01606720215' });
    expect(out.doc?.customerId).toBe('01606720215');
    expect(out.xml).toMatch(/<fixedLines description="01606720215" pitch="B"><\/fixedLines><printRecTotal /);
  });
});

describe('issue 39, on Custom (sources in test/fiscal-law/loyalty-points.test.ts and lottery-and-codes.test.ts)', () => {
  it('leaves the lottery code off a stay an OTA prepaid online: online purchases are excluded [ONLINE][80217]', async () => {
    const b = await bench();
    publish(b, [ROOM()], [pay('p', 'ExternalPayment:Prepayment', 60), pay('q', 'CreditCardPayment', 50)]);
    const out = await run(b, consumer);
    expect(out.error).toBeUndefined();
    expect(out.doc?.lottery).toBeUndefined();
    expect(out.xml).not.toContain('setLotteryCode');
    expect(out.doc?.totalCents).toBe(billCents(b.items));
  });

  it('takes hotel-funded loyalty points off the 10 % slot: €50 on a €200 room, VAT on €150 [ART13][R152]', async () => {
    const b = await bench();
    publish(
      b,
      [item('room', 200, 10, { name: 'Camera 101' })],
      [pay('pts', 'ExternalPayment:LoyaltyPoints', 50), pay('p', 'CreditCardPayment', 150)],
    );
    const out = await run(b);
    expect(out.error).toBeUndefined();
    const points = out.doc?.lines.filter((l) => l.type === 'adjustment');
    expect(points?.map((l) => [l.description, l.idVat, l.amountCents])).toEqual([
      ['SCONTO PUNTI FEDELTA', 2, -5000],
    ]);
    expect(out.doc?.totalCents).toBe(billCents(b.items) - 5000);
  });
});
