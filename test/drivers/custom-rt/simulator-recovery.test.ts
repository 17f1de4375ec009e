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

describe('Custom RT simulator: status and faults (XML pp.26, 57, 69, 107–109; XML-SG §3)', () => {
  it('answers queryPrinterStatus with its own node list, cpuRel and mfStatus (p.107)', async () => {
    const a = await status();
    expect(a.info).toMatchObject({
      lastCommand: 'queryPrinterStatus',
      printerStatus: '00000',
      fpStatus: '000',
      mfStatus: 'MF OK',
    });
    expect(String(a.info.cpuRel)).toMatch(/Rel\./);
  });

  it('answers getInfo with infoResp: serial and the last Z (p.69)', async () => {
    const a = await post(sim, command('<getInfo></getInfo>'));
    expect(a.root).toBe('infoResp');
    expect(a.info).toMatchObject({
      serialNumber: SERIAL,
      fiscalized: 'SI',
      fpuState: 'IN SERVIZIO',
      zSetNumber: '142',
    });
  });

  it.each([
    ['paperOut', '01000', 16],
    ['coverOpen', '10000', 64],
  ] as const)(
    '%s shows in printerStatus and refuses documents (%s, %i), nothing printed',
    async (fault, flags, code) => {
      await sim.setFault(fault, true);
      expect((await status()).info.printerStatus).toBe(flags);
      expect(await post(sim, sale(100))).toMatchObject({ success: false, status: code });
      expect(await post(sim, report('<printXReport/>'))).toMatchObject({ success: false, status: code });
      expect(sim.printed).toEqual([]);
      await sim.setFault(fault, false);
      expect((await post(sim, sale(100))).success).toBe(true);
    },
  );

  it('paperLow is a warning only: S3 set, the document prints', async () => {
    await sim.setFault('paperLow', true);
    const a = await post(sim, sale(100));
    expect(a).toMatchObject({ success: true });
    expect(a.info.printerStatus).toBe('00100');
  });

  it('busy refuses printing requests with 213 by default while queries answer; getBusyStatus shows 75 as flag 4', async () => {
    await sim.setFault('busy', true);
    expect(await post(sim, sale(100))).toMatchObject({ success: false, status: 213 });
    expect((await status()).success).toBe(true);
    await sim.setFault('busy', { status: 75 });
    expect(await post(sim, report('<printZReport/>'))).toMatchObject({ success: false, status: 75 });
    expect((await post(sim, command('<getBusyStatus/>'))).info.responseBuf).toBe('0001000000000000');
    expect(sim.printed).toEqual([]);
  });

  it('loseAnswer prints, then drops the connection; lastIdCmd and 1017 tell what happened', async () => {
    await sim.setFault('loseAnswer', true);
    await expect(post(sim, sale(4200, 'C7'))).rejects.toThrow();
    await sim.setFault('loseAnswer', false);
    expect(sim.printed).toHaveLength(1);
    expect((await status()).info.lastIdCmd).toEqual({ '@IdCmd': 'C7E', '#text': 'endFiscalReceipt' });
    expect((await dio('1017')).info.responseBuf).toBe('10171303261022000100000420010');
  });

  it('slow holds the answer of a printing request until the simulator’s clock has moved', async () => {
    await sim.setFault('slow', { ms: 30_000 });
    let answered = false;
    const pending = post(sim, sale(100)).then((a) => {
      answered = true;
      return a;
    });
    await expect.poll(() => clock.pending).toBe(1);
    expect(sim.printed).toHaveLength(1);
    expect(answered).toBe(false);
    clock.advance(30_000);
    expect((await pending).success).toBe(true);
  });

  it('refused stops listening until turned off', async () => {
    await sim.setFault('refused', true);
    await expect(post(sim, sale(100))).rejects.toThrow();
    await sim.setFault('refused', false);
    expect((await post(sim, sale(100))).success).toBe(true);
  });

  it('garbage answers 200 with an HTML page and carries nothing out', async () => {
    await sim.setFault('garbage', true);
    const res = await fetch(`${sim.url}/xml/printer.htm`, {
      method: 'POST',
      headers: { Authorization: basic(SERIAL, SERIAL) },
      body: sale(100),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/<html/);
    expect(sim.printed).toEqual([]);
  });

  it('tells onHandled listeners each request before its answer, so a test can fault the next one', async () => {
    const seen: string[] = [];
    const off = sim.onHandled((r) => {
      seen.push(`${r.root}:${r.printed}`);
      void sim.setFault('paperOut', true);
    });
    await post(sim, sale(100));
    off();
    expect(await post(sim, sale(100))).toMatchObject({ success: false, status: 16 });
    expect(seen).toEqual(['printerFiscalReceipt:true']);
    expect(sim.requests).toEqual(['printerFiscalReceipt', 'printerFiscalReceipt']);
  });

  it('handles overlapping requests one at a time, in arrival order (DIO p.20)', async () => {
    const answers = await Promise.all([post(sim, sale(100)), post(sim, sale(200)), post(sim, sale(300))]);
    expect(answers.every((a) => a.success)).toBe(true);
    expect(sim.printed.map((d) => d.doc).sort()).toEqual([1, 2, 3]);
    expect(new Set(answers.map((a) => a.info.fiscalDoc)).size).toBe(3);
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
