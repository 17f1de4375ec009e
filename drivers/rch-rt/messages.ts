import { defineMessages } from '../../src/messages/catalogue.js';
import { RT_RESULT_TEXTS } from '../fiscal-it/rt/messages.js';

/**
 * The RCH family's sentences for staff (English and Italian). The printer's refusals and the status
 * card's words are in messages-printer.ts, `check-config`'s lines in messages-describe.ts.
 */

/** Why a command is refused before anything is sent. */
export const rchRefusals = defineMessages('rch.refusal', {
  notFiscalCommand: {
    en: 'This command is not a fiscal document: a fiscal printer cannot run it.',
    it: 'Questo comando non è un documento fiscale: una stampante fiscale non può eseguirlo.',
  },
  payloadRefused: {
    en: 'The platform sent a ready-made document; an RCH printer prints from the bill data (order items and payments) only. Nothing was printed.',
    it: 'La piattaforma ha inviato un documento già pronto; una stampante RCH stampa solo dai dati del conto (voci e pagamenti). Non è stato stampato nulla.',
  },
  paymentUnmapped: {
    en: 'The payment {key} ({kind}) has no RCH payment form: set payments.{key}.form to the form the printer is programmed with. Nothing was printed.',
    it: 'Il pagamento {key} ({kind}) non ha una forma di pagamento RCH: impostare payments.{key}.form alla forma programmata sulla stampante. Non è stato stampato nulla.',
  },
  noUnreferencedRefund: {
    en: 'An RCH printer prints a refund only with the original receipt’s number and date, and this refund names none. Issue it at the printer. Nothing was printed.',
    it: 'Una stampante RCH stampa un reso solo con numero e data dello scontrino originale, e questo reso non li indica. Emetterlo dalla stampante. Non è stato stampato nulla.',
  },
  refundOfOtherPrinter: {
    en: 'This refund names a receipt of printer {serial}, and an RCH printer can refund only the receipts it printed itself. Issue the refund on printer {serial}. Nothing was printed.',
    it: 'Questo reso indica uno scontrino della stampante {serial}, e una stampante RCH può rendere solo gli scontrini che ha stampato lei. Emettere il reso sulla stampante {serial}. Non è stato stampato nulla.',
  },
  notRegistering: {
    en: 'The printer is not in sale mode (REG) and would not switch to it: set it to REG on its keyboard. Nothing was printed.',
    it: 'La stampante non è in modalità vendita (REG) e non vi è passata: impostarla su REG dalla tastiera. Non è stato stampato nulla.',
  },
  referenceRefused: {
    en: '{kind, select, VOID {The printer does not allow voiding} other {The printer does not allow refunding}} receipt {label} of {date} (not found, already done, or not possible now; code {code}): nothing was printed.',
    it: '{kind, select, VOID {La stampante non consente di annullare} other {La stampante non consente di rendere}} lo scontrino {label} del {date} (non trovato, già fatto, o ora non possibile; codice {code}): non è stato stampato nulla.',
  },
});

/** What a printed document, a recovered one and an uncertain one tell staff. */
export const rchResults = defineMessages('rch.result', {
  ...RT_RESULT_TEXTS,
  printedUnnumbered: {
    en: 'Printed on RT {serial}; its number could not be read from the printer.',
    it: 'Stampato su RT {serial}; non è stato possibile leggerne il numero dalla stampante.',
  },
  unconfirmed: {
    en: 'The printer’s answer was lost and its memory cannot tell whether the document was printed. It was NOT sent again: look for a receipt with the line {marker} on the printer before printing it by hand.',
    it: 'La risposta della stampante è andata persa e la sua memoria non permette di sapere se il documento è stato stampato. NON è stato inviato di nuovo: cercare sulla stampante uno scontrino con la riga {marker} prima di stamparlo a mano.',
  },
  voidUnconfirmed: {
    en: 'The printer’s answer was lost and its memory cannot tell whether receipt {label} was voided. It was NOT sent again: check the printer’s last document before voiding it by hand.',
    it: 'La risposta della stampante è andata persa e la sua memoria non permette di sapere se lo scontrino {label} è stato annullato. NON è stato inviato di nuovo: controllare l’ultimo documento della stampante prima di annullarlo a mano.',
  },
  notPrintedProven: {
    en: 'The printer’s answer was lost, and its memory proves the document was not printed.',
    it: 'La risposta della stampante è andata persa e la sua memoria dimostra che il documento non è stato stampato.',
  },
  memoryDisagrees: {
    en: 'the printer’s counters and its journal do not agree',
    it: 'i contatori della stampante e il suo giornale non concordano',
  },
  otherDocument: {
    en: 'another document came after it on the printer',
    it: 'sulla stampante è seguito un altro documento',
  },
  closureNotDone: {
    en: 'The daily closure did not run: the printer’s count of closures did not move.',
    it: 'La chiusura giornaliera non è stata eseguita: il conteggio delle chiusure della stampante non è cambiato.',
  },
});
