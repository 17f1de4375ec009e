import { describe, expect, it } from 'vitest';
import { defineMessages } from '../../src/messages/catalogue.js';
import { defaultLocale } from '../../src/messages/locale.js';
import { readMessage, readStoredMessage, storedMessage, textMessage } from '../../src/messages/message.js';
import { english, messageRenderer } from '../../src/messages/render.js';

const m = defineMessages('test.render', {
  keys: {
    en: '{count, plural, one {# key} other {# keys}} for {rooms}',
    it: '{count, plural, one {# chiave} other {# chiavi}} per {rooms}',
  },
  total: { en: 'total {total}, at {at}', it: 'totale {total}, alle {at}' },
  nested: { en: 'Done: {what}', it: 'Fatto: {what}' },
  waited: { en: 'waited {wait}', it: 'atteso {wait}' },
  englishOnlyWorks: { en: 'ok {x}', it: 'ok {x, plural, one {#} other {# {y}}}' },
});

describe('rendering a message', () => {
  const en = messageRenderer('en', 'Europe/Rome');
  const it_ = messageRenderer('it', 'Europe/Rome');

  it('speaks plurals, lists, money and times in the locale, in the property’s zone', () => {
    const keys = m.keys({ count: 2, rooms: { list: ['202', 'SPA'] } });
    expect(en.render(keys)).toBe('2 keys for 202 and SPA');
    expect(it_.render(keys)).toBe('2 chiavi per 202 e SPA');
    expect(it_.render(m.keys({ count: 1, rooms: '101' }))).toBe('1 chiave per 101');
    const total = m.total({
      total: { money: 1234.5, currency: 'EUR' },
      at: { at: Date.UTC(2026, 10, 24, 13, 5), show: 'time' },
    });
    expect(en.render(total)).toBe('total €1,234.50, at 14:05:00');
    expect(it_.render(total)).toBe('totale 1234,50\u00a0€, alle 14:05:00');
    expect(it_.value({ list: ['a', 'b'], join: 'or' })).toBe('a o b');
    expect(en.value({ ms: 125 * 60_000 })).toBe('2 h 5 min');
    expect(it_.value({ ms: 3 * 86_400_000 })).toBe('3 giorni');
  });

  it('renders a message inside another in the same language', () => {
    const what = m.keys({ count: 3, rooms: '101' });
    expect(it_.render(m.nested({ what }))).toBe('Fatto: 3 chiavi per 101');
  });

  it('never throws: a sentence that cannot be said falls back to English, then to its id', () => {
    // `y` is missing: the Italian cannot be formatted, the English can.
    expect(it_.render({ id: 'test.render.englishOnlyWorks', values: { x: 2 } })).toBe('ok 2');
    expect(it_.render({ id: 'nobody.defined.this', values: { a: 'b' } })).toBe('nobody.defined.this (a: b)');
    expect(english(textMessage('as it is'))).toBe('as it is');
  });

  it('refuses to define one id twice with other words', () => {
    expect(() => defineMessages('test.render', { total: { en: 'other', it: 'altro' } })).toThrow(/twice/);
    expect(() =>
      defineMessages('test.render', {
        total: { en: 'total {total}, at {at}', it: 'totale {total}, alle {at}' },
      }),
    ).not.toThrow();
  });
});

describe('messages as data', () => {
  it('round-trips through the journal’s notes column, and reads an older build’s sentence as text', () => {
    const message = m.waited({ wait: { ms: 3000 } });
    expect(readStoredMessage(storedMessage(message))).toEqual(message);
    expect(readStoredMessage('Printer out of paper.')).toEqual(textMessage('Printer out of paper.'));
    expect(readStoredMessage('{not json')).toEqual(textMessage('{not json'));
    expect(readMessage('plain')).toEqual(textMessage('plain'));
    expect(readMessage(42)).toEqual(textMessage(''));
  });
});

describe('the default language', () => {
  it('is Italian in an Italian zone, else the system locale’s, else English', () => {
    expect(defaultLocale('Europe/Rome', {})).toBe('it');
    expect(defaultLocale('Europe/San_Marino', { LANG: 'en_US.UTF-8' })).toBe('it');
    expect(defaultLocale('Europe/Zurich', { LANG: 'it_CH.UTF-8' })).toBe('it');
    expect(defaultLocale('Europe/Zurich', { LC_ALL: 'de_CH.UTF-8', LANG: 'it_CH.UTF-8' })).toBe('en');
    expect(defaultLocale('Europe/London', { LANG: 'C.UTF-8' })).toBe('en');
    expect(defaultLocale('UTC', {})).toBe('en');
  });
});
