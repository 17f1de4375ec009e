import { defineMessages } from '../../src/messages/catalogue.js';
import { RT_LABEL_TEXTS } from '../fiscal-it/rt/messages.js';

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

/** The status card's sentences of Custom's own (the rest are the kit's `rtCardWords`). */
export const customStatusWords = defineMessages('custom.status', {
  paperLow: {
    en: 'Paper is running low: have a new roll ready.',
    it: 'La carta sta finendo: tenere pronto un rotolo nuovo.',
  },
  journalNearlyFull: {
    en: 'The electronic journal is nearly full: call the printer’s technician.',
    it: 'Il giornale elettronico è quasi pieno: chiamare il tecnico della stampante.',
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
 * The labels of Custom's own facts, with the Epson family's names for the same facts (so the
 * page, `/metrics` and the alert rules read every family alike); the rest the kit's `RT_LABEL_TEXTS`.
 */
export const customLabels = defineMessages('label.custom-rt', {
  ...RT_LABEL_TEXTS,
  electronicJournal: { en: 'Electronic journal', it: 'Giornale elettronico' },
  printerStatus: { en: 'Printer status code', it: 'Codice di stato della stampante' },
  certificateExpiryDevice: {
    en: 'Device certificate expires',
    it: 'Scadenza del certificato del dispositivo',
  },
  vatTable: { en: 'VAT table', it: 'Tabella IVA' },
});
