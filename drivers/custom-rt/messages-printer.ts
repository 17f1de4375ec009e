import { defineMessages } from '../../src/messages/catalogue.js';

/**
 * The printer's error codes told to staff, from the status guide appended to the XML protocol
 * manual rev 2.00 (§3 "Protocol error codes", PDF pp.132–149; paraphrased). Codes without a
 * sentence of their own are told by number (`other`).
 */
export const customPrinterErrors = defineMessages('custom.printer', {
  paperOut: {
    en: 'The printer is out of paper (16): replace the roll.',
    it: 'La stampante è senza carta (16): sostituire il rotolo.',
  },
  coverOpen: {
    en: 'The printer’s cover is open (64): close it.',
    it: 'Il coperchio della stampante è aperto (64): chiuderlo.',
  },
  journalFull: {
    en: 'The electronic journal is full ({code}): call the printer’s technician.',
    it: 'Il giornale elettronico è pieno ({code}): chiamare il tecnico della stampante.',
  },
  closureNeeded: {
    en: 'The printer refuses receipts until the daily closure (Z report) is run ({code}).',
    it: 'La stampante rifiuta gli scontrini finché non si esegue la chiusura giornaliera (rapporto Z) ({code}).',
  },
  busy: {
    en: 'The printer is busy ({code}: sending to the tax agency, saving a document or another till printing): try again in a minute.',
    it: 'La stampante è occupata ({code}: invio all’Agenzia delle Entrate, salvataggio di un documento o un’altra cassa che stampa): riprovare tra un minuto.',
  },
  certificateExpired: {
    en: 'The printer’s certificate has expired (84): call the technician.',
    it: 'Il certificato della stampante è scaduto (84): chiamare il tecnico.',
  },
  notInService: {
    en: 'The printer is not fiscalised or not in service ({code}): call the technician.',
    it: 'La stampante non è fiscalizzata o non è in servizio ({code}): chiamare il tecnico.',
  },
  vatNotProgrammed: {
    en: 'The printer refused a VAT rate or department it is not programmed with ({code}): check vatSlots and departments.',
    it: 'La stampante ha rifiutato un’aliquota IVA o un reparto non programmato ({code}): controllare vatSlots e departments.',
  },
  refused: {
    en: 'The printer refused the document as invalid ({code}): nothing was printed.',
    it: 'La stampante ha rifiutato il documento come non valido ({code}): non è stato stampato nulla.',
  },
  notPossibleNow: {
    en: 'The printer says the operation is not possible now ({code}): look at its display.',
    it: 'La stampante indica che l’operazione ora non è possibile ({code}): guardarne il display.',
  },
  other: {
    en: 'The printer answered with error {code}.',
    it: 'La stampante ha risposto con l’errore {code}.',
  },
});

/** How the driver treats a printer status code; see errors.ts. */
export const customStatusWords = defineMessages('custom.status', {
  ready: { en: 'Ready', it: 'Pronta' },
  unreachable: { en: 'Not answering ({reason})', it: 'Non risponde ({reason})' },
  paperLow: {
    en: 'Paper is running low: have a new roll ready.',
    it: 'La carta sta finendo: tenere pronto un rotolo nuovo.',
  },
  paperOut: { en: 'Out of paper: replace the roll.', it: 'Carta finita: sostituire il rotolo.' },
  coverOpen: { en: 'Cover open: close it.', it: 'Coperchio aperto: chiuderlo.' },
  journalNearlyFull: {
    en: 'The electronic journal is nearly full: call the printer’s technician.',
    it: 'Il giornale elettronico è quasi pieno: chiamare il tecnico della stampante.',
  },
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

/** Facts in words. */
export const customFactWords = defineMessages('custom.fact', {
  ok: { en: 'ok', it: 'a posto' },
  low: { en: 'low', it: 'in esaurimento' },
  out: { en: 'out', it: 'finita' },
  open: { en: 'open', it: 'aperto' },
  closed: { en: 'closed', it: 'chiuso' },
  nearlyFull: { en: 'nearly full', it: 'quasi pieno' },
  full: { en: 'full', it: 'pieno' },
  noDocument: { en: 'no document open', it: 'nessun documento aperto' },
  receiptOpen: { en: 'fiscal receipt open', it: 'scontrino fiscale aperto' },
  nonFiscalOpen: { en: 'non-fiscal document open', it: 'documento non fiscale aperto' },
  invoiceOpen: { en: 'invoice open', it: 'fattura aperta' },
});

/**
 * The facts' labels, with the Epson family's names for the same facts (so the page, `/metrics`
 * and the alert rules read both families alike).
 */
export const customLabels = defineMessages('label.custom-rt', {
  lastReceipt: { en: 'Last receipt', it: 'Ultimo scontrino' },
  lastAction: { en: 'Last action', it: 'Ultima operazione' },
  paper: { en: 'Paper', it: 'Carta' },
  cover: { en: 'Cover', it: 'Coperchio' },
  electronicJournal: { en: 'Electronic journal', it: 'Giornale elettronico' },
  documentState: { en: 'Document state', it: 'Stato del documento' },
  printerStatus: { en: 'Printer status code', it: 'Codice di stato della stampante' },
  fiscalDayOpen: { en: 'Fiscal day open', it: 'Giornata fiscale aperta' },
  fiscalDayOpenSince: { en: 'Fiscal day open since', it: 'Inizio della giornata fiscale' },
  fiscalDayOpenHours: { en: 'Fiscal day open (hours)', it: 'Ore di apertura della giornata fiscale' },
  filesToSend: { en: 'Daily files to send', it: 'File giornalieri da inviare' },
  certificateExpiryDevice: {
    en: 'Device certificate expires',
    it: 'Scadenza del certificato del dispositivo',
  },
  serialNumber: { en: 'Serial number', it: 'Matricola' },
  vatTable: { en: 'VAT table', it: 'Tabella IVA' },
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
});
