import { describe, expect, it } from 'vitest';
import { idCmds } from '../../../drivers/custom-rt/idcmd.js';
import { parseLastDocument } from '../../../drivers/custom-rt/last-document.js';
import type { Counters } from '../../../drivers/custom-rt/link.js';
import { customWitnesses, isOwnId } from '../../../drivers/custom-rt/witnesses.js';
import { rtKitWords } from '../../../drivers/fiscal-it/rt/messages.js';
import { decide } from '../../../drivers/fiscal-it/rt/witnesses.js';

/**
 * directIO 1017 as Custom's native manual lays it out (directIO manual rev 6.00 p.40: a 4-byte
 * echo, then DDMMYY HHmm, number 4, total 9, type 1, state 1) and as fiskaltrust reads it (from
 * offset 0: `CustomRTPrinterSCU.GetLastFiscalDocAsync`); the worked example is research §7.4.
 */
describe('directIO 1017', () => {
  it('reads the manual’s layout with the echo', () => {
    expect(parseLastDocument('10171303261022001200001250010')).toEqual({
      dateTime: '2026-03-13T10:22',
      doc: 12,
      totalCents: 12500,
      type: 'fiscal',
      cancelled: false,
      layout: 'echo',
    });
  });

  it('reads the echo-less layout fiskaltrust assumes, and takes no Z number from either', () => {
    const doc = parseLastDocument('1303261022001200001250010');
    expect(doc).toMatchObject({ doc: 12, totalCents: 12500, layout: 'no-echo' });
    expect(doc).not.toHaveProperty('z');
  });

  it.each([
    '',
    '1017',
    '10179903261022001200001250010',
    '13032610220012000012500x0',
    '1303261022001200001250092',
  ])('refuses %j', (buffer) => expect(parseLastDocument(buffer)).toBeUndefined());
});

describe('IdCmd', () => {
  it('is the command id when it is short and alphanumeric, else a hash; at most 33 characters', () => {
    expect(idCmds('C', 'sale1', 1)).toEqual({ begin: 'Csale11B', end: 'Csale11E' });
    const long = idCmds('R', 'd117866d-78de-4459-9077-42d7ea0120e3', 12);
    expect(long.begin).toMatch(/^R[0-9a-f]{30}2B$/);
    expect(long.end.length).toBeLessThanOrEqual(36);
  });

  it('tells the agent’s own ids (any attempt of this command) from another till’s', () => {
    const ids = idCmds('C', 'a', 1);
    expect(isOwnId(ids.end, ids)).toBe(true);
    expect(isOwnId(idCmds('C', 'a', 2).begin, ids)).toBe(true);
    expect(isOwnId('Cb1E', ids)).toBe(false);
    expect(isOwnId(undefined, ids)).toBe(false);
  });
});

describe('deciding a lost answer', () => {
  const ids = idCmds('C', 'x', 1);
  const baseline = { zDone: 4, doc: 7, dateTime: '2026-03-13T10:00' };
  const last = (doc: number, totalCents = 500) => ({
    dateTime: `2026-03-13T10:${String(doc).padStart(2, '0')}`,
    doc,
    totalCents,
    type: 'fiscal' as const,
    cancelled: false,
    layout: 'echo' as const,
  });
  const at = (o: Partial<Counters>): Counters => ({
    zDone: 4,
    last: { ...last(7), dateTime: '2026-03-13T10:00' },
    lastRaw: '1017…',
    lastIdCmd: 'Cprev1E',
    documentOpen: false,
    serial: undefined,
    ...o,
  });

  it.each([
    ['our end ID and the next document', at({ lastIdCmd: ids.end, last: last(8) }), 'printed'],
    // Issue 42: a witness that cannot be read is unknown, even beside our end ID.
    ['our end ID, counters unread', at({ lastIdCmd: ids.end, zDone: undefined }), 'unknown'],
    // Issue 42: our end ID last while the document is still open was never closed.
    ['our end ID, the document still open', at({ lastIdCmd: ids.end, documentOpen: true }), 'not-printed'],
    // Issue 42: after a power cut the ID is gone; an unreadable 1017 is unknown, never "not printed".
    ['no ID, 1017 unreadable', at({ lastIdCmd: undefined, last: 'unreadable' }), 'unknown'],
    ['another ID, counters unmoved', at({}), 'not-printed'],
    ['our begin ID, a document open', at({ lastIdCmd: ids.begin, documentOpen: true }), 'not-printed'],
    ['another ID, counters moved', at({ last: last(8) }), 'unknown'],
    ['no ID at all, the next document of our total', at({ lastIdCmd: undefined, last: last(8) }), 'printed'],
    ['no ID at all, another total', at({ lastIdCmd: undefined, last: last(8, 1) }), 'unknown'],
    ['our begin ID, counters moved', at({ lastIdCmd: ids.begin, last: last(8) }), 'unknown'],
  ])('%s → %s', (_what, counters, outcome) => {
    expect(decision(baseline, counters).outcome).toBe(outcome);
  });

  it('without a baseline nothing is proven: the counters witness cannot speak', () => {
    expect(decision(null, at({})).outcome).toBe('unknown');
    expect(decision(null, at({ lastIdCmd: ids.end })).outcome).toBe('unknown');
  });

  function decision(b: typeof baseline | null, counters: Counters) {
    const reading = customWitnesses({ ids, expectedCents: 500 }, b, counters);
    return decide(reading.witnesses, reading.document, {
      noWitness: () => rtKitWords.noWitness(),
      disagree: () => rtKitWords.witnessesDisagree(),
    });
  }
});
