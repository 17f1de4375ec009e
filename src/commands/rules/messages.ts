import { defineMessages } from '../../messages/catalogue.js';
import { type Message, textMessage } from '../../messages/message.js';

/** What the engine itself tells staff about a command (`notes.ts` puts them together). */
export const engineMessages = defineMessages('engine', {
  errorWithReason: { en: '{sentence} ({code}: {reason})', it: '{sentence} ({code}: {reason})' },
  errorWithCode: { en: '{sentence} ({code})', it: '{sentence} ({code})' },
  cancelledBeforeStart: {
    en: 'Cancelled on the platform before it started; nothing was done.',
    it: 'Annullato sulla piattaforma prima dell’avvio; non è stato fatto nulla.',
  },
  notOfferedBeforeStart: {
    en: 'The platform no longer offered it ({state}) before it started; nothing was done.',
    it: 'Sulla piattaforma il comando non era più attivo ({state}) prima dell’avvio; non è stato fatto nulla.',
  },
  cancelledOnPlatform: { en: 'Cancelled on the platform.', it: 'Annullato sulla piattaforma.' },
  notKeyCutter: {
    en: 'Choose one of this desk’s key encoders.',
    it: 'Scegliere uno degli encoder di chiavi di questa reception.',
  },
  cancelledWhileRunning: {
    en: 'Cancelled on the platform while running; the device stopped the job.',
    it: 'Annullato sulla piattaforma durante l’esecuzione; il dispositivo ha interrotto l’operazione.',
  },
  doneDespiteCancel: {
    en: 'Cancelled on the platform, but the device had already done it: {result}',
    it: 'Annullato sulla piattaforma, ma il dispositivo l’aveva già eseguito: {result}',
  },
  deviceNotAsked: {
    en: 'the device could not be asked ({code}: {error})',
    it: 'non è stato possibile interrogare il dispositivo ({code}: {error})',
  },
  checkpointUnreadable: {
    en: 'its checkpoint in the journal cannot be read',
    it: 'il punto di ripresa salvato nel registro non è leggibile',
  },
  checkpointOtherDriver: {
    en: 'its checkpoint was written by the {stored} driver, and the device is now driven by {configured}',
    it: 'il punto di ripresa è stato scritto dal driver {stored}, mentre ora il dispositivo usa {configured}',
  },
  checkpointOtherVersion: {
    en: 'its checkpoint is version {stored} of the {driver} driver, which now reads version {expected}',
    it: 'il punto di ripresa è nella versione {stored} del driver {driver}, che ora legge la versione {expected}',
  },
});

/**
 * The states of a platform command, as staff call them. The platform's own names (`Processed`…)
 * stay in the API, the log and `/status.json`.
 */
export const stateMessages = defineMessages('state', {
  Pending: { en: 'Pending', it: 'In attesa' },
  Received: { en: 'Received', it: 'Ricevuto' },
  Processing: { en: 'Processing', it: 'In corso' },
  Processed: { en: 'Processed', it: 'Eseguito' },
  Cancelled: { en: 'Cancelled', it: 'Annullato' },
  Error: { en: 'Error', it: 'Errore' },
});

/** A platform state in words; a state this build does not know stays as the platform spells it. */
export function stateWord(state: string): Message {
  return Object.hasOwn(stateMessages, state)
    ? stateMessages[state as keyof typeof stateMessages]()
    : textMessage(state);
}
