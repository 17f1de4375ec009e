import { defineMessages } from '../../src/messages/catalogue.js';
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
  noApiUrl: {
    en: 'The command carries no printer address (ApiUrl). Nothing was printed.',
    it: 'Il comando non contiene l’indirizzo della stampante (ApiUrl). Non è stato stampato nulla.',
  },
  addressNotUrl: { en: 'an address that is not a URL', it: 'un indirizzo che non è un URL' },
  addressNotHttp: { en: 'an address that is not http(s)', it: 'un indirizzo che non è http(s)' },
  hostNotAllowed: {
    en: 'the host {host}, which allowedHosts does not list',
    it: 'l’host {host}, che allowedHosts non elenca',
  },
  addressRefused: {
    en: 'Printer address refused: the command names {what}. Nothing was printed.',
    it: 'Indirizzo della stampante rifiutato: il comando indica {what}. Non è stato stampato nulla.',
  },
  addressUnknown: {
    en: 'The printer’s address is not known yet: it comes with the first fiscal command.',
    it: 'L’indirizzo della stampante non è ancora noto: arriva con il primo comando fiscale.',
  },
  notAnswering: {
    en: 'The fiscal printer does not answer: check that it is on and connected.',
    it: 'La stampante fiscale non risponde: controllare che sia accesa e collegata.',
  },
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
  printed: {
    en: '{kind, select, refund {Refund {label} printed on RT {serial}.} void {Void {label} printed on RT {serial}.} other {Receipt {label} printed on RT {serial}.}}',
    it: '{kind, select, refund {Reso {label} stampato su RT {serial}.} void {Annullo {label} stampato su RT {serial}.} other {Scontrino {label} stampato su RT {serial}.}}',
  },
  printedUnnumbered: {
    en: 'Printed on RT {serial}; the printer did not say under which number.',
    it: 'Stampato su RT {serial}; la stampante non ha indicato con quale numero.',
  },
  recovered: {
    en: '{kind, select, refund {Refund {label} on RT {serial}} void {Void {label} on RT {serial}} other {Receipt {label} on RT {serial}}} was printed: the printer’s memory confirms it after the answer was lost.',
    it: '{kind, select, refund {Il reso {label} su RT {serial}} void {L’annullo {label} su RT {serial}} other {Lo scontrino {label} su RT {serial}}} è stato stampato: lo conferma la memoria della stampante dopo la perdita della risposta.',
  },
  unknownSerial: { en: '(serial unknown)', it: '(matricola sconosciuta)' },
  unconfirmed: {
    en: 'The printer’s answer was lost and its memory cannot tell whether the document was printed. It was NOT sent again: check the printer’s last receipt before printing it by hand.',
    it: 'La risposta della stampante è andata persa e la sua memoria non permette di sapere se il documento è stato stampato. NON è stato inviato di nuovo: controllare l’ultimo scontrino della stampante prima di stamparlo a mano.',
  },
  notPrintedUnreachable: {
    en: 'The printer could not be reached ({reason}): nothing was printed.',
    it: 'Impossibile raggiungere la stampante ({reason}): non è stato stampato nulla.',
  },
  notPrintedSilent: {
    en: 'The printer did not answer, and its memory proves the document was not printed.',
    it: 'La stampante non ha risposto e la sua memoria dimostra che il documento non è stato stampato.',
  },
  stopped: {
    en: 'The agent stopped while a document was being sent, and {reason}.',
    it: 'L’agente si è fermato durante l’invio di un documento, e {reason}.',
  },
  stoppedUnreadable: {
    en: 'The agent stopped while a document was being sent, and its record of it cannot be read: check the printer’s last receipt.',
    it: 'L’agente si è fermato durante l’invio di un documento e la sua registrazione non è leggibile: controllare l’ultimo scontrino della stampante.',
  },
  countersUnknown: {
    en: 'the printer’s counters before the document are not known',
    it: 'i contatori della stampante prima del documento non sono noti',
  },
  memoryUnreadable: {
    en: 'the printer’s memory cannot be read',
    it: 'la memoria della stampante non è leggibile',
  },
  memoryDisagrees: {
    en: 'the printer’s memory and its last command disagree',
    it: 'la memoria della stampante e il suo ultimo comando non concordano',
  },
  noAddress: { en: 'the printer’s address is not known', it: 'l’indirizzo della stampante non è noto' },
  awayReason: {
    en: 'the printer did not come back within {minutes} minutes',
    it: 'la stampante non è tornata disponibile entro {minutes} minuti',
  },
  reportDone: {
    en: '{report, select, z {Daily closure (Z report) {z} done} other {X report printed}} on RT {serial}.',
    it: '{report, select, z {Chiusura giornaliera (rapporto Z) {z} eseguita} other {Rapporto X stampato}} su RT {serial}.',
  },
  zNotNeeded: {
    en: 'No daily closure needed: nothing was sold since the last one.',
    it: 'Chiusura giornaliera non necessaria: nulla è stato venduto dall’ultima.',
  },
  closureUnknown: {
    en: 'The daily closure’s answer was lost: whether it ran is not known. Check the printer before running it again.',
    it: 'La risposta della chiusura giornaliera è andata persa: non si sa se sia stata eseguita. Controllare la stampante prima di ripeterla.',
  },
  copyPrinted: {
    en: 'A copy of the last receipt was printed (not a fiscal document).',
    it: 'È stata stampata una copia dell’ultimo scontrino (non è un documento fiscale).',
  },
  agentNotRunning: { en: 'the agent was not running', it: 'l’agente non era in funzione' },
  notAttempted: { en: 'not attempted', it: 'non tentata' },
});

