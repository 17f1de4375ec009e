import { describe, expect, it } from 'vitest';
import { documentWords, failureMeaning } from '../../../drivers/epson-fpmate/answers.js';
import { readCheckpoint } from '../../../drivers/epson-fpmate/checkpoint.js';
import type { LastDocument } from '../../../drivers/epson-fpmate/last-document.js';
import { epsonAnswers } from '../../../drivers/epson-fpmate/messages.js';
import { epsonWitness } from '../../../drivers/epson-fpmate/witnesses.js';
import type { FpmateResponse } from '../../../drivers/epson-fpmate/xml-response.js';
import { rtKitWords } from '../../../drivers/fiscal-it/rt/messages.js';
import { decide } from '../../../drivers/fiscal-it/rt/witnesses.js';
import { english, messageRenderer } from '../../../src/messages/render.js';

const failure = (code: string, status = '0', printerStatus = '00110'): FpmateResponse => ({
  success: false,
  code,
  status,
  addInfo: { printerStatus },
});

describe('printer refusals → AgentError codes and receptionist Notes', () => {
  it.each([
    ['LAN_ERROR', '0', 'DEVICE_UNAVAILABLE', 'could not talk to its fiscal unit'],
    ['TM_NO_ANSWER/OFF_LINE', '0', 'DEVICE_UNAVAILABLE', 'The printer is off line'],
    ['PARSER_ERROR', '0', 'FISCAL_REJECTED', 'malformed XML'],
    ['INCOMPLETE FILE', '0', 'FISCAL_REJECTED', 'incomplete document'],
    ['Non valid XML command', '0', 'FISCAL_REJECTED', 'refused a command'],
    ['PRINTER ERROR', '3', 'COVER_OPEN', 'its cover is open or the paper ran out'],
    ['PRINTER ERROR', '9', 'DEVICE_ERROR', 'earlier than its last daily closure'],
    ['PRINTER ERROR', '11', 'FISCAL_REJECTED', 'wrong sequence'],
    ['PRINTER ERROR', '13', 'FISCAL_REJECTED', 'refused a value'],
    // fiskaltrust scu-it Models/ErrorInfoFactory.cs L43: 17 is "IMPOSSIBILE ORA", for any reason.
    ['PRINTER ERROR', '17', 'DEVICE_ERROR', 'the operation is not possible now (status 17)'],
    ['PRINTER ERROR', '20', 'FISCAL_REJECTED', 'above the printer’s limit'],
    ['PRINTER ERROR', '21', 'FISCAL_REJECTED', 'outside the printer’s limits'],
    ['PRINTER ERROR', '30', 'FISCAL_REJECTED', 'lottery code is invalid'],
    ['PRINTER ERROR', '39', 'FISCAL_REJECTED', 'already been voided'],
    ['PRINTER ERROR', '40', 'FISCAL_REJECTED', 'already been refunded'],
    // fiskaltrust scu-it Models/ErrorInfoFactory.cs L64-65: "TIPO NON VALIDO (DOC di ANNULLO / DOC di RESO)".
    ['PRINTER ERROR', '41', 'FISCAL_REJECTED', 'The receipt it names is a void document, not a sale'],
    ['PRINTER ERROR', '42', 'FISCAL_REJECTED', 'The receipt it names is a refund receipt, not a sale'],
    ['PRINTER ERROR', '99', 'DEVICE_ERROR', 'reported error 99'],
    ['SOMETHING_NEW', '0', 'DEVICE_ERROR', 'answered “SOMETHING_NEW”'],
  ])('%s status %s → %s', (code, status, expected, hint) => {
    const meaning = failureMeaning(failure(code, status), 'receipt');
    if (meaning.kind !== 'failed') throw new Error(`expected failed, got ${meaning.kind}`);
    expect(meaning.error.code).toBe(expected);
    expect(english(meaning.error.notes)).toContain(hint);
    expect(english(meaning.error.notes)).toContain('the receipt was not printed');
    expect(meaning.error.details).toMatchObject({
      printerCode: code,
      printerStatusCode: status,
      printerStatus: '00110',
    });
  });

  it('treats an unlisted PRINTER ERROR with the printer off line as cover open', () => {
    const meaning = failureMeaning(failure('PRINTER ERROR', '88', '30110'), 'receipt');
    expect(meaning.kind === 'failed' && meaning.error.code).toBe('COVER_OPEN');
  });

  it('LAN_TIME_OUT is its own meaning: the outcome is unknown until the counters are read', () => {
    expect(failureMeaning(failure('LAN_TIME_OUT'), 'receipt')).toEqual({ kind: 'busy' });
  });

  it('FP_NO_ANSWER and the paper-low warning are ambiguous: the counters decide', () => {
    const silent = failureMeaning(failure('FP_NO_ANSWER'), 'receipt');
    expect(silent.kind).toBe('ambiguous');
    expect(silent.kind !== 'busy' && silent.error.code).toBe('STATE_UNKNOWN');
    const low = failureMeaning(failure('PRINTER ERROR', '2', '20110'), 'refund receipt');
    expect(low.kind).toBe('ambiguous');
    expect(low.kind !== 'busy' && english(low.error.notes)).toContain('the refund receipt was not printed');
  });

  // EPTR_REC_EMPTY: "cover open, offline or no paper roll" (fiskaltrust scu-it Models/ErrorInfoFactory.cs
  // L19); paper can end after the fiscal commit (ErpNet.FP #126), so the counters decide.
  it('EPTR_REC_EMPTY is ambiguous: the counters decide, and it reads as paper out when nothing printed', () => {
    const meaning = failureMeaning(failure('EPTR_REC_EMPTY'), 'receipt');
    if (meaning.kind !== 'ambiguous') throw new Error(`expected ambiguous, got ${meaning.kind}`);
    expect(meaning.error.code).toBe('PAPER_OUT');
    expect(english(meaning.error.notes)).toContain('Printer out of paper or its cover is open');
    expect(english(meaning.error.notes)).toContain('the receipt was not printed');
    expect(meaning.error.details).toMatchObject({ printerCode: 'EPTR_REC_EMPTY' });
  });
});

