import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rchRtFactory } from '../../../drivers/rch-rt/index.js';
import type { DriverContext, JobResult } from '../../../src/drivers-api/types.js';
import { type AgentError, toAgentError } from '../../../src/errors.js';
import { english } from '../../../src/messages/render.js';
import { jobFor, recordingExecuteContext, testDriverContext } from '../../helpers/driver-context.js';
import { selfSignedCertificate } from '../../helpers/tls.js';
import { requireTool } from '../../helpers/tools.js';
import { fiscalData } from '../epson-fpmate/helpers.js';
import { orderItem, payment, printedOf, type RchRig, rchRig, refundJob, SERIAL, saleJob } from './helpers.js';

/**
 * The RCH driver against the RCH simulator (written from the public sources by someone who had not
 * seen the driver): what it sends, how it reads the answers, and exactly once without a request id.
 * Sources are cited in drivers/rch-rt/ where each rule is decided.
 */

const items = [
  orderItem('i1', { unitGross: 50, units: 2, rate: 22 }),
  orderItem('i2', { unitGross: 23.45, rate: 10 }),
];
const payments = [payment('p1', 'CashPayment', 23.45), payment('p2', 'CreditCardPayment', 100)];

let r: RchRig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

interface Outcome {
  result?: JobResult;
  error?: AgentError;
  ectx: ReturnType<typeof recordingExecuteContext>;
}

const run = (rig: RchRig, job = saleJob('s1'), ectx = recordingExecuteContext()): Promise<Outcome> =>
  rig.driver.execute(job, ectx).then(
    (result) => ({ result, ectx }),
    (error: unknown) => ({ error: toAgentError(error), ectx }),
  );
const notes = (o: Outcome) => {
  const said = (o.result ?? o.error)?.notes;
  return said ? english(said) : '';
};

describe('rch-rt: a sale is one request (lyancoder xml-RCH-http.ts; rch-driver-js-core Core.ts)', () => {
  it('sends lines, the marker and the payments in one <Service>, the last payment paying what is left; the checkpoint first', async () => {
    r = await rchRig({ items, payments });
    const out = await run(r);
    const document = r.sim.requests.find((commands) => commands.some((c) => c.startsWith('=R')));
    const marker = document?.find((c) => c.startsWith('="/?A/'))?.slice('="/?A/('.length, -1);
    expect(document).toEqual([
      '=R1/$5000/*2/(Product Order)',
      '=R2/$2345/*1/(Product Order)',
      `="/?A/(${marker})`,
      '=T1/$2345/(CONTANTI)',
      '=T4/(CARTA DI PAGAMENTO)',
    ]);
    expect(marker).toMatch(/^RIF\. [0-9A-F]{12}1$/);
    expect(out.ectx.checkpoints[0]).toMatchObject({
      phase: 'sending',
      commands: 5,
      beforePayment: 3,
      marker,
    });
    expect(notes(out)).toBe(`Receipt 1161-0001 printed on RT ${SERIAL}.`);
    const sale = printedOf(r.sim, 'sale')[0];
    expect(sale?.totalCents).toBe(12345);
    // The marker is a text line of its own (the simulator books it with no amount).
    expect(sale?.lines.map((l) => [l.kind, l.department, l.amountCents])).toEqual([
      ['sale', 1, 10000],
      ['sale', 2, 2345],
      ['text', undefined, 0],
    ]);
  });

  it('refuses a ready-made document and an unreferenced refund before any contact', async () => {
    r = await rchRig({ items, payments, driver: { unreferencedRefunds: true } });
    const payload = jobFor(fiscalData({ type: 'payload', base64: Buffer.from('<x/>').toString('base64') }));
    expect((await run(r, payload)).error?.code).toBe('COMMAND_INVALID');
    const nd = await run(r, refundJob({}, undefined, 'nd'));
    expect(nd.error?.code).toBe('FISCAL_REJECTED');
    expect(notes(nd)).toMatch(/only with the original receipt/);
    expect(r.sim.requests).toEqual([]);
  });
});

describe('rch-rt: exactly once without a request id (witnesses.ts)', () => {
  it('a payment refused: not printed, the document the request opened cancelled (=a), the code in the Notes', async () => {
    r = await rchRig({ items, payments });
    await r.sim.setFault('refusePayment', { code: 915 });
    const out = await run(r);
    expect(out.error?.code).toBe('FISCAL_REJECTED');
    expect(notes(out)).toMatch(/error 915/);
    expect(r.sim.requests.at(-1)).toEqual(['=a']);
    expect(r.sim.condition.open).toBeUndefined();
    expect(printedOf(r.sim, 'sale')).toHaveLength(0);
  });

  it('a firmware whose <</?s has only mode and idleState: the counters stay silent, the journal’s last document is the baseline', async () => {
    const bare = await rchRig({
      items,
      payments,
      sim: { lastZ: 7 },
      ctx: (ctx) => ({ ...ctx, http: stripCounters(ctx.http) }),
    });
    try {
      await bare.sim.setFault('dropAfterPrint', true);
      const out = await run(bare, saleJob('bare'));
      expect(out.result?.details).toMatchObject({
        receiptNumber: '0008-0001',
        recovered: true,
      });
      // The journal was read before the document (its fingerprint) and after it (the marker).
      expect(bare.sim.requests.filter((c) => c.includes('=C453/$0'))).toHaveLength(2);
      await bare.sim.setFault('dropAfterPrint', false);
      const second = await run(bare, saleJob('bare2'));
      expect(second.result?.details?.receiptNumber).toBe('0008-0002');
    } finally {
      await bare.close();
    }
  });

  it('reads the journal under PRG (=C4) when journalKey says so (rch-driver-js Driver.ts getLastReceipt)', async () => {
    r = await rchRig({ items, payments, driver: { journalKey: 'PRG' } });
    await r.sim.setFault('dropAfterPrint', true);
    const out = await run(r, saleJob('prg'));
    expect(out.result?.details?.recovered).toBe(true);
    expect(r.sim.requests).toContainEqual(['=C4', '=C453/$0', '=C1']);
  });
});

