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

/**
 * The status card's sentences every RT family says alike (the kit's `fiscalDayCard`, the line to
 * the printer, a document waiting for it); a family adds what only its printer reports.
 */
export const rtCardWords = defineMessages('rt.card', {
  ready: { en: 'Ready', it: 'Pronta' },
  unreachable: { en: 'Not answering ({reason})', it: 'Non risponde ({reason})' },
  paperOut: { en: 'Out of paper: replace the roll.', it: 'Carta finita: sostituire il rotolo.' },
  coverOpen: { en: 'Cover open: close it.', it: 'Coperchio aperto: chiuderlo.' },
  outcomeUnknown: {
    en: 'A document’s outcome is unknown: check the printer’s last receipt.',
    it: 'L’esito di un documento è sconosciuto: controllare l’ultimo scontrino della stampante.',
  },
  waiting: {
    en: 'A document waits for the printer to come back (until {until}).',
    it: 'Un documento attende che la stampante torni disponibile (fino alle {until}).',
  },
  dayOpenLong: {
    en: 'The fiscal day has been open for {hours} hours: the daily closure is due.',
    it: 'La giornata fiscale è aperta da {hours} ore: la chiusura giornaliera è dovuta.',
  },
  closureFailed: {
    en: 'The last daily closure did not run: {detail}',
    it: 'L’ultima chiusura giornaliera non è stata eseguita: {detail}',
  },
});

/** The staff actions' words every RT family shows alike (the kit's `actions.ts`). */
export const rtActionWords = defineMessages('rt.action', {
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
  badReceiptNumber: {
    en: 'A receipt number reads zzzz-nnnn, e.g. 0143-0012.',
    it: 'Un numero di scontrino si scrive zzzz-nnnn, per esempio 0143-0012.',
  },
});

/**
 * Why a command's printer address is refused, or the printer is not known yet, in every RT
 * family's words (`address.ts` `AddressWords`; the kit's `driver.ts`), written once: a family whose
 * journals already carry its own ids registers these texts under them.
 */
export const RT_ADDRESS_TEXTS = {
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
} as const;

export const rtAddressWords = defineMessages('rt.address', RT_ADDRESS_TEXTS);

/**
 * The labels of the facts and result details every RT family shows, written once: each family
 * registers them under its own `label.<kind>` with its own (src/drivers-api/messages.ts), so that
 * they name an RT's facts only.
 */
export const RT_LABEL_TEXTS = {
  lastReceipt: { en: 'Last receipt', it: 'Ultimo scontrino' },
  lastAction: { en: 'Last action', it: 'Ultima operazione' },
  paper: { en: 'Paper', it: 'Carta' },
  cover: { en: 'Cover', it: 'Coperchio' },
  documentState: { en: 'Document state', it: 'Stato del documento' },
  fiscalDayOpen: { en: 'Fiscal day open', it: 'Giornata fiscale aperta' },
  fiscalDayOpenSince: { en: 'Fiscal day open since', it: 'Inizio della giornata fiscale' },
  fiscalDayOpenHours: { en: 'Fiscal day open (hours)', it: 'Ore di apertura della giornata fiscale' },
  filesToSend: { en: 'Daily files to send', it: 'File giornalieri da inviare' },
  serialNumber: { en: 'Serial number', it: 'Matricola' },
  firmware: { en: 'Firmware', it: 'Firmware' },
  dailyClosureAt: { en: 'Daily closure at', it: 'Chiusura giornaliera alle' },
  nextClosure: { en: 'Next closure', it: 'Prossima chiusura' },
  lastClosure: { en: 'Last closure', it: 'Ultima chiusura' },
  lastClosureStatus: { en: 'Last closure’s outcome', it: 'Esito dell’ultima chiusura' },
  lastClosureZ: { en: 'Last closure’s Z number', it: 'Numero Z dell’ultima chiusura' },
  receiptNumber: { en: 'Receipt number', it: 'Numero dello scontrino' },
  zNumber: { en: 'Z number', it: 'Numero di chiusura (Z)' },
  documentNumber: { en: 'Document number', it: 'Numero del documento' },
  recovered: { en: 'Recovered from the printer’s memory', it: 'Recuperato dalla memoria della stampante' },
  printerSerial: { en: 'Printer serial number', it: 'Matricola della stampante' },
  reference: { en: 'Original receipt', it: 'Scontrino originale' },
  report: { en: 'Report', it: 'Rapporto' },
} as const;

/**
 * What a printed document, a recovered one, a restart and a closure tell staff in every RT family's
 * words, written once; each family registers them under its own ids (its journals keep them).
 */
export const RT_RESULT_TEXTS = {
  printed: {
    en: '{kind, select, refund {Refund {label} printed on RT {serial}.} void {Void {label} printed on RT {serial}.} other {Receipt {label} printed on RT {serial}.}}',
    it: '{kind, select, refund {Reso {label} stampato su RT {serial}.} void {Annullo {label} stampato su RT {serial}.} other {Scontrino {label} stampato su RT {serial}.}}',
  },
  recovered: {
    en: '{kind, select, refund {Refund {label} on RT {serial}} void {Void {label} on RT {serial}} other {Receipt {label} on RT {serial}}} was printed: the printer’s memory confirms it after the answer was lost.',
    it: '{kind, select, refund {Il reso {label} su RT {serial}} void {L’annullo {label} su RT {serial}} other {Lo scontrino {label} su RT {serial}}} è stato stampato: lo conferma la memoria della stampante dopo la perdita della risposta.',
  },
  unknownSerial: { en: '(serial unknown)', it: '(matricola sconosciuta)' },
  notPrintedUnreachable: {
    en: 'The printer could not be reached ({reason}): nothing was printed.',
    it: 'Impossibile raggiungere la stampante ({reason}): non è stato stampato nulla.',
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
  agentNotRunning: { en: 'the agent was not running', it: 'l’agente non era in funzione' },
  notAttempted: { en: 'not attempted', it: 'non tentata' },
} as const;
