import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RCH_CODE, type RchRtSimulator } from '../../../drivers/rch-rt/simulator/index.js';
import type { ManualClock } from '../../../src/clock.js';
import { eventually } from '../../helpers/eventually.js';
import { each, post, sale, startSim, status } from './client.js';

let sim: RchRtSimulator;
let clock: ManualClock;

beforeEach(async () => {
  ({ sim, clock } = await startSim({ lastZ: 1160 }));
});
afterEach(async () => {
  await sim.close();
});

describe('RCH simulator: printer conditions (answer flags: lyancoder xml-RCH-http.ts, optyker Parse-Rch; codes inferred)', () => {
  it.each([
    ['paperOut', 'paperEnd', RCH_CODE.paperEnd],
    ['coverOpen', 'coverOpen', RCH_CODE.coverOpen],
    ['printerError', 'printerError', RCH_CODE.printerError],
  ] as const)(
    '%s: %s 1 in every answer, printing refused with the document left open, queries answered',
    async (fault, flag, code) => {
      await post(sim, ['=R1/$500/(PANE)']);
      sim.setFault(fault, true);
      expect(await post(sim, ['=T1'])).toMatchObject({ errorCode: code, lastCmd: 0, [flag]: true });
      expect(await post(sim, ['<</?s'])).toMatchObject({ errorCode: 0, lastCmd: 1, [flag]: true });
      expect((await post(sim, ['=C2'])).errorCode).toBe(RCH_CODE.documentOpen);
      expect(await status(sim)).toMatchObject({ idleState: '1' });
      sim.setFault(fault, false);
      expect(await post(sim, ['=T1'])).toMatchObject({ errorCode: 0, [flag]: false });
      expect(sim.documents.map((d) => d.totalCents)).toEqual([500]);
    },
  );

  it('busy: every request answered busy 1, lastCmd 0 and not carried out, to be sent again (WS manual V5 §3)', async () => {
    sim.setFault('busy', true);
    expect(await post(sim, sale(100))).toMatchObject({ busy: true, errorCode: 0, lastCmd: 0 });
    expect(await post(sim, ['<</?s'])).toMatchObject({ busy: true, lastCmd: 0 });
    expect(sim.documents).toEqual([]);
    sim.setFault('busy', false);
    expect(await post(sim, sale(100))).toMatchObject({ busy: false, lastCmd: 2 });
  });
});

describe('RCH simulator: one request at a time, slow and lost answers', () => {
  it('answers busy to a request arriving while another is handled (slow), and runs the first before its late answer (WS manual V5 §3)', async () => {
    sim.setFault('slow', { ms: 1000 });
    const first = post(sim, sale(700));
    await eventually('the first answer held on the clock', () => clock.pending > 0);
    expect(sim.documents.map((d) => d.totalCents)).toEqual([700]);
    expect(await post(sim, ['<</?s'])).toMatchObject({ busy: true, lastCmd: 0 });
    clock.advance(1000);
    expect(await first).toMatchObject({ errorCode: 0, lastCmd: 2, busy: false });
    sim.setFault('slow', false);
    expect((await status(sim)).lastDocF).toBe('1');
  });

  it('dropAfterPrint: the document prints, the connection closes without an answer; a request that prints nothing is answered', async () => {
    sim.setFault('dropAfterPrint', true);
    expect((await post(sim, ['=R1/$300/(A)'])).lastCmd).toBe(1);
    await expect(post(sim, ['=T1'])).rejects.toThrow();
    expect(sim.documents).toHaveLength(1);
    sim.setFault('dropAfterPrint', false);
    const read = await post(sim, ['=C3', '=C453/$0', '=C1']);
    expect(read.journal).toMatch(/^\s*DOCUMENTO N\. 1161-0001\s*$/m);
  });

  it('loseAnswer: a request that changes the printer is carried out and never answered, until the client gives up; queries still answer', async () => {
    sim.setFault('loseAnswer', true);
    const giveUp = new AbortController();
    const lostLine = post(sim, ['=R1/$900/(A)'], giveUp.signal);
    await eventually('the line taken', () => sim.condition.open === 'web-service');
    expect(await status(sim)).toMatchObject({ idleState: '1', lastDocF: '0' });
    const lostPayment = post(sim, ['=T1'], giveUp.signal);
    await eventually('the sale printed', () => sim.documents.length === 1);
    expect(await status(sim)).toMatchObject({ idleState: '0', lastDocF: '1' });
    giveUp.abort();
    await expect(lostLine).rejects.toThrow();
    await expect(lostPayment).rejects.toThrow();
  });

  it('lets a test flip a fault from onHandled, before the answer goes out, for the next exchange', async () => {
    const seen: Array<[boolean, number]> = [];
    const off = sim.onHandled((r) => {
      seen.push([r.printed, r.lastCmd]);
      if (r.printed) sim.setFault('busy', true);
    });
    expect((await post(sim, sale(100))).busy).toBe(false);
    expect((await post(sim, ['<</?s'])).busy).toBe(true);
    off();
    expect(seen).toEqual([
      [true, 2],
      [false, 0],
    ]);
  });
});

