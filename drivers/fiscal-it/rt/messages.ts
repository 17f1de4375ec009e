import { defineMessages } from '../../../src/messages/catalogue.js';

/**
 * The RT kit's own sentences (English and Italian), the same for every family: what the decision
 * from witnesses and the courtesy to another till tell staff. Each family keeps its other words.
 */
export const rtKitWords = defineMessages('rt.kit', {
  otherTill: {
    en: 'Another till connected to this fiscal printer (the bar’s or the restaurant’s register) kept a document open for {minutes} minutes: the agent did not interrupt it, and nothing was printed. Finish or cancel the document at that till, then send the receipt again.',
    it: 'Un’altra cassa collegata a questa stampante fiscale (quella del bar o del ristorante) ha tenuto un documento aperto per {minutes} minuti: l’agente non l’ha interrotto e non è stato stampato nulla. Completare o annullare il documento su quella cassa, poi inviare di nuovo lo scontrino.',
  },
  busySettling: {
    en: 'The agent is waiting for the printer to answer about a document sent just before it stopped answering; nothing was printed. Try again once the printer answers.',
    it: 'L’agente attende che la stampante risponda su un documento inviato poco prima che smettesse di rispondere; non è stato stampato nulla. Riprovare quando la stampante risponde.',
  },
  addressNotHttps: {
    en: 'a plain http:// address, while the printer is configured for TLS (only https:// is accepted)',
    it: 'un indirizzo http:// in chiaro, mentre la stampante è configurata per TLS (si accetta solo https://)',
  },
  noWitness: {
    en: 'the printer’s memory could not be read',
    it: 'la memoria della stampante non è leggibile',
  },
  witnessesDisagree: {
    en: 'what the printer’s memory shows does not agree',
    it: 'quanto mostra la memoria della stampante non concorda',
  },
  openNotClosed: {
    en: 'the printer took the document’s last line but the document is still open',
    it: 'la stampante ha ricevuto l’ultima riga del documento ma il documento è ancora aperto',
  },
});
