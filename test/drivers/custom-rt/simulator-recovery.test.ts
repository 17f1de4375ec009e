import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomRtSimulator } from '../../../drivers/custom-rt/simulator/index.js';
import type { ManualClock } from '../../../src/clock.js';
import { selfSignedCertificate } from '../../helpers/tls.js';
import { requireTool } from '../../helpers/tools.js';
import {
  basic,
  command,
  item,
  parseAnswer,
  payment,
  post,
  receipt,
  report,
  SERIAL,
  sale,
  startSim,
} from './simulator-client.js';

let sim: CustomRtSimulator;
let clock: ManualClock;

beforeEach(async () => {
  ({ sim, clock } = await startSim({ lastZ: 142 }));
});
afterEach(async () => {
  await sim.close();
});

const dio = (code: string, data = '') =>
  post(sim, command(`<directIO command="${code}" data="${data}"></directIO>`));
const status = () => post(sim, command('<queryPrinterStatus></queryPrinterStatus>'));

describe('Custom RT simulator: IdCmd and lastIdCmd (XML pp.25, 27; research §2.7)', () => {
  it('has no lastIdCmd until an IdCmd is sent, then has it in every later answer, queries included', async () => {
    expect((await status()).info.lastIdCmd).toBeUndefined();
    await post(sim, sale(100, 'C1'));
    const expected = { '@IdCmd': 'C1E', '#text': 'endFiscalReceipt' };
    expect((await status()).info.lastIdCmd).toEqual(expected);
    expect((await post(sim, command('<getDateTime/>'))).info.lastIdCmd).toEqual(expected);
    expect((await dio('1017')).info.lastIdCmd).toEqual(expected);
    expect(sim.idCmds).toEqual(['C1B', 'C1E']);
  });

  it('keeps the last ID sent: a refused end node still becomes lastIdCmd (p.27 "last ID sent")', async () => {
    const a = await post(
      sim,
      receipt(`<beginFiscalReceipt IdCmd="C2B"/>${item('A', 100, 1)}<endFiscalReceipt IdCmd="C2E"/>`),
    );
    expect(a).toMatchObject({ success: false, status: 25 });
    expect(a.info.lastIdCmd).toEqual({ '@IdCmd': 'C2E', '#text': 'endFiscalReceipt' });
    expect(a.info.fpStatus).toBe('100');
  });

  it('moves only on success under the idCmdOnSuccessOnly switch (the manual leaves this open)', async () => {
    await sim.setFault('idCmdOnSuccessOnly', true);
    const a = await post(
      sim,
      receipt(`<beginFiscalReceipt IdCmd="C3B"/>${item('A', 100, 1)}<endFiscalReceipt IdCmd="C3E"/>`),
    );
    expect(a.info.lastIdCmd).toEqual({ '@IdCmd': 'C3B', '#text': 'beginFiscalReceipt' });
  });

  it('never reaches the nodes after a refused one, nor any node of a request refused whole', async () => {
    await post(sim, sale(100, 'C4'));
    await post(
      sim,
      receipt(`<beginFiscalReceipt IdCmd="C5B"/>${item('A', 100, 9)}<endFiscalReceipt IdCmd="C5E"/>`),
    );
    expect((await status()).info.lastIdCmd).toEqual({ '@IdCmd': 'C5B', '#text': 'beginFiscalReceipt' });
    await post(sim, command('<resetPrinter/>'));
    await sim.setFault('paperOut', true);
    await sim.setFault('busy', true);
    await post(sim, sale(100, 'C6'));
    expect((await status()).info.lastIdCmd).toEqual({ '@IdCmd': 'C5B', '#text': 'beginFiscalReceipt' });
    expect(sim.idCmds).toContain('C6E');
  });
});

