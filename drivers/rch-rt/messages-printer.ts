import { defineMessages } from '../../src/messages/catalogue.js';

/**
 * What the printer's answers tell staff. RCH publishes its error codes only behind a partner login:
 * the sources show 0 (done) and 101 (a command the printer did not take: Leahcim12/optyker-web
 * `supabase/FISCAL-CONNECTION.md`, with `lastCmd` 0), and the answer's own flags — paper end, cover
 * open, printer error, busy (lyancoder/fiscal-printer `xml-RCH-http.ts`). Any other code is told by
 * number (README, "What a first real printer must confirm").
 */
export const rchPrinterErrors = defineMessages('rch.printer', {
  paperOut: {
    en: 'The printer is out of paper: replace the roll. Nothing was printed.',
    it: 'La stampante è senza carta: sostituire il rotolo. Non è stato stampato nulla.',
  },
  coverOpen: {
    en: 'The printer’s cover is open: close it. Nothing was printed.',
    it: 'Il coperchio della stampante è aperto: chiuderlo. Non è stato stampato nulla.',
  },
  printerError: {
    en: 'The printer reports a fault: look at its display. Nothing was printed.',
    it: 'La stampante segnala un guasto: guardarne il display. Non è stato stampato nulla.',
  },
  notAccepted: {
    en: 'The printer did not accept a command (101): check that its firmware supports the web service’s commands. Nothing was printed.',
    it: 'La stampante non ha accettato un comando (101): verificare che il firmware supporti i comandi del web service. Non è stato stampato nulla.',
  },
  refused: {
    en: 'The printer refused the document with error {code}: look at its display. Nothing was printed.',
    it: 'La stampante ha rifiutato il documento con l’errore {code}: guardarne il display. Non è stato stampato nulla.',
  },
  busy: {
    en: 'The printer is busy with another request: try again in a minute. Nothing was printed.',
    it: 'La stampante è occupata con un’altra richiesta: riprovare tra un minuto. Non è stato stampato nulla.',
  },
});

/** The status card's sentences. */
export const rchStatusWords = defineMessages('rch.status', {
  ready: { en: 'Ready', it: 'Pronta' },
  unreachable: { en: 'Not answering ({reason})', it: 'Non risponde ({reason})' },
  paperOut: { en: 'Out of paper: replace the roll.', it: 'Carta finita: sostituire il rotolo.' },
  coverOpen: { en: 'Cover open: close it.', it: 'Coperchio aperto: chiuderlo.' },
  printerError: {
    en: 'The printer reports a fault: look at its display.',
    it: 'La stampante segnala un guasto: guardarne il display.',
  },
  notInService: {
    en: 'The printer is not in service as an RT ({state}): call the technician.',
    it: 'La stampante non è in servizio come RT ({state}): chiamare il tecnico.',
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
export const rchFactWords = defineMessages('rch.fact', {
  paperOk: { en: 'ok', it: 'a posto' },
  paperOut: { en: 'out', it: 'finita' },
  coverOpen: { en: 'open', it: 'aperto' },
  coverClosed: { en: 'closed', it: 'chiuso' },
  documentOpen: { en: 'a document open', it: 'un documento aperto' },
  noDocument: { en: 'no document open', it: 'nessun documento aperto' },
});

/**
 * The facts' labels, with the names the other RT families use for the same facts (so the page,
 * `/metrics` and the alert rules read every family alike).
 */
export const rchLabels = defineMessages('label.rch-rt', {
  lastReceipt: { en: 'Last receipt', it: 'Ultimo scontrino' },
  lastAction: { en: 'Last action', it: 'Ultima operazione' },
  paper: { en: 'Paper', it: 'Carta' },
  cover: { en: 'Cover', it: 'Coperchio' },
  documentState: { en: 'Document state', it: 'Stato del documento' },
  key: { en: 'Key (mode)', it: 'Chiave (modalità)' },
  rtState: { en: 'RT state code', it: 'Codice di stato RT' },
  fiscalDayOpen: { en: 'Fiscal day open', it: 'Giornata fiscale aperta' },
  fiscalDayOpenSince: { en: 'Fiscal day open since', it: 'Inizio della giornata fiscale' },
  fiscalDayOpenHours: { en: 'Fiscal day open (hours)', it: 'Ore di apertura della giornata fiscale' },
  filesToSend: { en: 'Daily files to send', it: 'File giornalieri da inviare' },
  serialNumber: { en: 'Serial number', it: 'Matricola' },
  firmware: { en: 'Firmware', it: 'Firmware' },
  zCount: { en: 'Daily closures made', it: 'Chiusure giornaliere eseguite' },
  lastDocument: { en: 'Last document of the day', it: 'Ultimo documento della giornata' },
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
  marker: { en: 'Line printed on the receipt', it: 'Riga stampata sullo scontrino' },
  report: { en: 'Report', it: 'Rapporto' },
});
