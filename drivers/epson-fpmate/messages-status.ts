import { defineMessages } from '../../src/messages/catalogue.js';

/** The fiscal printer's status for the page and `doctor` (`status.ts`): its summary and warnings. */
export const epsonStatusWords = defineMessages('epson.status', {
  paperLow: {
    en: 'Paper is running low: have a new roll ready.',
    it: 'La carta sta finendo: tenere pronto un rotolo nuovo.',
  },
  offLine: {
    en: 'The printer is off line: close the cover or replace the paper roll.',
    it: 'La stampante è fuori linea: chiudere il coperchio o sostituire il rotolo di carta.',
  },
  journalNearlyFull: {
    en: 'The electronic journal is nearly full: call the printer’s technician.',
    it: 'Il giornale elettronico è quasi pieno: chiamare il tecnico della stampante.',
  },
  journalFull: {
    en: 'The electronic journal is full: the printer cannot print receipts.',
    it: 'Il giornale elettronico è pieno: la stampante non può stampare scontrini.',
  },
  filesRejected: {
    en: '{count, plural, one {# daily file} other {# daily files}} rejected by the tax agency: call the technician.',
    it: '{count, plural, one {# file giornaliero rifiutato} other {# file giornalieri rifiutati}} dall’Agenzia delle Entrate: chiamare il tecnico.',
  },
  oldFilesToSend: {
    en: '{count, plural, one {# old daily file} other {# old daily files}} not yet sent to the tax agency: check the printer’s network.',
    it: '{count, plural, one {# vecchio file giornaliero non ancora inviato} other {# vecchi file giornalieri non ancora inviati}} all’Agenzia delle Entrate: controllare la rete della stampante.',
  },
  trainingMode: {
    en: 'The printer is in training mode: its receipts are not fiscal.',
    it: 'La stampante è in modalità formazione: i suoi scontrini non sono fiscali.',
  },
  certificateExpiresDevice: {
    en: 'The RT device certificate expires on {date}: call the technician.',
    it: 'Il certificato del dispositivo RT scade il {date}: chiamare il tecnico.',
  },
  certificateExpiresTaxAgency: {
    en: 'The RT tax agency certificate expires on {date}: call the technician.',
    it: 'Il certificato dell’Agenzia delle Entrate dell’RT scade il {date}: chiamare il tecnico.',
  },
  refusesReceipts: {
    en: 'The printer refuses receipts until the daily closure (Z report) is run: use Print Z report, or run it on the printer.',
    it: 'La stampante rifiuta gli scontrini finché non si esegue la chiusura giornaliera (rapporto Z): usare Stampa rapporto Z, o eseguirla sulla stampante.',
  },
  notPossibleNow: {
    en: 'The printer refused the last receipt as not possible now (status 17): look at its display.',
    it: 'La stampante ha rifiutato l’ultimo scontrino perché ora non è possibile (stato 17): guardarne il display.',
  },
  lastFailedPaper: {
    en: 'The last receipt failed: paper out or cover open.',
    it: 'L’ultimo scontrino non è riuscito: carta finita o coperchio aperto.',
  },
  paperRanOut: {
    en: 'Paper ran out as the last receipt was printed (it was recorded): replace the roll.',
    it: 'La carta è finita mentre si stampava l’ultimo scontrino (che è stato registrato): sostituire il rotolo.',
  },
  outcomeUnknown: {
    en: 'A receipt’s outcome is unknown: check the printer’s last receipt.',
    it: 'L’esito di uno scontrino è sconosciuto: controllare l’ultimo scontrino della stampante.',
  },
  noAddressYet: {
    en: 'waiting for the first command to learn the printer’s address',
    it: 'in attesa del primo comando per conoscere l’indirizzo della stampante',
  },
  notContacted: { en: 'not contacted yet', it: 'non ancora contattata' },
  unreachable: {
    en: 'unreachable ({reason}) — check power and network',
    it: 'non raggiungibile ({reason}): controllare alimentazione e rete',
  },
  noAnswer: { en: 'no answer', it: 'nessuna risposta' },
  offLineSummary: {
    en: 'off line: cover open or paper out',
    it: 'fuori linea: coperchio aperto o carta finita',
  },
  journalFullSummary: { en: 'electronic journal full', it: 'giornale elettronico pieno' },
  readyPaperLow: { en: 'ready, paper low', it: 'pronta, carta in esaurimento' },
  ready: { en: 'ready', it: 'pronta' },
});