describe('Custom RT simulator: directIO (XML p.47; DIO pp.20, 40, 54, 56–57, 81)', () => {
  it('answers 1017 in the manual’s layout: the 4-byte echo, then DDMMYYHHmm, number, total, type, status (research §7.4)', async () => {
    await post(
      sim,
      receipt(
        `<beginFiscalReceipt/>${item('PERNOTTAMENTO', 12000, 2)}${item('MINIBAR', 250, 1, 2000)}${payment(12500, 3)}<endFiscalReceipt/>`,
      ),
    );
    const a = await dio('1017');
    expect(a.info).toMatchObject({
      lastCommand: 'directIO',
      lastRawCommand: '1017',
      responseBuf: '10171303261022000100001250010',
    });
    expect(sim.directIo).toEqual(['1017']);
  });

  it('drops the echo under dio1017NoEcho: the 25 characters fiskaltrust parses (CustomRTPrinterSCU.GetLastFiscalDocAsync)', async () => {
    await post(sim, sale(990));
    await sim.setFault('dio1017NoEcho', true);
    expect((await dio('1017')).info.responseBuf).toBe('1303261022000100000099010');
  });

  it('marks a cancelled receipt with status 1 and a non-fiscal one with type 0 in 1017', async () => {
    await post(
      sim,
      receipt(`<beginFiscalReceipt/>${item('A', 100, 1)}<printRecVoid/><endFiscalReceiptCut/>`),
    );
    expect((await dio('1017')).info.responseBuf).toBe('10171303261022000100000010011');
    await post(
      sim,
      '<printerNotFiscal><beginNotFiscal/><printNormal data="x"/><endNotFiscal/></printerNotFiscal>',
    );
    expect(String((await dio('1017')).info.responseBuf).slice(-2)).toBe('00');
  });

  it('answers 1104 with the last Z done and 1106/1107 with the last Z and receipt times, to the second', async () => {
    await post(sim, sale(100));
    clock.advance(5 * 60_000 + 7000);
    await post(sim, report('<printZReport/>'));
    expect((await dio('1104')).info.responseBuf).toBe('110401430001');
    expect((await dio('1106')).info.responseBuf).toBe('1106130326102748');
    expect((await dio('1107')).info.responseBuf).toBe('1107130326102241');
  });

  it('answers 1514 with the closures waiting for the tax agency (filesToSend)', async () => {
    expect((await dio('1514', '0')).info.responseBuf).toBe('15140000000000000');
    await sim.setFault('filesToSend', { count: 2 });
    expect((await dio('1514', '0')).info.responseBuf).toBe('15140000000020000');
  });

  it('refuses a command it does not model with 3, naming it in lastRawCommand', async () => {
    const a = await dio('9999');
    expect(a).toMatchObject({ success: false, status: 3 });
    expect(a.info.lastRawCommand).toBe('9999');
  });
});

const haveOpenssl = requireTool('openssl', 'a self-signed certificate for the simulator’s HTTPS test');

describe.runIf(haveOpenssl)('Custom RT simulator: HTTPS', () => {
  it('serves the same service over TLS when given a key and certificate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custom-sim-tls-'));
    try {
      const { key, cert } = selfSignedCertificate(dir, 'printer.local');
      const { sim: tls } = await startSim({ tls: { key, cert } });
      try {
        expect(tls.url).toMatch(/^https:/);
        const text = await new Promise<string>((resolve, reject) => {
          const req = request(
            `${tls.url}/xml/printer.htm`,
            {
              method: 'POST',
              ca: cert,
              checkServerIdentity: () => undefined,
              headers: { Authorization: basic(SERIAL, SERIAL) },
            },
            (res) => {
              let body = '';
              res.on('data', (c: Buffer) => {
                body += c.toString('utf8');
              });
              res.on('end', () => resolve(body));
            },
          );
          req.on('error', reject);
          req.end(command('<getDateTime/>'));
        });
        expect(parseAnswer(200, text).info.responseBuf).toBe('130326102241');
      } finally {
        await tls.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
