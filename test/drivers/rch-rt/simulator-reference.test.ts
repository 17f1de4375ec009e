import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RCH_CODE, type RchRtSimulator } from '../../../drivers/rch-rt/simulator/index.js';
import { DAY_REF, each, post, startSim, status } from './client.js';

let sim: RchRtSimulator;

beforeEach(async () => {
  ({ sim } = await startSim({ lastZ: 1160 }));
  // The original: 1161-0001 of 12 September 2026, 10 € at 22 % and 5 € at 10 %.
  await each(sim, ['=R1/$1000/(GIACCA)', '=R2/$500/(CAFFE)', '=T4']);
});
afterEach(async () => {
  await sim.close();
});

describe('RCH simulator: voids by reference =k/&DDMMYY/[Z/]N (core returnReceipt; optyker FISCAL-EMISSION.md, protocol v14 p.24)', () => {
  it('prints the whole void with the one command, and the printer is idle after it (optyker tests/rch-emission.test.ps1)', async () => {
    expect(await post(sim, [`=k/&${DAY_REF}/[1161/]1`])).toMatchObject({ errorCode: 0, lastCmd: 1 });
    expect(await status(sim)).toMatchObject({ idleState: '0', lastDocF: '2' });
    expect(sim.documents[0]?.voided).toBe(true);
    expect(sim.documents[1]).toMatchObject({
      kind: 'void',
      z: 1161,
      number: 2,
      totalCents: 1500,
      vat: { 1: 1000, 2: 500 },
      reference: { date: DAY_REF, z: 1161, number: 1 },
    });
    const text = sim.journal[1]?.join('\n') ?? '';
    expect(text).toMatch(/DOCUMENTO COMMERCIALE DI ANNULLAMENTO/);
    expect(text).toMatch(/^Riferimento 1161-0001 del 12-09-2026$/m);
    // Inferred: a second void of the same document is refused, nothing printed.
    expect((await post(sim, [`=k/&${DAY_REF}/[1161/]1`])).errorCode).toBe(RCH_CODE.referenceSpent);
    expect(sim.documents).toHaveLength(2);
  });

  it('refuses a void of a document the journal does not hold: wrong number, Z or date (inferred code)', async () => {
    for (const ref of [`/&${DAY_REF}/[1161/]7`, `/&${DAY_REF}/[1160/]1`, '/&130926/[1161/]1']) {
      expect(await post(sim, [`=k${ref}`])).toMatchObject({
        errorCode: RCH_CODE.referenceUnknown,
        lastCmd: 0,
      });
    }
    expect((await post(sim, ['=k/&1209/[1161/]1'])).errorCode).toBe(RCH_CODE.invalidValue);
    expect(sim.documents).toHaveLength(1);
  });

  it('checks only with /*1, checks and prints with /*2 (core returnReceipt onlyCheck; the check’s answer is inferred)', async () => {
    expect(await post(sim, [`=k/&${DAY_REF}/[1161/]1/*1`])).toMatchObject({ errorCode: 0, lastCmd: 1 });
    expect((await post(sim, [`=k/&${DAY_REF}/[1161/]9/*1`])).errorCode).toBe(RCH_CODE.referenceUnknown);
    expect(sim.documents).toHaveLength(1);
    expect((await post(sim, [`=k/&${DAY_REF}/[1161/]1/*2`])).errorCode).toBe(0);
    expect(sim.documents.map((d) => d.kind)).toEqual(['sale', 'void']);
    expect((await post(sim, [`=k/&${DAY_REF}/[1161/]1/*1`])).errorCode).toBe(RCH_CODE.referenceSpent);
  });

  it('takes the printer’s own serial and refuses another’s (core returnReceipt serialNumber; inferred refusal)', async () => {
    expect((await post(sim, [`=k/&${DAY_REF}/[1161/]1/*1/(72XX9999999)`])).errorCode).toBe(
      RCH_CODE.referenceOtherDevice,
    );
    expect((await post(sim, [`=k/&${DAY_REF}/[1161/]1/(72MS 0012345)`])).errorCode).toBe(0);
  });
});