/**
 * The fiscal printer's facts on the status page (`DeviceStatus.facts`) and its receipts' result
 * details, by label (`label.epson-fpmate.<key>`, see `src/drivers-api/messages.ts`) and, for the
 * facts in words, by value — in English and Italian. The facts the status board gives
 * (`status.ts`) and the fiscal day's (`fiscal-status.ts`) are typed by these labels (`FactsOf`),
 * so a fact cannot go on the page without one.
 */

/** Labels of the printer's own state (`StatusBoard`). */
export const epsonPrinterLabels = defineMessages('label.epson-fpmate', {
  lastReceipt: { en: 'Last receipt', it: 'Ultimo scontrino' },
  printer: { en: 'Printer', it: 'Stampante' },
  paper: { en: 'Paper', it: 'Carta' },
  cover: { en: 'Cover', it: 'Coperchio' },
  electronicJournal: { en: 'Electronic journal', it: 'Giornale elettronico' },
  documentState: { en: 'Document state', it: 'Stato del documento' },
  printerStatus: { en: 'Printer status code', it: 'Codice di stato della stampante' },
  fiscalDayOpen: { en: 'Fiscal day open', it: 'Giornata fiscale aperta' },
  filesToSend: { en: 'Daily files to send', it: 'File giornalieri da inviare' },
  oldFilesToSend: { en: 'Old daily files to send', it: 'Vecchi file giornalieri da inviare' },
  filesRejected: { en: 'Daily files rejected', it: 'File giornalieri rifiutati' },
  certificateExpiryDevice: {
    en: 'Device certificate expires',
    it: 'Scadenza del certificato del dispositivo',
  },
  certificateExpiryTaxAgency: {
    en: 'Tax agency certificate expires',
    it: 'Scadenza del certificato dell’Agenzia delle Entrate',
  },
  certificateExpiryDeviceDays: {
    en: 'Days left on the device certificate',
    it: 'Giorni alla scadenza del certificato del dispositivo',
  },
  certificateExpiryTaxAgencyDays: {
    en: 'Days left on the tax agency certificate',
    it: 'Giorni alla scadenza del certificato dell’Agenzia delle Entrate',
  },
  trainingMode: { en: 'Training mode', it: 'Modalità formazione' },
  departmentProgramming: { en: 'Department programming', it: 'Programmazione dei reparti' },
});

/** Labels of the fiscal day, the closure and the RT state (`fiscal-status.ts`). */
export const epsonFiscalLabels = defineMessages('label.epson-fpmate', {
  rtState: { en: 'RT state', it: 'Stato RT' },
  rtMainStatus: { en: 'RT main status code', it: 'Codice di stato principale RT' },
  rtSubStatus: { en: 'RT sub-status code', it: 'Codice di sottostato RT' },
  fiscalMemory: { en: 'Fiscal memory', it: 'Memoria fiscale' },
  filesToSendSince: { en: 'Daily files waiting since', it: 'File giornalieri in attesa da' },
  filesToSendAgeHours: { en: 'Daily files waiting (hours)', it: 'Ore di attesa dei file giornalieri' },
  waitingForClosure: { en: 'Waiting for the daily closure', it: 'In attesa della chiusura giornaliera' },
  fiscalDayOpenSince: { en: 'Fiscal day open since', it: 'Inizio della giornata fiscale' },
  fiscalDayOpenHours: { en: 'Fiscal day open (hours)', it: 'Ore di apertura della giornata fiscale' },
  fiscalDayOpenTooLong: { en: 'Fiscal day open too long', it: 'Giornata fiscale aperta da troppo tempo' },
  dailyClosureAt: { en: 'Daily closure at', it: 'Chiusura giornaliera alle' },
  nextClosure: { en: 'Next closure', it: 'Prossima chiusura' },
  lastClosure: { en: 'Last closure', it: 'Ultima chiusura' },
  lastClosureStatus: { en: 'Last closure’s outcome', it: 'Esito dell’ultima chiusura' },
  lastClosureZ: { en: 'Last closure’s Z number', it: 'Numero Z dell’ultima chiusura' },
  lastClosureAt: { en: 'Last closure at', it: 'Ora dell’ultima chiusura' },
  lastAction: { en: 'Last action', it: 'Ultima operazione' },
});

