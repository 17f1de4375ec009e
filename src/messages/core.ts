import { defineMessages } from './catalogue.js';

/**
 * The catalogue's own entries: text that comes as it is (see `textMessage`), and the words of a
 * length of time (`{ms}` values, see `render.ts`): "3 s", "4 min", "2 h 5 min", "3 days".
 */
export const coreMessages = defineMessages('core', {
  text: { en: '{text}', it: '{text}' },
  seconds: { en: '{n, number} s', it: '{n, number} s' },
  minutes: { en: '{n, number} min', it: '{n, number} min' },
  hours: { en: '{n, number} h', it: '{n, number} h' },
  hoursMinutes: { en: '{h, number} h {m, number} min', it: '{h, number} h {m, number} min' },
  days: {
    en: '{n, plural, one {# day} other {# days}}',
    it: '{n, plural, one {# giorno} other {# giorni}}',
  },
});
