import { defineMessages } from '../messages/catalogue.js';

/** What supervision says: the health reason of an error that escaped every handler (`/healthz`, the page). */
export const supervisionMessages = defineMessages('supervision', {
  healthEscaped: {
    en: 'an unexpected error escaped {ago} ago ({fault}); {count} in the last {window}',
    it: 'un errore imprevisto è sfuggito {ago} fa ({fault}); {count} negli ultimi {window}',
  },
});