/** Labels of a receipt's and a report's result details (`results.ts`, `actions.ts`). */
export const epsonResultLabels = defineMessages('label.epson-fpmate', {
  receiptNumber: { en: 'Receipt number', it: 'Numero dello scontrino' },
  zNumber: { en: 'Z number', it: 'Numero di chiusura (Z)' },
  documentNumber: { en: 'Document number', it: 'Numero del documento' },
  documentType: { en: 'Document type', it: 'Tipo di documento' },
  recovered: {
    en: 'Recovered from the printer’s memory',
    it: 'Recuperato dalla memoria della stampante',
  },
  dateTime: { en: 'Printed at', it: 'Stampato il' },
  printerSerial: { en: 'Printer serial number', it: 'Matricola della stampante' },
  refundOf: { en: 'Original receipt', it: 'Scontrino originale' },
  root: { en: 'Document', it: 'Documento' },
  responseData: { en: 'Printer’s answer', it: 'Risposta della stampante' },
  closedDayFirst: { en: 'Day closed first (Z)', it: 'Giornata chiusa prima (Z)' },
  report: { en: 'Report', it: 'Rapporto' },
  status: { en: 'Outcome', it: 'Esito' },
  reason: { en: 'Why', it: 'Motivo' },
  reference: { en: 'Original receipt', it: 'Scontrino originale' },
});

/** The printer's facts in words (`StatusBoard`, `fiscal-status.ts`). */
export const epsonFactWords = defineMessages('epson.fact', {
  printerOk: { en: 'ok', it: 'a posto' },
  printerPaperLow: { en: 'paper low', it: 'carta in esaurimento' },
  printerOffLine: {
    en: 'off line (cover open or paper out)',
    it: 'fuori linea (coperchio aperto o carta finita)',
  },
  printerUnknown: { en: 'unknown', it: 'sconosciuto' },
  paperOk: { en: 'ok', it: 'presente' },
  paperLow: { en: 'low', it: 'in esaurimento' },
  paperOutOrCoverOpen: { en: 'out or cover open', it: 'finita o coperchio aperto' },
  coverClosed: { en: 'closed', it: 'chiuso' },
  coverOpenOrPaperOut: { en: 'open or paper out', it: 'aperto o carta finita' },
  journalOk: { en: 'ok', it: 'a posto' },
  journalNearFull: { en: 'nearly full', it: 'quasi pieno' },
  journalToFormat: { en: 'to be formatted', it: 'da formattare' },
  journalPrevious: { en: 'a previous one', it: 'uno precedente' },
  journalOtherDevice: { en: 'another device’s', it: 'di un altro dispositivo' },
  journalFull: { en: 'full', it: 'pieno' },
  journalUnknown: { en: 'unknown', it: 'sconosciuto' },
  documentFiscalOpen: { en: 'fiscal receipt open', it: 'scontrino fiscale aperto' },
  documentClosed: { en: 'closed', it: 'chiuso' },
  documentNonFiscalOpen: { en: 'non-fiscal document open', it: 'documento non fiscale aperto' },
  documentPaymentInProgress: { en: 'payment in progress', it: 'pagamento in corso' },
  documentErrorAfterEscpos: {
    en: 'error after an ESC/POS command',
    it: 'errore dopo un comando ESC/POS',
  },
  documentNegativeReceipt: { en: 'negative receipt', it: 'scontrino negativo' },
  documentFiscalDocumentOpen: { en: 'fiscal document open', it: 'documento fiscale aperto' },
  documentOther: { en: 'other', it: 'altro' },
  documentUnknown: { en: 'unknown', it: 'sconosciuto' },

  rtInService: { en: 'in service', it: 'in servizio' },
  rtCertificatesMissing: { en: 'certificates missing', it: 'certificati mancanti' },
  rtCertificatesIncomplete: { en: 'certificates incomplete', it: 'certificati incompleti' },
  rtCertificatesLoaded: { en: 'certificates loaded', it: 'certificati caricati' },
  rtRegistered: { en: 'registered (censito)', it: 'censito' },
  rtActivated: { en: 'activated', it: 'attivato' },
  rtPreService: { en: 'pre-service', it: 'pre-servizio' },
  rtNotInService: { en: 'not in service ({sub})', it: 'non in servizio ({sub})' },
  rtUnknown: { en: 'unknown state ({main}/{sub})', it: 'stato sconosciuto ({main}/{sub})' },
  memoryInService: { en: 'in service', it: 'in servizio' },
  memoryNotInService: { en: 'not in service', it: 'non in servizio' },
  memoryUnknown: { en: 'unknown ({code})', it: 'sconosciuto ({code})' },
  closureOff: { en: 'off', it: 'disattivata' },
});
