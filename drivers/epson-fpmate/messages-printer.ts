import { defineMessages } from '../../src/messages/catalogue.js';

/**
 * What staff read about a printer that went away with a document unanswered (`settle.ts`), the
 * printer's department programming (`programming.ts`) and a copy of a receipt from its journal
 * (`reprint.ts`), in English and Italian. `{document}` is `epsonAnswers.document` (with its
 * article in Italian).
 */
export const epsonPrinterWords = defineMessages('epson.printer', {
  waitingToSettle: {
    en: 'The printer stopped answering right after the {document} was sent at {at}: the agent waits for it until {until}, to learn from its memory whether it was printed. Switch it on and connect it; do not issue the {document} again.',
    it: 'La stampante non risponde più da quando le è stato inviato {document} alle {at}: l’agente la attende fino alle {until}, per sapere dalla sua memoria se è stato stampato. Accenderla e collegarla; non emettere di nuovo {document}.',
  },
  gaveUp: {
    en: 'The printer stopped answering right after the {document} was sent and did not answer for {minutes, plural, one {# minute} other {# minutes}}: the agent cannot tell whether it was printed. Check the printer’s last receipt: if it is there, do nothing; if not, issue the {document} again.',
    it: 'La stampante ha smesso di rispondere subito dopo l’invio e non ha risposto per {minutes, plural, one {# minuto} other {# minuti}}: l’agente non può sapere se {document} è stato stampato. Controllare l’ultimo scontrino della stampante: se c’è, non fare nulla; altrimenti emettere di nuovo {document}.',
  },
  stoppedWaiting: {
    en: 'The agent stopped waiting for the printer, which stopped answering right after the {document} was sent: it cannot tell whether it was printed. Check the printer’s last receipt: if it is there, do nothing; if not, issue the {document} again.',
    it: 'L’agente ha smesso di attendere la stampante, che non risponde più da quando le è stato inviato {document}: non può sapere se è stato stampato. Controllare l’ultimo scontrino della stampante: se c’è, non fare nulla; altrimenti emettere di nuovo {document}.',
  },
  awayReason: {
    en: 'the printer did not answer for {minutes, plural, one {# minute} other {# minutes}} after the restart',
    it: 'la stampante non ha risposto per {minutes, plural, one {# minuto} other {# minuti}} dopo il riavvio',
  },
  busySettling: {
    en: 'The agent is waiting for the printer to answer about a document sent just before it stopped answering; nothing was printed. Try again once the printer answers.',
    it: 'L’agente attende che la stampante risponda su un documento inviato poco prima che smettesse di rispondere; non è stato stampato nulla. Riprovare quando la stampante risponde.',
  },
  paperRanOut: {
    en: 'paper ran out after the receipt was recorded: replace the roll',
    it: 'la carta è finita dopo la registrazione dello scontrino: sostituire il rotolo',
  },

  classRate: { en: 'VAT {rate} %', it: 'IVA {rate} %' },
  classNature: { en: 'nature {nature}', it: 'natura {nature}' },
  classUnknown: { en: 'an unknown class', it: 'una classe sconosciuta' },
  departmentMismatch: {
    en: 'Department {department} is programmed on the printer for {actual}, but the agent prints its {expected} lines there: program department {department} for {expected} on the printer, or change the driver’s departments ("{key}": the department programmed for {expected}).',
    it: 'Il reparto {department} è programmato sulla stampante per {actual}, ma l’agente vi stampa le righe con {expected}: programmare il reparto {department} per {expected} sulla stampante, oppure cambiare i departments del driver ("{key}": il reparto programmato per {expected}).',
  },
  departmentMissing: {
    en: 'Department {department} is not programmed on the printer, but the agent prints its {expected} lines there: program department {department} for {expected} on the printer, or change the driver’s departments ("{key}": the department programmed for {expected}).',
    it: 'Il reparto {department} non è programmato sulla stampante, ma l’agente vi stampa le righe con {expected}: programmare il reparto {department} per {expected} sulla stampante, oppure cambiare i departments del driver ("{key}": il reparto programmato per {expected}).',
  },
  lineAtWrongRate: {
    en: 'The bill line "{item}" would print in department {department}, which the printer has programmed for {actual} instead of {expected}; nothing was printed. Ask IT to program department {department} for {expected} on the printer, or to change the driver’s departments.',
    it: 'La riga del conto "{item}" verrebbe stampata nel reparto {department}, che la stampante ha programmato per {actual} invece che per {expected}; non è stato stampato nulla. Chiedere all’assistenza informatica di programmare il reparto {department} per {expected} sulla stampante, o di cambiare i departments del driver.',
  },
  programmingMatches: {
    en: 'matches the driver’s departments ({count, plural, one {# department} other {# departments}} read)',
    it: 'corrisponde ai departments del driver ({count, plural, one {# reparto letto} other {# reparti letti}})',
  },
  programmingDiffers: {
    en: '{count, plural, one {# department differs} other {# departments differ}} from the driver’s departments',
    it: '{count, plural, one {# reparto diverso} other {# reparti diversi}} dai departments del driver',
  },
  programmingUnreadable: {
    en: 'cannot be read from this printer (older firmware?): not checked',
    it: 'non leggibile da questa stampante (firmware precedente?): non controllata',
  },

  reprintLabel: { en: 'Print a copy of a receipt', it: 'Stampa una copia di uno scontrino' },
  reprintDescription: {
    en: 'Prints the printer’s own copy of a receipt from its electronic journal. The copy is not a fiscal document: no receipt is issued again and no total changes.',
    it: 'Stampa la copia di uno scontrino dal giornale elettronico della stampante. La copia non è un documento fiscale: nessuno scontrino viene emesso di nuovo e nessun totale cambia.',
  },
  reprintConfirm: {
    en: 'Print a copy of this receipt from the printer’s journal (not a fiscal document).',
    it: 'Stampare una copia di questo scontrino dal giornale della stampante (non è un documento fiscale).',
  },
  reprintReceiptMissing: {
    en: 'Give the number of the receipt to copy as ZZZZ-NNNN (closure number, receipt number), e.g. 0012-0034.',
    it: 'Indicare il numero dello scontrino da copiare come ZZZZ-NNNN (numero di chiusura, numero di scontrino), per esempio 0012-0034.',
  },
  reprintPrinted: {
    en: 'Copy of receipt {label} of {date} printed from the electronic journal of RT {serial} (not a fiscal document)',
    it: 'Copia dello scontrino {label} del {date} stampata dal giornale elettronico di RT {serial} (non è un documento fiscale)',
  },
  reprintNotFound: {
    en: 'The printer’s journal has no receipt number {doc} on {date} (it answered status {status}); nothing was printed. Check the number and the date.',
    it: 'Il giornale della stampante non ha lo scontrino numero {doc} del {date} (ha risposto con lo stato {status}); non è stato stampato nulla. Controllare numero e data.',
  },
  reprintRefused: {
    en: 'The printer did not print the copy ({why}). Check the printer, then try again.',
    it: 'La stampante non ha stampato la copia ({why}). Controllare la stampante, poi riprovare.',
  },
  reprintUnconfirmed: {
    en: 'The printer did not confirm the copy: look at the printer; if no copy came out, try again (a copy is not a fiscal document).',
    it: 'La stampante non ha confermato la copia: guardare la stampante; se non è uscita alcuna copia, riprovare (una copia non è un documento fiscale).',
  },
});
