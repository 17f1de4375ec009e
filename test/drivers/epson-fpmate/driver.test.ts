import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { epsonFpmateFactory } from '../../../drivers/epson-fpmate/index.js';
import { english } from '../../../src/messages/render.js';
import { fpmateReceiptXml } from '../../../src/platform-simulator/fpmate.js';
import { jobFor, recordingExecuteContext, testDriverContext } from '../../helpers/driver-context.js';
import { rejection } from '../../helpers/rejection.js';
import {
  inWords,
  orderItem,
  payloadJob,
  payment,
  printedOf,
  type Rig,
  refundJob,
  rig,
  saleJob,
} from './helpers.js';

const NOTES = /^Receipt (\d{4})-(\d{4}) on RT (\S+), \d{4}-\d{2}-\d{2} \d{2}:\d{2}, total (\d+\.\d{2}) EUR$/;

const items = [
  orderItem('i1', { unitGross: 50, units: 2, rate: 22, notes: 'Camera doppia' }),
  orderItem('i2', { unitGross: 23.45, rate: 10, notes: 'Colazione & "extra" <buffet>' }),
  orderItem('i3', { unitGross: 99, rate: 22, canceled: true }),
];
const payments = [
  payment('p1', 'CreditCardPayment', 100),
  payment('p2', 'CashPayment', 23.45, 'Closed'),
  payment('p3', 'AlternativePayment', 500, 'Pending'),
];

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

