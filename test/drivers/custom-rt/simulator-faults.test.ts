import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CustomRtSimulator } from '../../../drivers/custom-rt/simulator/index.js';
import type { ManualClock } from '../../../src/clock.js';
import { basic, command, post, report, SERIAL, sale, startSim } from './simulator-client.js';

let sim: CustomRtSimulator;
let clock: ManualClock;

beforeEach(async () => {
  ({ sim, clock } = await startSim({ lastZ: 142 }));
});
afterEach(async () => {
  await sim.close();
});

const status = () => post(sim, command('<queryPrinterStatus></queryPrinterStatus>'));
const dio = (code: string, data = '') =>
  post(sim, command(`<directIO command="${code}" data="${data}"></directIO>`));

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

  it('still answers a refund check with the paper out: a check prints nothing (XML p.38)', async () => {
    await post(sim, sale(100));
    await sim.setFault('paperOut', true);
    const check = `<beginRtDocRefund docRefZ="0143" docRefNumber="0001" docDate="130326" checkOnly="1"/>`;
    expect((await post(sim, `<printerFiscalReceipt>${check}</printerFiscalReceipt>`)).info.responseBuf).toBe(
      '1',
    );
  });

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

  it('loseAnswer prints, then drops the connection; queries still answer, and lastIdCmd and 1017 tell what happened', async () => {
    await sim.setFault('loseAnswer', true);
    await expect(post(sim, sale(4200, 'C7'))).rejects.toThrow();
    expect(sim.printed).toHaveLength(1);
    expect((await status()).info.lastIdCmd).toEqual({ '@IdCmd': 'C7E', '#text': 'endFiscalReceipt' });
    expect((await dio('1017')).info.responseBuf).toBe('10171303261022000100000420010');
    await expect(post(sim, report('<printXReport/>'))).rejects.toThrow();
    expect(sim.printed.map((d) => d.kind)).toEqual(['sale', 'x-report']);
  });

  it.each([
    [54, 'fiscal closure necessary'],
    [84, 'SSL certificate expired'],
  ])('refuseDocuments refuses fiscal documents with %i (%s, XML-SG), reports still print', async (code) => {
    await sim.setFault('refuseDocuments', { status: code });
    expect(await post(sim, sale(100))).toMatchObject({ success: false, status: code });
    expect((await post(sim, report('<printXReport/>'))).success).toBe(true);
    expect(sim.counters.doc).toBe(0);
  });

  it('refuses a root the manual does not list even with no nodes (p.14), and a fiscal document it does not model', async () => {
    expect(await post(sim, '<printerCommands></printerCommands>')).toMatchObject({
      success: false,
      status: 3,
    });
    const invoice =
      '<printerFiscalDocument><beginFiscalDocument documentType="directInvoice"/></printerFiscalDocument>';
    expect(await post(sim, invoice)).toMatchObject({ success: false, status: 3 });
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
