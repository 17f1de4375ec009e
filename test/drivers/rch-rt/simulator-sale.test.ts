import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RCH_CODE, type RchRtSimulator } from '../../../drivers/rch-rt/simulator/index.js';
import { each, post, postRaw, startSim, status } from './client.js';

let sim: RchRtSimulator;

beforeEach(async () => {
  ({ sim } = await startSim({ lastZ: 1160 }));
});
afterEach(async () => {
  await sim.close();
});

describe('RCH simulator: sales (rch-driver-js-core src/Core.ts; optyker-web rch-connector/)', () => {
  it('prints a sale at two VAT rates paid in two forms, one command per request, each answered lastCmd 1 (optyker Aggiorna-RCH-POS.ps1 mixed payment)', async () => {
    const answers = await each(sim, [
      '=R1/$1250/*1/(OCCHIALI)',
      '=R2/$150/*2/(CAFFE)',
      '=T1/$1000/(CONTANTI)',
      '=T4/$550/(CARTA)',
    ]);
    expect(answers.map((a) => [a.errorCode, a.lastCmd, a.busy])).toEqual(Array(4).fill([0, 1, false]));
    // Documents belong to the closure after the last one (lyancoder README "lastZ + 1"), numbered from 1.
    expect(sim.documents).toHaveLength(1);
    expect(sim.documents[0]).toMatchObject({
      kind: 'sale',
      z: 1161,
      number: 1,
      totalCents: 1550,
      vat: { 1: 1250, 2: 300 },
      changeCents: 0,
      payments: [
        { form: 1, description: 'CONTANTI', kind: 'cash', amountCents: 1000 },
        { form: 4, description: 'CARTA', kind: 'electronic', amountCents: 550 },
      ],
    });
    expect(
      sim.documents[0]?.lines.map((l) => [l.description, l.quantity, l.unitPriceCents, l.amountCents]),
    ).toEqual([
      ['OCCHIALI', 1, 1250, 1250],
      ['CAFFE', 2, 150, 300],
    ]);
    // The payment that reaches the total closes the document: the printer is idle again (optyker Emit-Receipt).
    expect(await status(sim)).toMatchObject({ mode: 'REG', idleState: '0', lastZ: '1160', lastDocF: '1' });
    const journal = sim.journal[0]?.join('\n') ?? '';
    expect(journal).toMatch(/^\s*DOCUMENTO COMMERCIALE\s*$/m);
    expect(journal).toMatch(/^TOTALE COMPLESSIVO\s+15,50$/m);
    expect(journal).toMatch(/^\s*DOCUMENTO N\. 1161-0001\s*$/m);
    expect(journal).toMatch(/^12-09-2026 10:30$/m);
  });

  it('runs lyancoder’s three commands in one request and counts them in lastCmd (lyancoder README, xml-RCH-http.ts)', async () => {
    const a = await post(sim, ['=R1/$200/(DOLCE)', '=R2/$100/*2/(CAFFE)', '=T1']);
    expect(a).toMatchObject({ httpStatus: 200, errorCode: 0, lastCmd: 3, busy: false, paperEnd: false });
    expect(sim.documents[0]).toMatchObject({ totalCents: 400, vat: { 1: 200, 2: 200 } });
  });

  it('stops a request at the first refusal, counting the commands before it and leaving the document open (WS manual V5 §3)', async () => {
    const a = await post(sim, ['=R1/$500/(PANE)', '=R9/$100/(NESSUNO)', '=T1']);
    expect(a).toMatchObject({ errorCode: RCH_CODE.departmentUnknown, lastCmd: 1 });
    expect(await status(sim)).toMatchObject({ idleState: '1' });
    expect((await post(sim, ['=T99'])).errorCode).toBe(RCH_CODE.paymentUnknown);
    expect((await post(sim, ['=R1/(SENZA PREZZO)'])).errorCode).toBe(RCH_CODE.invalidValue);
    expect((await post(sim, ['=Z7', '=T1'])).errorCode).toBe(RCH_CODE.invalidCommand);
    expect(await post(sim, ['=T1'])).toMatchObject({ errorCode: 0, lastCmd: 1 });
    expect(sim.documents.map((d) => d.totalCents)).toEqual([500]);
  });

  it('prints the customer’s codice fiscale or partita IVA (core printFiscalCode; optyker sends it before the payment)', async () => {
    await each(sim, ['=R1/$1250/*1/(ARTICOLO)', '="/?C/(RSSMRA80A01H501U)', '=T4']);
    await each(sim, ['=R1/$100/(ALTRO)', '="/?C/(01234567890)', '=T4']);
    expect(sim.documents.map((d) => d.customerId)).toEqual(['RSSMRA80A01H501U', '01234567890']);
    expect(sim.journal[0]?.join('\n')).toContain('RSSMRA80A01H501U');
    // Inferred: a code of neither shape is refused, the document stays open.
    const bad = await each(sim, ['=R1/$100/(X)', '="/?C/(RSSMRA80)']);
    expect(bad.at(-1)).toMatchObject({ errorCode: RCH_CODE.invalidValue, lastCmd: 0 });
    expect((await post(sim, ['=a'])).errorCode).toBe(0);
    expect(sim.documents.at(-1)).toMatchObject({ kind: 'cancelled', number: 0 });
  });

  it('prints the lottery code with an electronic payment, refuses it with cash (core lottery; inferred refusal)', async () => {
    await each(sim, ['=R2/$800/(PIZZA)', '="/?L/$1/(ABCD1234)', '=T4']);
    expect(sim.documents[0]).toMatchObject({ lottery: 'ABCD1234', totalCents: 800 });
    expect(sim.journal[0]?.join('\n')).toContain('ABCD1234');
    const cash = await each(sim, ['=R2/$800/(PIZZA)', '="/?L/$1/(ABCD1234)', '=T1']);
    expect(cash.at(-1)?.errorCode).toBe(RCH_CODE.lotteryNeedsElectronic);
    expect((await post(sim, ['="/?L/$1/(SHORT)'])).errorCode).toBe(RCH_CODE.invalidValue);
  });

  it('prints a marker text alone on its journal line, so it can be found again (optyker Parse-ReceiptJournal)', async () => {
    const marker = 'OPTYKER 0123456789ABCDEF0123456789ABCDEF';
    await each(sim, ['=R1/$300/(CAFFE)', `="/?A/(${marker})`, '=T1']);
    expect(sim.journal[0]?.join('\n')).toMatch(new RegExp(`^\\s*${marker}\\s*$`, 'm'));
  });

  it('discounts a line, the subtotal and a department; a 100 % subtotal discount makes a zero receipt (core discount…, optyker =S =%/*100, gutenbergPrinter-rch =U)', async () => {
    await each(sim, [
      '=R1/$1000/(A)',
      '=%-/*10/(SCONTO 10)',
      '=R2/$1000/(B)',
      '=U/*2/$100/(SCONTO REP)',
      '=S',
      '=V-/*180/(SCONTO SUB)',
      '=T1',
    ]);
    expect(sim.documents[0]).toMatchObject({ totalCents: 1620, vat: { 1: 810, 2: 810 } });
    await each(sim, ['=R1/$500/(OMAGGIO)', '=S', '=%/*100', '=T1']);
    expect(sim.documents[1]).toMatchObject({ totalCents: 0, payments: [{ amountCents: 0 }] });
    const over = await each(sim, ['=R1/$100/(X)', '=V-/*200']);
    expect(over.at(-1)?.errorCode).toBe(RCH_CODE.discountExceeds);
  });

  it('books a free line at nothing, voids the last line with =s, and cancels with =a (core departmentSell sellType, transfer, cancel)', async () => {
    await each(sim, ['=R1/$400/(A)', '=R2/$300/&1/(OMAGGIO)', '=R1/$200/(B)', '=s', '=T4']);
    expect(sim.documents[0]).toMatchObject({ totalCents: 400, vat: { 1: 400 } });
    expect(sim.documents[0]?.lines.map((l) => [l.kind, l.amountCents])).toEqual([
      ['sale', 400],
      ['free', 0],
      ['sale', 200],
      ['line-void', -200],
    ]);
    expect((await post(sim, ['=a'])).errorCode).toBe(RCH_CODE.noDocument);
  });

  it('prints a non-fiscal document between two =o, numbered apart (core openNonFiscalReceipt; idleState 3 inferred)', async () => {
    await post(sim, ['=o', '="/(PRENOTAZIONE 42)']);
    expect(await status(sim)).toMatchObject({ idleState: '3' });
    expect((await post(sim, ['=R1/$100/(X)'])).errorCode).toBe(RCH_CODE.documentOpen);
    await post(sim, ['=o', '=c', '=x', '=K']);
    expect(sim.documents).toMatchObject([
      { kind: 'non-fiscal', number: 1, lines: [{ description: 'PRENOTAZIONE 42' }] },
    ]);
    expect(await status(sim)).toMatchObject({ idleState: '0', lastDocNF: '1', lastDocF: '0' });
    expect((await post(sim, ['<</?N'])).enq.N).toBe('0001');
  });

  it('gives change from cash only (optyker rch-preflight.js: only Contanti allows change; inferred refusal)', async () => {
    await each(sim, ['=R1/$1250/(A)', '=T1/$2000']);
    expect(sim.documents[0]).toMatchObject({ totalCents: 1250, changeCents: 750 });
    const card = await each(sim, ['=R1/$1250/(A)', '=T4/$2000']);
    expect(card.at(-1)?.errorCode).toBe(RCH_CODE.paymentExceeds);
  });

  it('answers the queries: serial, clock, closures, RT state, subtotal; 101 to `</?i/*4` with lastCmd 0 as a real Print!F did (optyker FISCAL-CONNECTION.md)', async () => {
    await post(sim, ['=R1/$700/(A)']);
    const a = await post(sim, ['<</?m', '<</?d', '<</?7', '<</?i/*3', '<</?S', '<</?f']);
    expect(a.lastCmd).toBe(6);
    expect(a.enq).toMatchObject({
      m: '72MS0012345',
      d: '12/09/2026 10:30:00',
      '7': '1160',
      'i/*3': '111000',
      S: '700',
    });
    expect(await post(sim, ['</?i/*4'])).toMatchObject({ errorCode: 101, lastCmd: 0 });
    expect(await post(sim, ['<</?q'])).toMatchObject({ errorCode: 101, lastCmd: 0 });
  });

  it('answers a body that is not <Service><cmd> with an error and runs nothing (inferred code)', async () => {
    const res = await postRaw(`${sim.url}/service.cgi`, '<Other/>');
    expect(res.type).toBe('application/xml');
    expect(res.text).toContain(`<errorCode>${RCH_CODE.malformedRequest}</errorCode>`);
    expect((await postRaw(`${sim.url}/other.cgi`, '')).status).toBe(404);
  });
});