describe('printer refusals in Italian', () => {
  const italian = messageRenderer('it');
  const notes = (response: FpmateResponse, what: Parameters<typeof failureMeaning>[1]) => {
    const meaning = failureMeaning(response, what);
    if (meaning.kind === 'busy') throw new Error('expected an error');
    return italian.render(meaning.error.notes);
  };

  it('says an unreachable or unconfirming printer in Italian, naming the document', () => {
    const refund = documentWords('refund receipt');
    expect(
      italian.render(epsonAnswers.unreachable({ reason: 'ECONNREFUSED', notPrinted: refund.notPrinted })),
    ).toBe(
      'La stampante fiscale non è raggiungibile (ECONNREFUSED); lo scontrino di reso non è stato stampato. Verificare che sia accesa e collegata; l’agente riprova.',
    );
    expect(english(epsonAnswers.unconfirmed({ document: documentWords('receipt').document }))).toBe(
      'The printer did not confirm the receipt and the agent cannot tell whether it was printed. Check the printer’s last receipt: if it is there, do nothing; if not, issue the receipt again.',
    );
  });

  it('says which document was not printed with its own article', () => {
    expect(notes(failure('PRINTER ERROR', '17'), 'receipt')).toBe(
      'La stampante dice che l’operazione ora non è possibile (stato 17); lo scontrino non è stato stampato. Guardare il display della stampante (potrebbe essere in corso un documento o un rapporto, o un’altra cassa potrebbe usarla), poi riprovare.',
    );
    expect(notes(failure('EPTR_REC_EMPTY'), 'Z report')).toContain('il rapporto Z non è stato stampato');
    expect(notes(failure('SOMETHING_NEW'), 'void receipt')).toBe(
      'La stampante ha risposto “SOMETHING_NEW”; il documento di annullo non è stato stampato. Controllare la stampante, poi riprovare.',
    );
    expect(notes(failure('FP_NO_ANSWER'), 'refund receipt')).toContain(
      'mentre riceveva lo scontrino di reso',
    );
  });
});

describe('deciding a lost answer from the printer’s memory', () => {
  const last = (z: number, doc: number, extra: Partial<LastDocument> = {}): LastDocument => ({
    z,
    doc,
    totalCents: 9100,
    vatCents: 0,
    dateTime: '2026-11-21 14:05',
    serial: '99MEY123456',
    fiscal: true,
    ...extra,
  });
  const fresh = { z: 3, doc: 10, fresh: true };
  const stored = { z: 3, doc: 10, fresh: false };

  it.each([
    ['the next document with our total', fresh, last(3, 11), 9100, 'printed'],
    ['the first document after a Z closure', fresh, last(4, 1), 9100, 'printed'],
    ['a payload of unknown total', fresh, last(3, 11, { totalCents: 1 }), undefined, 'printed'],
    ['counters unchanged', fresh, last(3, 10), 9100, 'not-printed'],
    ['another total (another till)', fresh, last(3, 11, { totalCents: 5000 }), 9100, 'unknown'],
    ['counters behind the baseline', fresh, last(3, 9), 9100, 'unknown'],
    ['a non-fiscal last document', fresh, last(3, 11, { fiscal: false }), 9100, 'unknown'],
    ['no baseline', null, last(3, 11), 9100, 'unknown'],
    ['an unreadable printer', fresh, undefined, 9100, 'unknown'],
    ['a stored baseline, next document', stored, last(3, 11), 9100, 'printed'],
    ['a stored baseline, documents skipped', stored, last(3, 13), 9100, 'unknown'],
    ['a stored baseline, second document of a new Z', stored, last(4, 2), 9100, 'unknown'],
    ['a stored baseline, first document two closures on', stored, last(5, 1), 9100, 'unknown'],
    ['a stored baseline, first document of the next Z', stored, last(4, 1), 9100, 'printed'],
  ] as const)('%s → %s', (_name, baseline, document, expected, outcome) => {
    // One witness, the last document against the baseline; an unreadable printer gives none.
    const reading = document ? epsonWitness(baseline, document, expected) : { witnesses: [] };
    const words = { noWitness: () => rtKitWords.noWitness(), disagree: () => rtKitWords.witnessesDisagree() };
    expect(decide(reading.witnesses, undefined, words).outcome).toBe(outcome);
  });

  it('reads back only checkpoints it wrote, and tells an absent one from an unreadable one', () => {
    expect(
      readCheckpoint({
        v: 1,
        phase: 'sending',
        kind: 'receipt',
        label: 'sale',
        baseline: null,
        resent: false,
      }),
    ).toMatchObject({ kind: 'ok' });
    expect(readCheckpoint({ phase: 'printing' })).toMatchObject({ kind: 'unreadable' });
    expect(readCheckpoint(null)).toMatchObject({ kind: 'unreadable' });
    expect(readCheckpoint(undefined)).toEqual({ kind: 'absent' });
  });
});
