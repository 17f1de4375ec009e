import { describe, expect, it } from 'vitest';
import { decide } from '../../../drivers/fiscal-it/rt/witnesses.js';
import { rchText, refundOpen, voidOf } from '../../../drivers/rch-rt/commands.js';
import { readJournalDocument, voidsReference } from '../../../drivers/rch-rt/journal.js';
import type { Evidence, PrinterState } from '../../../drivers/rch-rt/link.js';
import { rchResults } from '../../../drivers/rch-rt/messages.js';
import { markerOf } from '../../../drivers/rch-rt/receipt.js';
import { parseAnswer } from '../../../drivers/rch-rt/service.js';
import { type Baseline, rchWitnesses, type SentDocument } from '../../../drivers/rch-rt/witnesses.js';

/**
 * RCH's answers, journal and witnesses read from the sources' own samples, without a printer:
 * Leahcim12/optyker-web `tests/fixtures/rch-error-101.xml` (a real Print!F's refusal),
 * `tests/rch-auto-reference.test.ps1` (a sale's journal with a marker line) and
 * `tests/rch-annulli-offline-20260917.ps1` (a void's journal, synthetic).
 */

const ERROR_101 =
  '<?xml version="1.0" encoding="utf-8"?>\n<Service>\n<Request>\n<errorCode>101</errorCode>\n<printerError>0</printerError>\n<paperEnd>0</paperEnd>\n<coverOpen>0</coverOpen>\n<lastCmd>0</lastCmd>\n<busy>0</busy>\n</Request>\n</Service>\n';
const MARKER = 'OPTYKER 12345678123442348234123456789ABC';
const SALE_EJ = `ARTICOLO   4%   12,50\n${MARKER}\nRSSMRA80A01H501U\nTOTALE COMPLESSIVO 12,50\n13-09-2026 14:28\nDOCUMENTO N. 1162-0017\n*** 72IV6003831 ***\n`;
const VOID_EJ =
  'DOCUMENTO COMMERCIALE DI ANNULLAMENTO\nRiferimento 0001-0001 del 17-09-2026\nTEST000123\nTOTALE COMPLESSIVO 70,00\nDOCUMENTO N. 0001-0002\n17-09-2026 20:00\n';

describe('the web service’s answer (service.ts)', () => {
  it('reads a real refusal, the status under Service or Request, and refuses an answer missing a counter (optyker Parse-Rch)', () => {
    expect(parseAnswer(ERROR_101)).toMatchObject({
      errorCode: 101,
      lastCmd: 0,
      busy: false,
      paperEnd: false,
    });
    const status = ERROR_101.replace(
      '</Request>',
      '<ECRStatus><mode>REG (OP 1)</mode><idleState>0</idleState></ECRStatus></Request>',
    );
    expect(parseAnswer(status)?.status).toEqual({ mode: 'REG (OP 1)', idleState: 0 });
    expect(parseAnswer(ERROR_101.replace('<busy>0</busy>', ''))).toBeUndefined();
    expect(parseAnswer('<html>login</html>')).toBeUndefined();
  });
});

describe('the journal’s last document (journal.ts)', () => {
  it('reads a sale’s number, date, total and marker line, and a void’s original', () => {
    const sale = readJournalDocument(SALE_EJ);
    expect(sale).toMatchObject({
      number: { z: 1162, doc: 17 },
      dateTime: '2026-09-13T14:28',
      totalCents: 1250,
    });
    expect(sale !== 'empty' && sale?.lines).toContain(MARKER);
    const voided = readJournalDocument(VOID_EJ);
    if (!voided || voided === 'empty') throw new Error('void unreadable');
    const original = { kind: 'VOID' as const, z: 1, doc: 1, date: '17092026', serial: 'TEST000123' };
    expect(voidsReference(voided, original)).toBe(true);
    expect(voidsReference(voided, { ...original, doc: 99 })).toBe(false);
  });

  it('takes no document whose number or total is not single, and tells an empty journal apart', () => {
    expect(readJournalDocument(`${SALE_EJ}DOCUMENTO N. 1162-0018\n`)).toBeUndefined();
    expect(readJournalDocument(SALE_EJ.replace('DOCUMENTO N.', 'DOC. ALTRO N.'))).toBeUndefined();
    expect(readJournalDocument('  \n')).toBe('empty');
  });
});