describe('epson-fpmate driver against the simulated printer', () => {
  it('opens idempotently, learns the serial and reports a ready printer', async () => {
    r = await rig({ items, payments });
    await r.driver.open(new AbortController().signal);
    await r.driver.open(new AbortController().signal);
    const status = inWords(r.driver.status());
    expect(status.connected).toBe(true);
    expect(status.summary).toBe('ready');
    expect(status.facts.serial).toBe('99MEY123456');
    // Read once, as fiskaltrust reads it: directIO 3217 completed by the status answer's rtType.
    // (Besides the department programming reads, 4202/4205: programming.test.ts.)
    expect(r.sim.directIo.filter((c) => c !== '4202' && c !== '4205')).toEqual(['3217']);
    expect(status.facts.fiscalDayOpen).toBe(false);
    expect(status.warnings).toEqual([]);
  });

  it('prints a sale from order items and charged payments, with Notes the platform parses', async () => {
    r = await rig({ items, payments });
    const ectx = recordingExecuteContext();
    const result = await r.driver.execute(saleJob(), ectx);
    const m = NOTES.exec(english(result.notes));
    expect(m?.slice(1)).toEqual(['0001', '0001', '99MEY123456', '123.45']);
    expect(result.details).toMatchObject({
      receiptNumber: '0001-0001',
      zNumber: 1,
      documentNumber: 1,
      printerSerial: '99MEY123456',
      total: { money: 123.45, currency: 'EUR' },
    });
    const [doc] = printedOf(r.sim, 'sale');
    expect(doc?.lines).toEqual([
      {
        type: 'item',
        description: 'Camera doppia',
        quantity: 2,
        unitPriceCents: 5000,
        amountCents: 10000,
        department: 1,
        vatClass: '22%',
      },
      {
        type: 'item',
        description: 'Colazione & "extra" <buffet>',
        quantity: 1,
        unitPriceCents: 2345,
        amountCents: 2345,
        department: 2,
        vatClass: '10%',
      },
    ]);
    expect(doc?.payments.map((p) => [p.paymentType, p.amountCents])).toEqual([
      [2, 10000],
      [0, 2345],
    ]);
    expect(ectx.checkpoints[0]).toMatchObject({
      phase: 'sending',
      baseline: { z: 1, doc: 0, fresh: true },
      expectedCents: 12345,
    });
    expect(ectx.checkpoints.at(-1)).toMatchObject({ phase: 'done', result: { notes: result.notes } });
    expect(r.store.get('baseline')).toEqual({ z: 1, doc: 1 });
  });

  it('numbers receipts on and refunds one with a reference the printer accepts', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    await r.driver.execute(saleJob('b'), recordingExecuteContext());
    const original = printedOf(r.sim, 'sale')[0];
    r = { ...r, driver: r.restart() };
    const refund = refundJob(
      { sequence: '1', receiptNumber: '1', dateTimeUtc: new Date(original?.at ?? 0).toISOString() },
      '99MEY123456',
    );
    const result = await r.driver.execute(refund, recordingExecuteContext());
    expect(english(result.notes)).toMatch(
      /^Refund 0001-0003 on RT 99MEY123456, .*total 123\.45 EUR \(refund of Z 1 no\. 1 of \d\d\/\d\d\/\d{4}\)$/,
    );
    const [doc] = printedOf(r.sim, 'refund');
    expect(doc?.reference).toMatchObject({ kind: 'REFUND', z: 1, doc: 1, serial: '99MEY123456' });
    expect(doc?.lines.every((l) => l.type === 'refund')).toBe(true);
    const again = await rejection(r.driver.execute(refund, recordingExecuteContext()));
    expect(again.code).toBe('FISCAL_REJECTED');
    expect(english(again.notes)).toContain('already been refunded');
    expect(printedOf(r.sim, 'refund')).toHaveLength(1);
  });

  it('learns its serial with directIO 3217 and the status answer’s rtType for a refund that names none', async () => {
    r = await rig({ items, payments });
    await r.driver.execute(saleJob('a'), recordingExecuteContext());
    const original = printedOf(r.sim, 'sale')[0];
    r.store.set('serial', null);
    const fresh = r.restart();
    const refund = refundJob(
      { sequence: '1', receiptNumber: '1', dateTimeUtc: new Date(original?.at ?? 0).toISOString() },
      undefined,
    );
    const before = r.sim.directIo.length;
    const result = await fresh.execute(refund, recordingExecuteContext());
    expect(english(result.notes)).toMatch(/^Refund 0001-0002 on RT 99MEY123456, /);
    // The serial, then the reference check before printing (directIO 9205, reference-check.ts).
    expect(r.sim.directIo.slice(before)).toEqual(['3217', '9205']);
    expect(printedOf(r.sim, 'refund')[0]?.reference).toMatchObject({ serial: '99MEY123456' });
    expect(r.store.get('serial')).toBe('99MEY123456');
  });

  it('sends a payload receipt as it came, and refuses a payload that is not a receipt before contacting the printer', async () => {
    r = await rig();
    const receipt = await r.driver.execute(
      payloadJob(
        '<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><printerFiscalReceipt><beginFiscalReceipt operator="1"/><printRecItem operator="1" description="Minibar" quantity="1" unitPrice="4.50" department="1"/><printRecTotal operator="1" description="Contanti" payment="5.00" paymentType="0" index="0"/><endFiscalReceipt operator="1"/></printerFiscalReceipt></soapenv:Body></soapenv:Envelope>',
      ),
      recordingExecuteContext(),
    );
    expect(english(receipt.notes)).toMatch(/^Receipt 0001-0001 on RT 99MEY123456, .*total 4\.50 EUR$/);
    const requests = r.sim.requests.length;
    for (const xml of [
      '<printerFiscalReport><printZReport operator="1"/></printerFiscalReport>',
      '<printerCommand><directIO command="4038" data="0212345"/></printerCommand>',
      '<printerNonFiscal><beginNonFiscal operator="1"/><printNormal operator="1" data="Benvenuti"/><endNonFiscal operator="1"/></printerNonFiscal>',
    ]) {
      const error = await rejection(r.driver.execute(payloadJob(xml), recordingExecuteContext()));
      expect(error.code).toBe('COMMAND_INVALID');
      expect(english(error.notes)).toContain('is not a sale, refund or void receipt');
    }
    expect(r.sim.requests.length).toBe(requests);
    expect(r.sim.printed.map((d) => d.kind)).toEqual(['sale']);
  });

  it('refuses the platform docs’ sample payload (<fvp_doc>) before sending anything', async () => {
    r = await rig();
    const fixture = JSON.parse(
      readFileSync(
        join(
          import.meta.dirname,
          '..',
          '..',
          'fixtures',
          'connector-docs',
          'fiscalMachineCommands-getAll.response.json',
        ),
        'utf8',
      ),
    ) as { Commands: Array<{ CommandData: { ItalianFiscalMachinePayload: { Payload: string } | null } }> };
    const base64 = fixture.Commands[1]?.CommandData.ItalianFiscalMachinePayload?.Payload ?? '';
    const job = payloadJob('x');
    if (job.data.kind === 'fiscal') job.data.fiscal.document = { type: 'payload', base64 };
    const error = await rejection(r.driver.execute(job, recordingExecuteContext()));
    expect(error.code).toBe('COMMAND_INVALID');
    expect(english(error.notes)).toContain('<fvp_doc> is not a sale, refund or void receipt');
    expect(r.sim.requests).toEqual([]);
  });

  it('refuses a bill whose items and payments differ, before contacting the printer', async () => {
    r = await rig({ items, payments: [payment('p1', 'CreditCardPayment', 100)] });
    const error = await rejection(r.driver.execute(saleJob(), recordingExecuteContext()));
    expect(error.code).toBe('FISCAL_REJECTED');
    expect(english(error.notes)).toBe(
      'The bill’s items (123.45 EUR) and payments (100.00 EUR) do not match; nothing was printed. Settle the bill on the platform, then issue the receipt again.',
    );
    expect(r.sim.requests).toEqual([]);
  });

  it('never lets the platform decide where receipts go by default: url is required', () => {
    const parsed = epsonFpmateFactory.configSchema.safeParse({});
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['url']);
    expect(epsonFpmateFactory.configSchema.safeParse({ url: 'fromPlatform' }).success).toBe(false);
  });

  it('ignores the command’s ApiUrl when the address is configured', async () => {
    r = await rig({ items, payments });
    const result = await r.driver.execute(
      saleJob('cmd', { apiUrl: 'http://203.0.113.9:8080' }),
      recordingExecuteContext(),
    );
    expect(english(result.notes)).toMatch(/^Receipt 0001-0001 /);
    expect(inWords(r.driver.status()).facts.address).toBe(r.sim.url);
  });

  it('with url: fromPlatform, uses the command’s ApiUrl only on an allowed host (issue 13: any host)', async () => {
    r = await rig({ items, payments, driver: { url: 'fromPlatform', allowedHosts: ['127.0.0.1'] } });
    expect(inWords(r.driver.status()).summary).toBe(
      'waiting for the first command to learn the printer’s address',
    );
    await r.driver.open(new AbortController().signal);
    const result = await r.driver.execute(
      saleJob('cmd', { apiUrl: `${r.sim.url}/api` }),
      recordingExecuteContext(),
    );
    expect(english(result.notes)).toMatch(/^Receipt 0001-0001 /);
    expect(inWords(r.driver.status()).facts).toMatchObject({ address: r.sim.url, lastReceipt: '0001-0001' });
    const elsewhere = await rejection(
      r.driver.execute(
        saleJob('cmd2', { apiUrl: 'http://attacker.example:8080' }),
        recordingExecuteContext(),
      ),
    );
    expect(elsewhere.code).toBe('COMMAND_INVALID');
    expect(english(elsewhere.notes)).toBe(
      'The platform named the host attacker.example:8080, which is not allowed as the fiscal printer; nothing was sent there and nothing was printed. Ask IT to check the printer’s address on the platform and the agent’s allowedHosts.',
    );
    const none = await rejection(r.driver.execute(saleJob('cmd3'), recordingExecuteContext()));
    expect(none.code).toBe('COMMAND_INVALID');
    const port = Number(new URL(r.sim.url).port);
    const otherPort = epsonFpmateFactory.create(
      epsonFpmateFactory.configSchema.parse({ url: 'fromPlatform', allowedHosts: [`127.0.0.1:${port + 1}`] }),
      testDriverContext(),
    );
    const wrongPort = await rejection(
      otherPort.execute(saleJob('cmd4', { apiUrl: r.sim.url }), recordingExecuteContext()),
    );
    await otherPort.close();
    expect(wrongPort.code).toBe('COMMAND_INVALID');
    expect(printedOf(r.sim, 'sale')).toHaveLength(1);
  });

  it('stops before sending when aborted, and refuses a command that is not fiscal', async () => {
    r = await rig({ items, payments });
    const controller = new AbortController();
    controller.abort();
    const aborted = await rejection(r.driver.execute(saleJob(), recordingExecuteContext(controller.signal)));
    expect(aborted.code).toBe('ABORTED');
    expect(r.sim.printed).toEqual([]);
    const keys = jobFor({ kind: 'other', deviceType: 'KeyCutter' });
    expect((await rejection(r.driver.execute(keys, recordingExecuteContext()))).code).toBe('COMMAND_INVALID');
  });

  it('reports progress up to 1 on success', async () => {
    r = await rig({ items, payments });
    const ectx = recordingExecuteContext();
    await r.driver.execute(saleJob(), ectx);
    expect(ectx.progressSeen.map((p) => p.fraction)).toEqual([0.2, 0.5, 1]);
  });

  it('closes idempotently', async () => {
    r = await rig({ items, payments });
    await r.driver.open(new AbortController().signal);
    await r.driver.close();
    await r.driver.close();
    expect(inWords(r.driver.status()).facts.reachable).toBe(true);
  });
});

describe('interoperability with the platform simulator’s payloads', () => {
  it.each(['soap', 'bare'] as const)(
    'prints its %s fpmate receipt exactly as a real printer would',
    async (envelope) => {
      r = await rig();
      const xml = fpmateReceiptXml(
        {
          header: ['HOTEL BELLAVISTA'],
          lines: [
            { description: 'PERNOTTAMENTO', quantity: 2, unitPriceCents: 9500, department: 2 },
            { description: 'TASSA DI SOGGIORNO', quantity: 2, unitPriceCents: 350, department: 4 },
          ],
          payments: [{ description: 'CARTA DI CREDITO', amountCents: 19700, paymentType: 2, index: 1 }],
        },
        envelope,
      );
      const result = await r.driver.execute(payloadJob(xml), recordingExecuteContext());
      expect(english(result.notes)).toMatch(/^Receipt 0001-0001 on RT 99MEY123456, .*total 197\.00 EUR$/);
      expect(printedOf(r.sim, 'sale')[0]?.header).toEqual(['HOTEL BELLAVISTA']);
    },
  );
});
