import { describe, expect, it } from 'vitest';
import {
  encodeRecord,
  MAX_FRAME_BYTES,
  parseRecordText,
  RecordDecoder,
  record,
  recordText,
} from '../../../drivers/fias-lock/records.js';
import {
  fiasDate,
  fiasTime,
  parseFiasClock,
  parseFiasDate,
  stayFields,
} from '../../../drivers/fias-lock/time.js';

/**
 * The FIAS record codec and date formats, as the IFC8 FIAS Interface Specification 2.20.23 writes
 * them: `RecordID|` then `FieldIDvalue|` per field, the last one closed too (§4 p.15); STX…ETX on
 * TCP/IP with no LRC (§7 p.89–90); D = YYMMDD, T = HHMMSS (§3 p.13); DT = `HH:MM` (p.63).
 */

const frame = (text: string) => Buffer.concat([Buffer.of(2), Buffer.from(text, 'latin1'), Buffer.of(3)]);

describe('FIAS records', () => {
  it('writes every field closed by |, in the given order, Latin-1 bytes', () => {
    expect(recordText(record('KA', { AS: 'OK', CT: 'Key made', KC: '2', WS: '1' }))).toBe(
      'KA|ASOK|CTKey made|KC2|WS1|',
    );
    expect(recordText(record('LS'))).toBe('LS|');
    expect(encodeRecord(record('KR', { GN: 'Müller, Zoë' }))).toEqual(frame('KR|GNMüller, Zoë|'));
    expect(() => recordText(record('KR', { GN: 'a|b' }))).toThrow(RangeError);
    expect(() => recordText(record('KR', { GN: 'a\u0003b' }))).toThrow(RangeError);
  });

  it('reads tolerantly: a missing last |, CR/LF around it, blank and unknown fields, ids like G# and $2', () => {
    expect(parseRecordText('KA|ASOK|KC10|WSFO-PC1|')).toEqual({
      type: 'KA',
      fields: [
        ['AS', 'OK'],
        ['KC', '10'],
        ['WS', 'FO-PC1'],
      ],
    });
    expect(parseRecordText('KA|ASOK|KC1\r\n')?.fields).toEqual([
      ['AS', 'OK'],
      ['KC', '1'],
    ]);
    expect(parseRecordText('KR|G#12|$2ABCD|SF|ZZ9|')?.fields).toEqual([
      ['G#', '12'],
      ['$2', 'ABCD'],
      ['SF', ''],
      ['ZZ', '9'],
    ]);
    expect(parseRecordText('garbage')).toBeUndefined();
  });

  it('splits a byte stream into records: split reads, bytes between frames, an STX restarting a frame, oversize frames', () => {
    const d = new RecordDecoder();
    const whole = frame('LS|DA261004|TI120000|');
    expect(d.push(whole.subarray(0, 5))).toEqual([]);
    const events = d.push(Buffer.concat([whole.subarray(5), Buffer.from('\r\n'), Buffer.of(0x06)]));
    expect(events.map((e) => e.kind)).toEqual(['record', 'garbage']);
    // A frame cut short by a new STX is dropped; the new one is read.
    const cut = d.push(
      Buffer.concat([Buffer.from([2]), Buffer.from('KA|AS'), frame('LA|DA261004|TI120001|')]),
    );
    expect(cut.map((e) => (e.kind === 'record' ? e.record.type : e.reason))).toEqual(['unreadable', 'LA']);
    const huge = d.push(Buffer.concat([frame(`KR|GN${'x'.repeat(MAX_FRAME_BYTES)}|`), frame('LA|')]));
    expect(huge.map((e) => (e.kind === 'record' ? e.record.type : e.reason))).toEqual(['oversize', 'LA']);
  });
});

describe('FIAS dates and times', () => {
  it('YYMMDD and HHMMSS in the property’s time zone (summer and winter)', () => {
    const winter = Date.parse('2026-11-23T10:05:09Z');
    expect([fiasDate(winter, 'Europe/Rome'), fiasTime(winter, 'Europe/Rome')]).toEqual(['261123', '110509']);
    const summer = Date.parse('2026-07-31T22:30:00Z');
    expect([fiasDate(summer, 'Europe/Rome'), fiasTime(summer, 'Europe/Rome')]).toEqual(['260801', '003000']);
  });

  it('a stay: arrival date, departure date and time with minutes, the departure rounded up to the minute', () => {
    const start = Date.parse('2026-11-21T13:00:59Z');
    expect(stayFields(start, Date.parse('2026-11-23T10:00:00Z'), 'Europe/Rome', 'HH:MM')).toEqual({
      arrival: '261121',
      departure: '261123',
      departureTime: '11:00',
    });
    expect(stayFields(start, Date.parse('2026-11-23T10:29:01Z'), 'Europe/Rome', 'HH:MM').departureTime).toBe(
      '11:30',
    );
    expect(stayFields(start, Date.parse('2026-11-23T22:59:30Z'), 'Europe/Rome', 'HHMMSS')).toMatchObject({
      departure: '261124',
      departureTime: '000000',
    });
  });

  it('reads dates and the time forms lock servers send', () => {
    expect(parseFiasDate('261123')).toEqual({ year: 2026, month: 11, day: 23 });
    expect(parseFiasDate('260230')).toBeUndefined();
    expect(parseFiasClock('11:00')).toEqual({ hour: 11, minute: 0, second: 0 });
    expect(parseFiasClock('120000')).toEqual({ hour: 12, minute: 0, second: 0 });
    expect(parseFiasClock('1130')).toEqual({ hour: 11, minute: 30, second: 0 });
    expect(parseFiasClock('25:00')).toBeUndefined();
  });
});
