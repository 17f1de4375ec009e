import { defineMessages } from '../../src/messages/catalogue.js';

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
  printed: {
    en: '{kind, select, refund {Refund {label} printed on RT {serial}.} void {Void {label} printed on RT {serial}.} other {Receipt {label} printed on RT {serial}.}}',
    it: '{kind, select, refund {Reso {label} stampato su RT {serial}.} void {Annullo {label} stampato su RT {serial}.} other {Scontrino {label} stampato su RT {serial}.}}',
  },
  printedUnnumbered: {
    en: 'Printed on RT {serial}; its number could not be read from the printer.',
    it: 'Stampato su RT {serial}; non è stato possibile leggerne il numero dalla stampante.',
  },
  recovered: {
    en: '{kind, select, refund {Refund {label} on RT {serial}} void {Void {label} on RT {serial}} other {Receipt {label} on RT {serial}}} was printed: the printer’s memory confirms it after the answer was lost.',
    it: '{kind, select, refund {Il reso {label} su RT {serial}} void {L’annullo {label} su RT {serial}} other {Lo scontrino {label} su RT {serial}}} è stato stampato: lo conferma la memoria della stampante dopo la perdita della risposta.',
  },
  unknownSerial: { en: '(serial unknown)', it: '(matricola sconosciuta)' },
  unconfirmed: {
    en: 'The printer’s answer was lost and its memory cannot tell whether the document was printed. It was NOT sent again: look for a receipt with the line {marker} on the printer before printing it by hand.',
    it: 'La risposta della stampante è andata persa e la sua memoria non permette di sapere se il documento è stato stampato. NON è stato inviato di nuovo: cercare sulla stampante uno scontrino con la riga {marker} prima di stamparlo a mano.',
  },
  voidUnconfirmed: {
    en: 'The printer’s answer was lost and its memory cannot tell whether receipt {label} was voided. It was NOT sent again: check the printer’s last document before voiding it by hand.',
    it: 'La risposta della stampante è andata persa e la sua memoria non permette di sapere se lo scontrino {label} è stato annullato. NON è stato inviato di nuovo: controllare l’ultimo documento della stampante prima di annullarlo a mano.',
  },
  notPrintedUnreachable: {
    en: 'The printer could not be reached ({reason}): nothing was printed.',
    it: 'Impossibile raggiungere la stampante ({reason}): non è stato stampato nulla.',
  },
  notPrintedProven: {
    en: 'The printer’s answer was lost, and its memory proves the document was not printed.',
    it: 'La risposta della stampante è andata persa e la sua memoria dimostra che il documento non è stato stampato.',
  },
  stopped: {
    en: 'The agent stopped while a document was being sent, and {reason}.',
    it: 'L’agente si è fermato durante l’invio di un documento, e {reason}.',
  },
  stoppedUnreadable: {
    en: 'The agent stopped while a document was being sent, and its record of it cannot be read: check the printer’s last receipt.',
    it: 'L’agente si è fermato durante l’invio di un documento e la sua registrazione non è leggibile: controllare l’ultimo scontrino della stampante.',
  },
  noAddress: { en: 'the printer’s address is not known', it: 'l’indirizzo della stampante non è noto' },
  awayReason: {
    en: 'the printer did not come back within {minutes} minutes',
    it: 'la stampante non è tornata disponibile entro {minutes} minuti',
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
    en: 'the printer’s counters and its journal do not agree',
    it: 'i contatori della stampante e il suo giornale non concordano',
  },
  otherDocument: {
    en: 'another document came after it on the printer',
    it: 'sulla stampante è seguito un altro documento',
  },
  reportDone: {
    en: '{report, select, z {Daily closure (Z report) {z} done} other {X report printed}} on RT {serial}.',
    it: '{report, select, z {Chiusura giornaliera (rapporto Z) {z} eseguita} other {Rapporto X stampato}} su RT {serial}.',
  },
  zNotNeeded: {
    en: 'No daily closure needed: nothing was sold since the last one.',
    it: 'Chiusura giornaliera non necessaria: nulla è stato venduto dall’ultima.',
  },
  closureNotDone: {
    en: 'The daily closure did not run: the printer’s count of closures did not move.',
    it: 'La chiusura giornaliera non è stata eseguita: il conteggio delle chiusure della stampante non è cambiato.',
  },
  closureUnknown: {
    en: 'The daily closure’s answer was lost: whether it ran is not known. Check the printer before running it again.',
    it: 'La risposta della chiusura giornaliera è andata persa: non si sa se sia stata eseguita. Controllare la stampante prima di ripeterla.',
  },
  agentNotRunning: { en: 'the agent was not running', it: 'l’agente non era in funzione' },
  notAttempted: { en: 'not attempted', it: 'non tentata' },
});

/** The staff actions on the status page and the CLI. */
export const rchActionWords = defineMessages('rch.action', {
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
    en: 'Voids a receipt of this printer by its number (zzzz-nnnn) and date; the printer checks it first.',
    it: 'Annulla uno scontrino di questa stampante dal suo numero (zzzz-nnnn) e dalla data; la stampante lo verifica prima.',
  },
  voidConfirm: {
    en: 'Void this receipt: the printer prints a void document for it.',
    it: 'Annullare questo scontrino: la stampante stampa un documento di annullo.',
  },
  receiptNumber: { en: 'Receipt number (zzzz-nnnn)', it: 'Numero dello scontrino (zzzz-nnnn)' },
  receiptDate: { en: 'Receipt date', it: 'Data dello scontrino' },
  badReceipt: {
    en: 'A receipt number reads zzzz-nnnn, e.g. 0143-0012, and its date 2026-03-13.',
    it: 'Un numero di scontrino si scrive zzzz-nnnn, per esempio 0143-0012, e la sua data 2026-03-13.',
  },
});