/** The staff actions on the status page and the CLI. */
export const customActionWords = defineMessages('custom.action', {
  xReport: { en: 'Print X report', it: 'Stampa rapporto X' },
  xReportHelp: {
    en: 'The day’s totals so far; closes nothing.',
    it: 'I totali della giornata finora; non chiude nulla.',
  },
  zReport: { en: 'Print Z report', it: 'Stampa rapporto Z' },
  zReportHelp: {
    en: 'The daily closure: closes the fiscal day now.',
    it: 'La chiusura giornaliera: chiude ora la giornata fiscale.',
  },
  zConfirm: {
    en: 'Close the fiscal day now? The scheduled closure then has nothing to close.',
    it: 'Chiudere ora la giornata fiscale? La chiusura programmata non avrà poi nulla da chiudere.',
  },
  void: { en: 'Void a receipt', it: 'Annulla uno scontrino' },
  voidHelp: {
    en: 'Voids a receipt of this printer by its number (zzzz-nnnn) and date.',
    it: 'Annulla uno scontrino di questa stampante dal suo numero (zzzz-nnnn) e dalla data.',
  },
  voidConfirm: {
    en: 'Void this receipt: the printer prints a void document for it.',
    it: 'Annullare questo scontrino: la stampante stampa un documento di annullo.',
  },
  receiptNumber: { en: 'Receipt number (zzzz-nnnn)', it: 'Numero dello scontrino (zzzz-nnnn)' },
  receiptDate: { en: 'Receipt date', it: 'Data dello scontrino' },
  copy: { en: 'Print a copy of the last receipt', it: 'Stampa una copia dell’ultimo scontrino' },
  copyHelp: {
    en: 'A non-fiscal copy of the last receipt (printDuplicateReceipt).',
    it: 'Una copia non fiscale dell’ultimo scontrino (printDuplicateReceipt).',
  },
  copyOnlyLast: {
    en: 'A Custom printer copies its last receipt only ({last}); nothing was printed.',
    it: 'Una stampante Custom copia solo il suo ultimo scontrino ({last}); non è stato stampato nulla.',
  },
  badReceiptNumber: {
    en: 'A receipt number reads zzzz-nnnn, e.g. 0143-0012.',
    it: 'Un numero di scontrino si scrive zzzz-nnnn, per esempio 0143-0012.',
  },
});
