import { defineMessages } from '../messages/catalogue.js';

/** What staff read about the platform's own answers and choices. */
export const connectorMessages = defineMessages('connector', {
  platformSaid: {
    en: 'The platform refused it: {said}',
    it: 'La piattaforma l’ha rifiutato: {said}',
  },
  /**
   * COMMAND_INVALID for a command outside the agent's bounds (too large, too deeply nested: see
   * `src/connector/bounds.ts`): creating it again the same way would fail the same way.
   */
  commandOversized: {
    en: 'The command from the platform is too large or too deeply nested for the agent to read; nothing was done. Ask IT to check what created it.',
    it: 'Il comando arrivato dalla piattaforma è troppo grande o troppo annidato perché l’agente possa leggerlo; non è stato fatto nulla. Chiedere all’assistenza informatica di controllare cosa l’ha creato.',
  },
  enterpriseNotServed: {
    en: 'Choose one of the enterprises this desk serves.',
    it: 'Scegliere una delle strutture servite da questa reception.',
  },
  enterpriseMissing: {
    en: 'Choose the enterprise (hotel) the keys are for.',
    it: 'Scegliere la struttura (hotel) per cui sono le chiavi.',
  },
});