describe('rch-rt: refunds, voids and reports', () => {
  it('a refund names its original with =r and the check /*1 first; a void of an unknown receipt stops at the check', async () => {
    r = await rchRig({ items, payments });
    await run(r, saleJob('orig'));
    const original = printedOf(r.sim, 'sale')[0];
    if (!original) throw new Error('no sale');
    const rebated = {
      sequence: String(original.z),
      receiptNumber: '1',
      dateTimeUtc: new Date(original.at).toISOString(),
    };
    const out = await run(r, refundJob(rebated, SERIAL, 'ref1'));
    expect(notes(out)).toBe(`Refund 1161-0002 printed on RT ${SERIAL}.`);
    const date = r.sim.requests
      .flat()
      .find((c) => c.startsWith('=r/&'))
      ?.slice(4, 10);
    expect(r.sim.requests.flat()).toEqual(
      expect.arrayContaining([`=r/&${date}/[1161/]1/*1`, `=r/&${date}/[1161/]1`]),
    );
    const requests = r.sim.requests.length;
    const voidJob = refundJob({ ...rebated, receiptNumber: '9' }, SERIAL, 'void9');
    if (voidJob.data.kind === 'fiscal') voidJob.data.fiscal.bill.correctionType = 'Cancellation';
    const refused = await run(r, voidJob);
    expect(refused.error?.code).toBe('FISCAL_REJECTED');
    expect(r.sim.requests.slice(requests).flat()).toEqual(['<</?s', '<</?7', `=k/&${date}/[1161/]9/*1`]);
  });

  it('the X report, then the Z report verified by <</?7; a second Z has nothing to close', async () => {
    r = await rchRig({ items, payments });
    await run(r, saleJob('day'));
    const action = (name: string) =>
      r?.driver
        .actions?.()
        .find((a) => a.name === name)
        ?.run({}, new AbortController().signal) ?? Promise.reject(new Error(name));
    expect(english((await action('x-report')).notes)).toBe(`X report printed on RT ${SERIAL}.`);
    expect(english((await action('z-report')).notes)).toBe(
      `Daily closure (Z report) 1161 done on RT ${SERIAL}.`,
    );
    expect(r.sim.requests).toContainEqual(['=C3', '=C10', '=C1']);
    expect(english((await action('z-report')).notes)).toContain('No daily closure needed');
    expect(r.sim.counters.lastZ).toBe(1161);
  });

  it('the status card: the key, paper and cover from the answer flags, the RT state from <</?i/*3', async () => {
    r = await rchRig({ items, payments });
    await r.driver.open(new AbortController().signal);
    const facts = r.driver.status().facts;
    expect(facts).toMatchObject({ key: 'REG', rtState: '111000', serialNumber: SERIAL, filesToSend: 0 });
    expect(english(facts.paper as Parameters<typeof english>[0])).toBe('ok');
  });
});

/** The HTTP stack with `<lastZ>` and `<lastDocF>` cut out of every answer (a firmware without them). */
function stripCounters(http: DriverContext['http']): DriverContext['http'] {
  return (options) => {
    const client = http(options);
    return {
      request: async (request) => {
        const res = await client.request(request);
        const body = res.body.toString('utf8').replace(/<lastZ>\d+<\/lastZ>|<lastDocF>\d+<\/lastDocF>/g, '');
        return {
          status: res.status,
          statusText: res.statusText,
          header: (n) => res.header(n),
          body: Buffer.from(body),
        };
      },
      close: () => client.close(),
    };
  };
}

const haveOpenssl = requireTool('openssl', 'a self-signed printer certificate for the HTTPS test');

describe.runIf(haveOpenssl)('rch-rt over HTTPS: the kit’s certificate pinning and address rules', () => {
  it('prints to the pinned certificate, sends nothing to another, and refuses a plain http ApiUrl with tls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rch-tls-'));
    try {
      const tls = selfSignedCertificate(dir, 'printer.local');
      const sim = { tls: { key: tls.key, cert: tls.cert } };
      r = await rchRig({
        items,
        payments,
        sim,
        driver: { tls: { fingerprint: tls.fingerprint, serverName: 'printer.local' } },
      });
      expect(r.options.url).toMatch(/^https:/);
      expect(notes(await run(r, saleJob('pinned')))).toMatch(/^Receipt 1161-0001 printed/);
      const wrong = await rchRig({ items, payments, sim, driver: { tls: { fingerprint: 'AB'.repeat(32) } } });
      try {
        const refused = await run(wrong, saleJob('other'));
        expect(refused.error?.code).toBe('DEVICE_UNAVAILABLE');
        expect(wrong.sim.requests).toEqual([]);
      } finally {
        await wrong.close();
      }
      const platform = rchRtFactory.configSchema.parse({
        url: 'fromPlatform',
        allowedHosts: ['printer.local'],
        tls: {},
      });
      const driver = rchRtFactory.create(platform, testDriverContext());
      const job = saleJob('plain');
      if (job.data.kind === 'fiscal') job.data.fiscal.apiUrl = 'http://printer.local';
      const plain = await driver.execute(job, recordingExecuteContext()).catch(toAgentError);
      expect('code' in plain && plain.code).toBe('COMMAND_INVALID');
      await driver.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