describe('RCH simulator: the advance and voucher lines (core departmentSell; gutenbergPrinter-rch PrinterCommands.java newModifierCommand, ej/FiscalEJ.java)', () => {
  it('takes an acconto (/&2) and a single-use voucher (/&3) off their department’s VAT slot, as the JavaPOS journal books them', async () => {
    const a = await post(sim, [
      '=R1/$2000/(GIACCA)',
      '=R2/$1000/(CAMERA)',
      '=R2/$400/&2/(ACCONTO)',
      '=R1/$500/&3/(BUONO MONOUSO)',
      '=T4',
    ]);
    expect(a).toMatchObject({ errorCode: 0, lastCmd: 5 });
    expect(sim.documents[0]).toMatchObject({ totalCents: 2100, vat: { 1: 1500, 2: 600 } });
    expect(sim.documents[0]?.lines.map((l) => [l.kind, l.amountCents])).toEqual([
      ['sale', 2000],
      ['sale', 1000],
      ['advance', -400],
      ['voucher', -500],
    ]);
    expect(sim.documents[0]?.payments).toEqual([expect.objectContaining({ form: 4, amountCents: 2100 })]);
  });

  it('refuses an advance beyond what its slot sold, and one that would open a document (inferred)', async () => {
    expect(await post(sim, ['=R2/$100/&2/(ACCONTO)'])).toMatchObject({
      errorCode: RCH_CODE.emptyDocument,
      lastCmd: 0,
    });
    expect(await post(sim, ['=R2/$1000/(CAMERA)', '=R2/$1001/&2/(ACCONTO)'])).toMatchObject({
      errorCode: RCH_CODE.discountExceeds,
      lastCmd: 1,
    });
  });
});
