import { describe, expect, it } from 'vitest';
import { greetingLocaleOf, localeOf } from '../../src/config.js';

/**
 * Issue 41, item 4: `npm start` in Europe/Rome greeted an English terminal in Italian, because the
 * login greeting took the language of the property's time zone. The greeting is for the person at
 * the terminal: the configured `locale`, else the terminal's language; the Notes and the page keep
 * the zone's rule.
 */
describe('the login greeting’s language', () => {
  it('is the configured locale, else the terminal’s, never the time zone’s', () => {
    const rome = { timezone: 'Europe/Rome', locale: undefined };
    expect(greetingLocaleOf({ ...rome, locale: 'en' }, { LANG: 'it_IT.UTF-8' })).toBe('en');
    expect(greetingLocaleOf({ ...rome, locale: 'it' }, { LANG: 'en_GB.UTF-8' })).toBe('it');
    expect(greetingLocaleOf(rome, { LANG: 'en_GB.UTF-8' })).toBe('en');
    expect(greetingLocaleOf(rome, { LC_ALL: 'it_IT.UTF-8', LANG: 'en_GB.UTF-8' })).toBe('it');
    // The receptionists' language still follows the zone.
    expect(localeOf(rome, { LANG: 'en_GB.UTF-8' })).toBe('it');
  });
});