describe('RCH simulator: reboot and another till (inferred behaviour)', () => {
  it('reboot keeps the counters, journal and totals, cancels the open document unnumbered, returns to REG', async () => {
    await each(sim, sale(1250));
    await post(sim, ['=R1/$400/(APERTO)']);
    sim.setFault('paperOut', true);
    await sim.reboot();
    expect(sim.counters).toEqual({ lastZ: 1160, z: 1161, doc: 1, nonFiscal: 0, dayOpen: true });
    expect(sim.documents.map((d) => [d.kind, d.number])).toEqual([
      ['sale', 1],
      ['cancelled', 0],
    ]);
    expect(sim.journal).toHaveLength(1);
    expect(await post(sim, ['<</?s'])).toMatchObject({
      paperEnd: true,
      status: { mode: 'REG', idleState: '0' },
    });
    sim.setFault('paperOut', false);
    await post(sim, ['=C3']);
    await sim.reboot();
    expect(sim.condition).toEqual({ key: 'REG' });
    await each(sim, sale(100));
    expect(sim.documents.at(-1)).toMatchObject({ z: 1161, number: 2 });
  });

  it('reboot refuses connections for its downtime on the simulator’s clock, and drops a held answer', async () => {
    sim.setFault('loseAnswer', true);
    const held = post(sim, sale(100));
    await eventually('the sale printed', () => sim.documents.length === 1);
    const rebooting = sim.reboot(5000);
    await expect(held).rejects.toThrow();
    await eventually('the port closed', () => clock.pending > 0);
    await expect(post(sim, ['<</?s'])).rejects.toThrow();
    clock.advance(5000);
    await rebooting;
    sim.setFault('loseAnswer', false);
    expect((await status(sim)).lastDocF).toBe('1');
  });

  it('another till’s open document makes ours wait (busy), then takes its number when it ends', async () => {
    sim.setFault('otherTerminalDocument', { lines: [['BAR', 250]] });
    expect(await status(sim)).toMatchObject({ idleState: '1' });
    expect(sim.condition).toEqual({ key: 'REG', open: 'other-terminal' });
    expect(await post(sim, sale(1000))).toMatchObject({ busy: true, lastCmd: 0 });
    expect(await post(sim, ['=C3'])).toMatchObject({ busy: true, lastCmd: 0 });
    sim.setFault('otherTerminalDocument', false);
    expect(sim.documents[0]).toMatchObject({
      kind: 'sale',
      terminal: 'other-terminal',
      number: 1,
      totalCents: 250,
    });
    await each(sim, sale(1000));
    expect(sim.documents[1]).toMatchObject({ terminal: 'web-service', number: 2, totalCents: 1000 });
  });

  it('another till’s document can refuse ours instead, and end cancelled, unnumbered', async () => {
    sim.setFault('otherTerminalDocument', { answer: 'refuse', closeAs: 'cancelled' });
    expect(await post(sim, sale(1000))).toMatchObject({ errorCode: RCH_CODE.otherTerminal, lastCmd: 0 });
    sim.setFault('otherTerminalDocument', false);
    expect(sim.documents).toMatchObject([{ kind: 'cancelled', terminal: 'other-terminal', number: 0 }]);
    await each(sim, sale(1000));
    expect(sim.documents.at(-1)).toMatchObject({ number: 1 });
  });
});
