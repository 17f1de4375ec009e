import { defineMessages } from '../../src/messages/catalogue.js';
import { RT_ADDRESS_TEXTS, RT_RESULT_TEXTS } from '../fiscal-it/rt/messages.js';
// The family's other catalogues load with this one (the catalogue test counts every entry).
import './messages-vat.js';

/**
 * The Custom family's sentences for staff (English and Italian). The printer's own error codes
 * are in messages-printer.ts, the facts' labels in messages-status.ts.
 */

/** Why a command is refused before anything is sent. */
export const customRefusals = defineMessages('custom.refusal', {
  notFiscalCommand: {
    en: 'This command is not a fiscal document: a fiscal printer cannot run it.',
    it: 'Questo comando non è un documento fiscale: una stampante fiscale non può eseguirlo.',
  },
  foreignPayload: {
    en: 'The platform sent a ready-made document for {family} printers; this is a Custom printer and needs the bill data (order items and payments) instead. Nothing was printed.',
    it: 'La piattaforma ha inviato un documento già pronto per stampanti {family}; questa è una stampante Custom e richiede invece i dati del conto (voci e pagamenti). Non è stato stampato nulla.',
  },
  payloadInvalid: {
    en: 'The platform’s ready-made document cannot be printed ({problem}). Nothing was printed.',
    it: 'Il documento già pronto della piattaforma non può essere stampato ({problem}). Non è stato stampato nulla.',
  },
  noVatSlot: {
    en: 'The line “{description}” is taxed at {rate} %, and no VAT slot of the printer is configured for that rate (vatSlots). Nothing was printed.',
    it: 'La riga «{description}» ha IVA al {rate} % e nessuna aliquota della stampante è configurata per quel valore (vatSlots). Non è stato stampato nulla.',
  },
  adjustmentTooLarge: {
    en: '“{description}” is larger than the lines of its department: the printer takes a discount only on the items before it. Nothing was printed.',
    it: '«{description}» supera le righe del suo reparto: la stampante applica uno sconto solo agli articoli che lo precedono. Non è stato stampato nulla.',
  },
  paymentUnmapped: {
    en: 'The payment {key} ({kind}) has no Custom payment number: set payments.{key}.paymentType to the number the printer is programmed with. Nothing was printed.',
    it: 'Il pagamento {key} ({kind}) non ha un numero di pagamento Custom: impostare payments.{key}.paymentType al numero programmato sulla stampante. Non è stato stampato nulla.',
  },
  ...RT_ADDRESS_TEXTS,
  credentialsRefused: {
    en: 'The printer refused the agent’s login (HTTP {status}): check credentials (by default the printer’s serial as user and password). Nothing was printed.',
    it: 'La stampante ha rifiutato l’accesso dell’agente (HTTP {status}): controllare le credenziali (di norma la matricola della stampante come utente e password). Non è stato stampato nulla.',
  },
  voidLinesUnknown: {
    en: 'The agent does not know the lines of receipt {label}, and a Custom printer voids a receipt only with its lines: void it at the printer, or from the platform. Nothing was printed.',
    it: 'L’agente non conosce le righe dello scontrino {label} e una stampante Custom annulla uno scontrino solo con le sue righe: annullarlo dalla stampante o dalla piattaforma. Non è stato stampato nulla.',
  },
  referenceNotFound: {
    en: 'The printer does not find the original receipt {label} of {date}: nothing was printed.',
    it: 'La stampante non trova lo scontrino originale {label} del {date}: non è stato stampato nulla.',
  },
  referenceNotAllowed: {
    en: '{kind, select, VOID {The printer does not allow voiding} other {The printer does not allow refunding}} receipt {label} of {date} (already done, or not possible now): nothing was printed.',
    it: '{kind, select, VOID {La stampante non consente di annullare} other {La stampante non consente di rendere}} lo scontrino {label} del {date} (già fatto, o ora non possibile): non è stato stampato nulla.',
  },
});

/** What a printed document, a recovered one, and an uncertain one tell staff. */
export const customResults = defineMessages('custom.result', {
  ...RT_RESULT_TEXTS,
  printedUnnumbered: {
    en: 'Printed on RT {serial}; the printer did not say under which number.',
    it: 'Stampato su RT {serial}; la stampante non ha indicato con quale numero.',
  },
  unconfirmed: {
    en: 'The printer’s answer was lost and its memory cannot tell whether the document was printed. It was NOT sent again: check the printer’s last receipt before printing it by hand.',
    it: 'La risposta della stampante è andata persa e la sua memoria non permette di sapere se il documento è stato stampato. NON è stato inviato di nuovo: controllare l’ultimo scontrino della stampante prima di stamparlo a mano.',
  },
  notPrintedSilent: {
    en: 'The printer did not answer, and its memory proves the document was not printed.',
    it: 'La stampante non ha risposto e la sua memoria dimostra che il documento non è stato stampato.',
  },
  memoryDisagrees: {
    en: 'the printer’s memory and its last command disagree',
    it: 'la memoria della stampante e il suo ultimo comando non concordano',
  },
  copyPrinted: {
    en: 'A copy of the last receipt was printed (not a fiscal document).',
    it: 'È stata stampata una copia dell’ultimo scontrino (non è un documento fiscale).',
  },
});

/** The copy action on the status page and the CLI (the others are the kit's `rtActionWords`). */
export const customActionWords = defineMessages('custom.action', {
  copy: { en: 'Print a copy of the last receipt', it: 'Stampa una copia dell’ultimo scontrino' },
  copyHelp: {
    en: 'A non-fiscal copy of the last receipt (printDuplicateReceipt).',
    it: 'Una copia non fiscale dell’ultimo scontrino (printDuplicateReceipt).',
  },
  copyOnlyLast: {
    en: 'A Custom printer copies its last receipt only ({last}); nothing was printed.',
    it: 'Una stampante Custom copia solo il suo ultimo scontrino ({last}); non è stato stampato nulla.',
  },
});
