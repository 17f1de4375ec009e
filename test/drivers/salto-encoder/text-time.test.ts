import { describe, expect, it } from 'vitest';
import { encodeMessage } from '../../../drivers/salto-encoder/protocol.js';
import { formatLockTime, parseLockTime, roundToMinute } from '../../../drivers/salto-encoder/time.js';
import { toFieldText } from '../../../src/drivers-api/text.js';

describe('toFieldText', () => {
  it.each([
    ['Jürgen Weiß', 'Jurgen Weiss'],
    ['Łukasz Żółć', 'Lukasz Zolc'],
    ['Søren Ærø', 'Soren AEro'],
    ['Þórunn Guðmundsdóttir', 'Thorunn Gudmundsdottir'],
    ['Françoise O’Neill–Dupré', "Francoise O'Neill-Dupre"],
    ['Юрий Гагарин', 'Yuriy Gagarin'],
    ['Σοφία Παπαδοπούλου', 'Sofia Papadopoulou'],
    ['山田 Taro', '? Taro'],
    ['山田', '?'],
    ['Ann\r\nSmith\t', 'Ann Smith'],
    ['Room ³', 'Room 3'],
    ['Emoji 😀 guest', 'Emoji ? guest'],
  ])('ascii: %s → %s', (input, expected) => {
    expect(toFieldText(input, 'ascii')).toBe(expected);
  });

  it('latin1 keeps Latin-1 letters and transliterates the rest', () => {
    expect(toFieldText('Suite Città Weiß', 'latin1')).toBe('Suite Città Weiß');
    expect(toFieldText('Łódź', 'latin1')).toBe('Lódz');
    expect(toFieldText('Zimmer ³', 'latin1')).toBe('Zimmer 3');
  });

  it('cuts at maxLength and never yields bytes a field cannot carry', () => {
    expect(toFieldText('Maximilian Alexander von Habsburg-Lothringen', 'ascii', 24)).toBe(
      'Maximilian Alexander von',
    );
    for (const sample of ['\u00b3\u0003\u001f', 'ǾÐŒ€…', '\u2028x\u2029', '\u00adsoft']) {
      expect(() =>
        encodeMessage([toFieldText(sample, 'latin1'), toFieldText(sample, 'ascii')]),
      ).not.toThrow();
    }
  });
});

describe('formatLockTime', () => {
  const rome = 'Europe/Rome';

  it('writes hhmmDDMMYY in property local time (winter: UTC+1, summer: UTC+2)', () => {
    expect(formatLockTime(Date.parse('2026-11-21T13:00:00Z'), rome, 'floor')).toBe('1400211126');
    expect(formatLockTime(Date.parse('2026-07-01T09:30:00Z'), rome, 'floor')).toBe('1130010726');
    expect(formatLockTime(Date.parse('2026-07-01T09:30:00Z'), 'America/New_York', 'floor')).toBe(
      '0530010726',
    );
  });

  it('crosses midnight and the year in local time', () => {
    expect(formatLockTime(Date.parse('2026-12-31T23:30:00Z'), rome, 'floor')).toBe('0030010127');
  });

  it('rounds the start down and the end up to the minute', () => {
    const t = Date.parse('2026-11-23T09:59:30Z');
    expect(formatLockTime(t, rome, 'floor')).toBe('1059231126');
    expect(formatLockTime(t, rome, 'ceil')).toBe('1100231126');
    expect(formatLockTime(Date.parse('2026-11-23T10:00:00Z'), rome, 'ceil')).toBe('1100231126');
    expect(roundToMinute(60_001, 'ceil')).toBe(120_000);
  });

  it('uses the clock of the day across a DST change', () => {
    // 29 March 2026: Rome jumps from 02:00 to 03:00; 01:30Z is 03:30 local.
    expect(formatLockTime(Date.parse('2026-03-29T01:30:00Z'), rome, 'floor')).toBe('0330290326');
  });

  it('parseLockTime reads the format back and rejects nonsense', () => {
    expect(parseLockTime('1100231126')).toEqual({ hour: 11, minute: 0, day: 23, month: 11, year: 2026 });
    expect(parseLockTime('2500231126')).toBeUndefined();
    expect(parseLockTime('11002311')).toBeUndefined();
  });
});
