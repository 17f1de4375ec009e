import { defineMessages } from '../../src/messages/catalogue.js';
import { RT_LABEL_TEXTS } from '../fiscal-it/rt/messages.js';

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

/** The status card's sentences of RCH's own (the rest are the kit's `rtCardWords`). */
export const rchStatusWords = defineMessages('rch.status', {
  printerError: {
    en: 'The printer reports a fault: look at its display.',
    it: 'La stampante segnala un guasto: guardarne il display.',
  },
  notInService: {
    en: 'The printer is not in service as an RT ({state}): call the technician.',
    it: 'La stampante non è in servizio come RT ({state}): chiamare il tecnico.',
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

/** The labels of an RCH printer's facts and details: the kit's `RT_LABEL_TEXTS` and RCH's own. */
export const rchLabels = defineMessages('label.rch-rt', {
  ...RT_LABEL_TEXTS,
  key: { en: 'Key (mode)', it: 'Chiave (modalità)' },
  rtState: { en: 'RT state code', it: 'Codice di stato RT' },
  zCount: { en: 'Daily closures made', it: 'Chiusure giornaliere eseguite' },
  lastDocument: { en: 'Last document of the day', it: 'Ultimo documento della giornata' },
  marker: { en: 'Line printed on the receipt', it: 'Riga stampata sullo scontrino' },
});