const words = {
  noWitness: () => rchResults.memoryUnreadable(),
  disagree: () => rchResults.memoryDisagrees(),
};
const sent: SentDocument = { commands: 4, beforePayment: 3, marker: MARKER, expectedCents: 1250 };
const baseline: Baseline = { z: 1161, doc: 16, journal: null };
const state = (z?: number, doc?: number, idle = true): PrinterState => ({
  mode: 'REG',
  idle,
  ...(z === undefined ? {} : { z }),
  ...(doc === undefined ? {} : { doc }),
  paperEnd: false,
  coverOpen: false,
  printerError: false,
  read: 'test',
});
const journal = (text: string): Evidence['journal'] => {
  const document = readJournalDocument(text);
  return document ? { kind: 'read', document } : { kind: 'unreadable', what: 'test' };
};
const outcome = (b: Baseline | null, evidence: Evidence, lastCmd?: number) => {
  const reading = rchWitnesses(sent, b, evidence, lastCmd);
  return decide(reading.witnesses, reading.document, words);
};

describe('the three witnesses (witnesses.ts), decided by the kit', () => {
  it('a lost answer: the counters moved by one and the journal’s last document prints our marker → printed, with its numbers', () => {
    const decision = outcome(baseline, { state: state(1161, 17), journal: journal(SALE_EJ) });
    expect(decision).toMatchObject({ outcome: 'printed', document: { z: 1162, doc: 17, totalCents: 1250 } });
  });

  it.each([
    [
      'the counters moved by one, the journal’s last document is not ours',
      state(1161, 17),
      SALE_EJ.replace(MARKER, 'OTHER'),
      'unknown',
    ],
    ['the counters moved by two', state(1161, 18), SALE_EJ, 'unknown'],
    ['our marker, but another total', state(1161, 17), SALE_EJ.replace(/12,50/g, '13,50'), 'unknown'],
    [
      'nothing moved, the journal’s last document is the one before',
      state(1161, 16),
      SALE_EJ.replace(MARKER, 'X').replace('0017', '0016'),
      'not-printed',
    ],
    ['nothing moved, but the journal cannot be read', state(1161, 16), 'garbage', 'unknown'],
  ] as const)('%s → %s', (_what, now, text, expected) => {
    expect(outcome(baseline, { state: now, journal: journal(text) }).outcome).toBe(expected);
  });

  it('lastCmd: all commands ran → printed; stopped before the payments → not printed, our document open; after a payment → silent', () => {
    const open = {
      state: state(1161, 16, false),
      journal: { kind: 'not-read', why: 'document-open' },
    } as const;
    expect(rchWitnesses(sent, baseline, open, 2)).toMatchObject({ ownDocumentOpen: true });
    expect(outcome(baseline, open, 2).outcome).toBe('not-printed');
    expect(rchWitnesses(sent, baseline, open, 4).witnesses[0]?.verdict).toBe('printed');
    const paying = { ...sent, commands: 5 };
    expect(rchWitnesses(paying, baseline, open, 4).witnesses[0]?.verdict).toBe('silent');
  });

  it('a firmware without lastDocF: the counters are silent and the journal’s fingerprint before the document decides', () => {
    const before = readJournalDocument(SALE_EJ.replace(MARKER, 'X'));
    if (!before || before === 'empty') throw new Error('unreadable');
    const bare: Baseline = { z: null, doc: null, journal: before.fingerprint };
    const unchanged = { state: state(), journal: journal(SALE_EJ.replace(MARKER, 'X')) };
    expect(rchWitnesses(sent, bare, unchanged, undefined).witnesses[1]?.verdict).toBe('silent');
    expect(outcome(bare, unchanged).outcome).toBe('not-printed');
    expect(outcome(bare, { state: state(), journal: journal(SALE_EJ) }).outcome).toBe('printed');
    expect(outcome(bare, { state: state(), journal: journal(VOID_EJ) }).outcome).toBe('unknown');
  });
});

describe('the commands (commands.ts, rch-driver-js-core Core.ts)', () => {
  it('writes texts the grammar cannot misread, a reference with its check, and another RCH printer’s serial', () => {
    expect(rchText('Caffè (doppio) 1/2 ümlaut and more text')).toBe('Caffe doppio 1 2 uml');
    const ref = { kind: 'VOID' as const, z: 27, doc: 16, date: '18092023', serial: '72MS0012345' };
    expect(voidOf(ref, '72MS0012345')).toBe('=k/&180923/[27/]16');
    expect(voidOf({ ...ref, serial: '72AB7654321' }, '72MS0012345', true)).toBe(
      '=k/&180923/[27/]16/*1/(72AB7654321)',
    );
    expect(refundOpen(ref, true)).toBe('=r/&180923/[27/]16/*1');
    expect(markerOf('cmd-1', 2)).toMatch(/^RIF\. [0-9A-F]{12}2$/);
    expect(markerOf('cmd-1', 2)).not.toBe(markerOf('cmd-2', 2));
  });
});