describe('RCH simulator: refunds by reference =r/&DDMMYY/[Z/]N (core returnGoods; rch-driver-js Driver.ts printReceipt)', () => {
  it('opens a refund for the returned lines, closed by its payment, on a later day (the reference names the original’s Z)', async () => {
    await post(sim, ['=C3', '=C10', '=C1']);
    const answers = await each(sim, [`=r/&${DAY_REF}/[1161/]1`, '=R1/$400/(GIACCA RESA)', '=T1']);
    expect(answers.map((a) => a.errorCode)).toEqual([0, 0, 0]);
    expect(sim.documents.at(-1)).toMatchObject({
      kind: 'refund',
      z: 1162,
      number: 1,
      totalCents: 400,
      vat: { 1: 400 },
      reference: { date: DAY_REF, z: 1161, number: 1 },
    });
    expect(sim.documents[0]?.refunded).toEqual({ 1: 400 });
    expect(sim.journal.at(-1)?.join('\n')).toMatch(/DOCUMENTO COMMERCIALE DI RESO/);
  });

  it('refuses a refund beyond what is left at a VAT rate, then a void of a refunded sale (inferred)', async () => {
    await each(sim, [`=r/&${DAY_REF}/[1161/]1/*2`, '=R1/$600/(PARTE)', '=T1']);
    const more = await each(sim, [`=r/&${DAY_REF}/[1161/]1`, '=R1/$500/(TROPPO)']);
    expect(more.map((a) => a.errorCode)).toEqual([0, RCH_CODE.refundExceeds]);
    expect((await post(sim, ['=R2/$500/(CAFFE)', '=R1/$400/(RESTO)', '=T1'])).lastCmd).toBe(3);
    expect((await post(sim, [`=r/&${DAY_REF}/[1161/]1/*1`])).errorCode).toBe(RCH_CODE.referenceSpent);
    expect((await post(sim, [`=k/&${DAY_REF}/[1161/]1`])).errorCode).toBe(RCH_CODE.referenceSpent);
    expect(sim.documents.map((d) => [d.kind, d.totalCents])).toEqual([
      ['sale', 1500],
      ['refund', 600],
      ['refund', 900],
    ]);
  });

  it('carries a lottery code on a refund, which may be paid back in cash (rch-driver-js Driver.ts printReceipt; gutenbergPrinter-rch PrinterCommands.java printRecTotal)', async () => {
    const a = await post(sim, [
      `=r/&${DAY_REF}/[1161/]1`,
      '=R1/$1000/(GIACCA RESA)',
      '="/?L/$1/(AB12CD34)',
      '=T1',
    ]);
    expect(a).toMatchObject({ errorCode: 0, lastCmd: 4 });
    expect(sim.documents.at(-1)).toMatchObject({ kind: 'refund', totalCents: 1000, lottery: 'AB12CD34' });
    // A sale with a lottery code still takes no cash (inferred: the lottery is for electronic payments).
    const cash = await post(sim, ['=R1/$100/(PANE)', '="/?L/$1/(AB12CD34)', '=T1']);
    expect(cash).toMatchObject({ errorCode: RCH_CODE.lotteryNeedsElectronic, lastCmd: 2 });
  });

  it('refuses a refund of an unknown document, and any reference while a document is open (inferred codes)', async () => {
    expect((await post(sim, [`=r/&${DAY_REF}/[1161/]2`])).errorCode).toBe(RCH_CODE.referenceUnknown);
    await post(sim, ['=R1/$100/(APERTO)']);
    expect((await post(sim, [`=r/&${DAY_REF}/[1161/]1`])).errorCode).toBe(RCH_CODE.documentOpen);
    expect((await post(sim, [`=k/&${DAY_REF}/[1161/]1`])).errorCode).toBe(RCH_CODE.documentOpen);
  });
});
