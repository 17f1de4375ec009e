import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RCH_CODE, type RchRtSimulator } from '../../../drivers/rch-rt/simulator/index.js';
import { each, post, sale, startSim, status } from './client.js';

let sim: RchRtSimulator;

beforeEach(async () => {
  ({ sim } = await startSim({ lastZ: 1160 }));
});
afterEach(async () => {
  await sim.close();
});

const marker = 'FD 7F3A9C21';

describe('RCH simulator: keys, X and Z (rch-driver-js-core reg()…srv(), xReport/zReport; rch-driver-js Driver.ts)', () => {
  it('prints an X report under =C2 =C10 and leaves the counters alone', async () => {
    await each(sim, sale(1250));
    expect(await post(sim, ['=C2', '=C10', '=C1'])).toMatchObject({ errorCode: 0, lastCmd: 3 });
    expect(sim.reports).toHaveLength(1);
    expect(sim.reports[0]).toMatchObject({ kind: 'x-report', totals: { sales: { count: 1, cents: 1250 } } });
    expect(sim.counters).toMatchObject({ lastZ: 1160, doc: 1, dayOpen: true });
    expect(sim.journal.at(-1)?.join('\n')).toMatch(/^LETTURA GIORNALIERA$/m);
  });

  it('closes the day under =C3 =C10: Z counter + 1, numbering from 1 again (gutenbergPrinter-rch PrinterCommands printZReport)', async () => {
    await each(sim, sale(1250));
    await each(sim, sale(300));
    expect(await post(sim, ['=C3', '=C10', '=C1'])).toMatchObject({ errorCode: 0, lastCmd: 3 });
    expect(sim.reports.at(-1)).toMatchObject({
      kind: 'z-report',
      z: 1161,
      totals: { sales: { count: 2, cents: 1550 }, vatSales: { 1: 1550 } },
    });
    expect(sim.counters).toEqual({ lastZ: 1161, z: 1162, doc: 0, nonFiscal: 1, dayOpen: false });
    expect((await post(sim, ['<</?7'])).enq['7']).toBe('1161');
    expect(await status(sim)).toMatchObject({ lastZ: '1161', lastDocF: '0', mode: 'REG' });
    await each(sim, sale(100));
    expect(sim.documents.at(-1)).toMatchObject({ kind: 'sale', z: 1162, number: 1 });
    expect(sim.journal.at(-1)?.join('\n')).toMatch(/^DOCUMENTO N\. 1162-0001$/m);
  });

  it('refuses a Z with no document since the last one, =C10 under REG, a sale under Z, and a key change with a document open (inferred codes)', async () => {
    expect(await post(sim, ['=C3', '=C10'])).toMatchObject({ errorCode: RCH_CODE.noOpenDay, lastCmd: 1 });
    expect((await post(sim, ['=R1/$100/(X)'])).errorCode).toBe(RCH_CODE.wrongKey);
    expect((await post(sim, ['=C1', '=C10'])).errorCode).toBe(RCH_CODE.wrongKey);
    await post(sim, ['=R1/$100/(X)']);
    expect(await post(sim, ['=C3'])).toMatchObject({ errorCode: RCH_CODE.documentOpen, lastCmd: 0 });
    expect(sim.reports).toEqual([]);
    expect(sim.condition).toEqual({ key: 'REG', open: 'web-service' });
  });
});

describe('RCH simulator: the journal read =C453/$0 under both key modes the sources disagree on', () => {
  beforeEach(async () => {
    await each(sim, ['=R1/$1250/(OCCHIALI)', `="/?A/(${marker})`, '=T4']);
  });

  it('reads the last document under Z, =C3 then =C1 (optyker Read-PrintedReceipt; gutenbergPrinter-rch getReceiptFromEj)', async () => {
    const a = await post(sim, ['=C3', '=C453/$0', '=C1']);
    expect(a).toMatchObject({ errorCode: 0, lastCmd: 3 });
    expect(a.journal).toMatch(new RegExp(`^\\s*${marker}\\s*$`, 'm'));
    expect(a.journal).toMatch(/^\s*DOCUMENTO N\. 1161-0001\s*$/m);
    expect(a.journal).toMatch(/^TOTALE COMPLESSIVO\s+12,50$/m);
    expect(a.journal).toContain('72MS0012345');
  });

  it('reads the last document under PRG, =C4 then =C1 (rch-driver-js Driver.ts getLastReceipt)', async () => {
    const a = await post(sim, ['=C4', '=C453/$0', '=C1']);
    expect(a).toMatchObject({ errorCode: 0, lastCmd: 3 });
    expect(a.journal).toBe(sim.journal.at(-1)?.join('\n'));
  });

  it('refuses the read under REG or X (inferred: both sources change key first), and reads nothing printed', async () => {
    expect(await post(sim, ['=C453/$0'])).toMatchObject({ errorCode: RCH_CODE.wrongKey, lastCmd: 0 });
    expect(await post(sim, ['=C2', '=C453/$0'])).toMatchObject({ errorCode: RCH_CODE.wrongKey, lastCmd: 1 });
    expect((await post(sim, ['=C3', '=C453/$1'])).errorCode).toBe(RCH_CODE.invalidCommand);
    expect(sim.documents).toHaveLength(1);
  });

  it('shows the daily closure as the last document once the day is closed (inferred)', async () => {
    await post(sim, ['=C3', '=C10']);
    const a = await post(sim, ['=C453/$0']);
    expect(a.journal).toMatch(/^CHIUSURA GIORNALIERA N\. 1161$/m);
  });
});
