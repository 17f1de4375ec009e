import { defineMessages } from '../../src/messages/catalogue.js';
import type { Message, MessageArg } from '../../src/messages/message.js';
import { serialWords } from './messages-results.js';
// The family's other catalogues load with this one (`drivers/index.ts` imports this file), so a
// Note or a fact of this driver renders wherever the registry is loaded.
import './messages-describe.js';
import './messages-status.js';
import './messages-refusals.js';
import './messages-printer.js';
import './messages-programming.js';

/**
 * What a receptionist reads (the platform's Notes, the status page) about the Epson printer's
 * fiscal work — voids, reference checks, the daily closure and the printer's RT state — as
 * catalogue entries (what Italian fiscal law decides of a bill is the fiscal core's:
 * `drivers/fiscal-it/messages.ts`) in
 * English and Italian. Each sentence says what happened, whether anything was printed, and what
 * to do. Ids and numbers only: never a guest's data, never a token.
 */
const m = defineMessages('epson', {
  voidRefused: {
    en: 'The fiscal printer says receipt {label} of {date} cannot be voided (not found, already voided or already refunded); nothing was printed. Check the receipt’s number and date.',
    it: 'La stampante fiscale dice che lo scontrino {label} del {date} non si può annullare (non trovato, già annullato o già reso); non è stato stampato nulla. Controllare numero e data dello scontrino.',
  },
  refundRefused: {
    en: 'The fiscal printer says receipt {label} of {date} cannot be refunded (not found, already voided or already refunded); nothing was printed. Check the receipt’s number and date.',
    it: 'La stampante fiscale dice che lo scontrino {label} del {date} non si può rendere (non trovato, già annullato o già reso); non è stato stampato nulla. Controllare numero e data dello scontrino.',
  },
  voidReceiptMissing: {
    en: 'Give the number of the receipt to void as ZZZZ-NNNN (closure number, receipt number), e.g. 0012-0034.',
    it: 'Indicare il numero dello scontrino da annullare come ZZZZ-NNNN (numero di chiusura, numero di scontrino), per esempio 0012-0034.',
  },
  voidDateMissing: {
    en: 'The agent does not know when receipt {label} was printed; give its date (YYYY-MM-DD). Nothing was printed.',
    it: 'L’agente non sa quando è stato stampato lo scontrino {label}; indicarne la data (AAAA-MM-GG). Non è stato stampato nulla.',
  },
  voidSerialUnknown: {
    en: 'The fiscal printer’s serial number is not known yet, so the void cannot name it; nothing was printed. Try again once the printer answers.',
    it: 'La matricola della stampante fiscale non è ancora nota, quindi l’annullo non può indicarla; non è stato stampato nulla. Riprovare quando la stampante risponde.',
  },
  closureRefusedThenFailed: {
    en: 'The printer refused the receipt because its fiscal day has been open too long, and the daily closure (Z report) failed too ({why}); nothing was printed. Run the Z report on the printer, then issue the receipt again.',
    it: 'La stampante ha rifiutato lo scontrino perché la giornata fiscale è aperta da troppo tempo, e anche la chiusura giornaliera (rapporto Z) non è riuscita ({why}); non è stato stampato nulla. Eseguire il rapporto Z sulla stampante, poi emettere di nuovo lo scontrino.',
  },
  closedThenPrinted: {
    en: '{notes}. The fiscal day had been open too long: the agent ran the daily closure (Z report) first',
    it: '{notes}. La giornata fiscale era aperta da troppo tempo: l’agente ha eseguito prima la chiusura giornaliera (rapporto Z)',
  },
  closedThenPrintedZ: {
    en: '{notes}. The fiscal day had been open too long: the agent ran the daily closure (Z report) first (Z {z})',
    it: '{notes}. La giornata fiscale era aperta da troppo tempo: l’agente ha eseguito prima la chiusura giornaliera (rapporto Z) (Z {z})',
  },
  xReportPrinted: {
    en: 'X report (daily financial report) printed on RT {serial}',
    it: 'Rapporto X (rapporto finanziario giornaliero) stampato su RT {serial}',
  },
  zReportPrinted: {
    en: 'Daily closure (Z report) done on RT {serial}',
    it: 'Chiusura giornaliera (rapporto Z) eseguita su RT {serial}',
  },
  zReportPrintedNumber: {
    en: 'Daily closure (Z report {z}) done on RT {serial}',
    it: 'Chiusura giornaliera (rapporto Z {z}) eseguita su RT {serial}',
  },
  fromStateAfterLostAnswer: {
    en: '{sentence}, as the printer’s state shows after its answer was lost',
    it: '{sentence}, come risulta dallo stato della stampante dopo che la sua risposta è andata persa',
  },
  zReportSkipped: {
    en: 'No daily closure needed: no receipt was printed since the last Z report. Nothing was printed.',
    it: 'Nessuna chiusura giornaliera necessaria: nessuno scontrino stampato dall’ultimo rapporto Z. Non è stato stampato nulla.',
  },
  zReportFailed: {
    en: 'The Z report was not printed: {why}',
    it: 'Il rapporto Z non è stato stampato: {why}',
  },
  xReportFailed: {
    en: 'The X report was not printed: {why}',
    it: 'Il rapporto X non è stato stampato: {why}',
  },
  unreachable: {
    en: 'the printer cannot be reached ({reason})',
    it: 'la stampante non è raggiungibile ({reason})',
  },
  zReportUnknown: {
    en: 'The printer did not confirm the Z report and its state cannot be read; check the printer before trying again.',
    it: 'La stampante non ha confermato il rapporto Z e il suo stato non si può leggere; controllare la stampante prima di riprovare.',
  },
  xReportUnknown: {
    en: 'The printer did not confirm the X report and its state cannot be read; check the printer before trying again.',
    it: 'La stampante non ha confermato il rapporto X e il suo stato non si può leggere; controllare la stampante prima di riprovare.',
  },
  dayOpenLongAt: {
    en: 'The fiscal day has been open for {hours, plural, one {# hour} other {# hours}}: the daily closure (Z report) is due — it runs at {at}, or use Print Z report.',
    it: 'La giornata fiscale è aperta da {hours, plural, one {# ora} other {# ore}}: è dovuta la chiusura giornaliera (rapporto Z) — viene eseguita alle {at}, oppure usare Stampa rapporto Z.',
  },
  dayOpenLong: {
    en: 'The fiscal day has been open for {hours, plural, one {# hour} other {# hours}}: the daily closure (Z report) is due — run it on the printer or with Print Z report.',
    it: 'La giornata fiscale è aperta da {hours, plural, one {# ora} other {# ore}}: è dovuta la chiusura giornaliera (rapporto Z) — eseguirla sulla stampante o con Stampa rapporto Z.',
  },
  dayOpenUnknownAge: {
    en: 'The fiscal day is open, since before the agent started: if the daily closure (Z report) was not run today, run it.',
    it: 'La giornata fiscale è aperta da prima che l’agente partisse: se oggi la chiusura giornaliera (rapporto Z) non è stata eseguita, eseguirla.',
  },
  closureFailed: {
    en: 'The daily closure (Z report) of {when} failed: {why}. The agent tries again; if it keeps failing, run the Z report on the printer.',
    it: 'La chiusura giornaliera (rapporto Z) del {when} non è riuscita: {why}. L’agente riprova; se continua a non riuscire, eseguire il rapporto Z sulla stampante.',
  },
  closureMissed: {
    en: 'The daily closure (Z report) of {when} could not be done. Run the Z report on the printer, or use Print Z report.',
    it: 'La chiusura giornaliera (rapporto Z) del {when} non si è potuta eseguire. Eseguire il rapporto Z sulla stampante, oppure usare Stampa rapporto Z.',
  },
  closureUnknown: {
    en: 'The daily closure (Z report) was sent but its outcome is not known yet; the agent checks the printer before doing anything else.',
    it: 'La chiusura giornaliera (rapporto Z) è stata inviata ma il suo esito non è ancora noto; l’agente controlla la stampante prima di fare altro.',
  },
  rtNotInService: {
    en: 'The fiscal printer is not in service as an RT ({state}): its receipts are not sent to the tax agency. Call the printer’s technician.',
    it: 'La stampante fiscale non è in servizio come RT ({state}): i suoi scontrini non vengono inviati all’Agenzia delle Entrate. Chiamare il tecnico della stampante.',
  },
  fiscalMemoryNotInService: {
    en: 'The fiscal printer reports its fiscal memory as not in service. Call the printer’s technician.',
    it: 'La stampante fiscale indica la memoria fiscale come non in servizio. Chiamare il tecnico della stampante.',
  },
  filesWaiting: {
    en: '{count, plural, one {# daily file has} other {# daily files have}} been waiting {hours, plural, one {# hour} other {# hours}} to be sent to the tax agency: check the printer’s internet connection.',
    it: '{count, plural, one {# file giornaliero attende} other {# file giornalieri attendono}} da {hours, plural, one {# ora} other {# ore}} l’invio all’Agenzia delle Entrate: controllare la connessione internet della stampante.',
  },
  lastActionFact: {
    en: '{action, select, void {void at {at}} other {action at {at}}}: {notes}',
    it: '{action, select, void {annullo del {at}} other {operazione del {at}}}: {notes}',
  },
  waitingForClosure: {
    en: 'The printer is waiting for the daily closure (Z report): it refuses receipts until it is done.',
    it: 'La stampante attende la chiusura giornaliera (rapporto Z): rifiuta gli scontrini finché non è eseguita.',
  },
  voidUnknown: {
    en: 'The agent stopped while a void was being printed and cannot tell whether it was: check the printer’s last receipt.',
    it: 'L’agente si è fermato mentre stampava un annullo e non sa se è stato stampato: controllare l’ultimo scontrino della stampante.',
  },
  reportLastUnknown: {
    en: 'The agent stopped while a report was being printed and cannot tell whether it was: check the printer’s last receipt.',
    it: 'L’agente si è fermato mentre stampava un rapporto e non sa se è stato stampato: controllare l’ultimo scontrino della stampante.',
  },
});

/** The Epson printer's device actions as the page and the command line name them. */
export const epsonActionWords = defineMessages('epson.action', {
  xLabel: { en: 'Print X report', it: 'Stampa rapporto X' },
  xDescription: {
    en: 'Prints the day’s financial report (X); it changes nothing on the printer.',
    it: 'Stampa il rapporto finanziario del giorno (X); non cambia nulla sulla stampante.',
  },
  zLabel: { en: 'Print Z report', it: 'Stampa rapporto Z' },
  zDescription: {
    en: 'Closes the fiscal day now (Z report) instead of waiting for the scheduled closure; skipped when no receipt was printed since the last one.',
    it: 'Chiude ora la giornata fiscale (rapporto Z) invece di attendere la chiusura programmata; non viene eseguito se dall’ultimo non è stato stampato alcuno scontrino.',
  },
  zConfirm: {
    en: 'Close the fiscal day now: the printer prints the Z report and sends the day to the tax agency.',
    it: 'Chiudere ora la giornata fiscale: la stampante stampa il rapporto Z e invia la giornata all’Agenzia delle Entrate.',
  },
  voidLabel: { en: 'Void a receipt', it: 'Annulla uno scontrino' },
  voidDescription: {
    en: 'Voids (annullo) a receipt this printer printed, e.g. one printed after all for a command whose outcome was unknown and which was issued again.',
    it: 'Annulla uno scontrino stampato da questa stampante, per esempio uno stampato comunque per un comando dall’esito incerto che è stato emesso di nuovo.',
  },
  receiptField: { en: 'Receipt number', it: 'Numero dello scontrino' },
  dateField: { en: 'Printed on', it: 'Stampato il' },
  voidConfirm: {
    en: 'Void this receipt: the printer prints a void document for it.',
    it: 'Annullare questo scontrino: la stampante stampa un documento di annullo.',
  },
});

/** The sentences above, with the arguments each call site has. */
export const fiscalNotes = {
  referenceRefused: (kind: 'refund' | 'void', label: string, date: string) =>
    kind === 'void' ? m.voidRefused({ label, date }) : m.refundRefused({ label, date }),
  voidReceiptMissing: () => m.voidReceiptMissing(),
  voidDateMissing: (label: string) => m.voidDateMissing({ label }),
  voidSerialUnknown: () => m.voidSerialUnknown(),
  closureRefusedThenFailed: (why: MessageArg) => m.closureRefusedThenFailed({ why }),
  /** A receipt's Notes, then that the agent closed the day first. */
  closedThenPrinted: (notes: MessageArg, z: number | undefined) =>
    z === undefined ? m.closedThenPrinted({ notes }) : m.closedThenPrintedZ({ notes, z }),
  xReportPrinted: (serial: MessageArg) => m.xReportPrinted({ serial }),
  zReportPrinted: (serial: string | undefined, z: number | undefined, verified: boolean): Message => {
    const rt = serialWords(serial);
    const done =
      z === undefined ? m.zReportPrinted({ serial: rt }) : m.zReportPrintedNumber({ serial: rt, z });
    return verified ? done : m.fromStateAfterLostAnswer({ sentence: done });
  },
  zReportSkipped: () => m.zReportSkipped(),
  reportFailed: (what: 'Z report' | 'X report', why: MessageArg) =>
    what === 'Z report' ? m.zReportFailed({ why }) : m.xReportFailed({ why }),
  unreachable: (reason: MessageArg) => m.unreachable({ reason }),
  reportUnknown: (what: 'Z report' | 'X report') =>
    what === 'Z report' ? m.zReportUnknown() : m.xReportUnknown(),
  dayOpenLong: (hours: number, at: string | undefined) =>
    at ? m.dayOpenLongAt({ hours, at }) : m.dayOpenLong({ hours }),
  dayOpenUnknownAge: () => m.dayOpenUnknownAge(),
  closureFailed: (when: MessageArg, why: MessageArg) => m.closureFailed({ when, why }),
  closureMissed: (when: MessageArg) => m.closureMissed({ when }),
  closureUnknown: () => m.closureUnknown(),
  rtNotInService: (state: MessageArg) => m.rtNotInService({ state }),
  fiscalMemoryNotInService: () => m.fiscalMemoryNotInService(),
  filesWaiting: (count: number, hours: number) => m.filesWaiting({ count, hours }),
  waitingForClosure: () => m.waitingForClosure(),
  /** The status page's fact: the last device action, when, and its Notes. */
  lastActionFact: (action: string, at: MessageArg, notes: MessageArg) =>
    m.lastActionFact({ action, at, notes }),
  lastActionUnknown: (what: 'void' | 'report') => (what === 'void' ? m.voidUnknown() : m.reportLastUnknown()),
};

/**
 * What the printer's failed answers mean for staff (`answers.ts`). `{notPrinted}` is `notPrinted`
 * for the document just sent, so each language can say it with its own article and agreement.
 */
export const epsonAnswers = defineMessages('epson.answer', {
  notPrinted: {
    en: 'the {what, select, refund {refund receipt} void {void receipt} x {X report} z {Z report} other {receipt}} was not printed',
    it: '{what, select, refund {lo scontrino di reso} void {il documento di annullo} x {il rapporto X} z {il rapporto Z} other {lo scontrino}} non è stato stampato',
  },
  document: {
    en: '{what, select, refund {refund receipt} void {void receipt} x {X report} z {Z report} other {receipt}}',
    it: '{what, select, refund {lo scontrino di reso} void {il documento di annullo} x {il rapporto X} z {il rapporto Z} other {lo scontrino}}',
  },
  unreachable: {
    en: 'The fiscal printer cannot be reached ({reason}); {notPrinted}. Check that it is switched on and connected; the agent tries again.',
    it: 'La stampante fiscale non è raggiungibile ({reason}); {notPrinted}. Verificare che sia accesa e collegata; l’agente riprova.',
  },
  httpRefused: {
    en: 'The printer’s web service refused the request (HTTP {status}); {notPrinted}. Ask IT to check the printer’s address and web-service settings.',
    it: 'Il servizio web della stampante ha rifiutato la richiesta (HTTP {status}); {notPrinted}. Chiedere all’assistenza informatica di verificare l’indirizzo della stampante e le impostazioni del servizio web.',
  },
  busyNotPrinted: {
    en: 'The printer stayed busy and, as its memory shows, did not print the {document}. The agent tries again shortly.',
    it: 'La stampante è rimasta occupata e, come mostra la sua memoria, non ha stampato {document}. L’agente riprova a breve.',
  },
  silentNotPrinted: {
    en: 'The printer did not answer and, as its memory shows, did not print the {document}. Check the printer; the agent tries again.',
    it: 'La stampante non ha risposto e, come mostra la sua memoria, non ha stampato {document}. Controllare la stampante; l’agente riprova.',
  },
  unconfirmed: {
    en: 'The printer did not confirm the {document} and the agent cannot tell whether it was printed. Check the printer’s last receipt: if it is there, do nothing; if not, issue the {document} again.',
    it: 'La stampante non ha confermato {document} e l’agente non può sapere se è stato stampato. Controllare l’ultimo scontrino della stampante: se c’è, non fare nulla; altrimenti emettere di nuovo {document}.',
  },
  paperOutOrCover: {
    en: 'Printer out of paper or its cover is open — replace the roll and close the cover; {notPrinted}. Then try again.',
    it: 'Stampante senza carta o con il coperchio aperto: sostituire il rotolo e chiudere il coperchio; {notPrinted}. Poi riprovare.',
  },
  lanError: {
    en: 'The printer’s network service could not talk to its fiscal unit; {notPrinted}. The agent tries again.',
    it: 'Il servizio di rete della stampante non è riuscito a comunicare con l’unità fiscale; {notPrinted}. L’agente riprova.',
  },
  offLine: {
    en: 'The printer is off line (switched off or disconnected); {notPrinted}. Check it; the agent tries again.',
    it: 'La stampante è fuori linea (spenta o scollegata); {notPrinted}. Controllarla; l’agente riprova.',
  },
  malformed: {
    en: 'The printer could not read the document (malformed XML); {notPrinted}. Report this to IT.',
    it: 'La stampante non è riuscita a leggere il documento (XML non valido); {notPrinted}. Segnalarlo all’assistenza informatica.',
  },
  incomplete: {
    en: 'The printer refused an incomplete document; {notPrinted}. Report this to IT.',
    it: 'La stampante ha rifiutato un documento incompleto; {notPrinted}. Segnalarlo all’assistenza informatica.',
  },
  badCommand: {
    en: 'The printer refused a command in the document; {notPrinted}. Report this to IT.',
    it: 'La stampante ha rifiutato un comando del documento; {notPrinted}. Segnalarlo all’assistenza informatica.',
  },
  emptyRequest: {
    en: 'The printer received an empty request; {notPrinted}. Report this to IT.',
    it: 'La stampante ha ricevuto una richiesta vuota; {notPrinted}. Segnalarlo all’assistenza informatica.',
  },
  noMemory: {
    en: 'The printer ran out of memory; {notPrinted}. Switch it off and on, then try again.',
    it: 'La stampante ha esaurito la memoria; {notPrinted}. Spegnerla e riaccenderla, poi riprovare.',
  },
  coverOpen: {
    en: 'Printer off line: its cover is open or the paper ran out — close the cover and check the roll; {notPrinted}. Then try again.',
    it: 'Stampante fuori linea: il coperchio è aperto o la carta è finita; chiudere il coperchio e controllare il rotolo; {notPrinted}. Poi riprovare.',
  },
  dateBeforeClosure: {
    en: 'The printer’s date is earlier than its last daily closure; {notPrinted}. Ask IT to correct the printer’s clock.',
    it: 'La data della stampante è precedente alla sua ultima chiusura giornaliera; {notPrinted}. Chiedere all’assistenza informatica di correggere l’orologio della stampante.',
  },
  wrongSequence: {
    en: 'The printer refused the document at this point (wrong sequence); {notPrinted}. Try again; if it repeats, report it to IT.',
    it: 'La stampante ha rifiutato il documento in questo momento (sequenza errata); {notPrinted}. Riprovare; se si ripete, segnalarlo all’assistenza informatica.',
  },
  badValue: {
    en: 'The printer refused a value in the document; {notPrinted}. Report this to IT.',
    it: 'La stampante ha rifiutato un valore del documento; {notPrinted}. Segnalarlo all’assistenza informatica.',
  },
  cannotPrintNow: {
    en: 'The printer says the operation is not possible now (status 17); {notPrinted}. Look at the printer’s display (a document or report may be in progress, or another till may be using it), then try again.',
    it: 'La stampante dice che l’operazione ora non è possibile (stato 17); {notPrinted}. Guardare il display della stampante (potrebbe essere in corso un documento o un rapporto, o un’altra cassa potrebbe usarla), poi riprovare.',
  },
  closureDue: {
    en: 'The printer refuses receipts until the daily closure (Z report) is run: {why}; {notPrinted}. Run the Z report (Print Z report, or on the printer), then issue the receipt again.',
    it: 'La stampante rifiuta gli scontrini finché non si esegue la chiusura giornaliera (rapporto Z): {why}; {notPrinted}. Eseguire il rapporto Z (Stampa rapporto Z, o sulla stampante), poi emettere di nuovo lo scontrino.',
  },
  closureDueWaiting: {
    en: 'it says it is waiting for the closure',
    it: 'dice di essere in attesa della chiusura',
  },
  closureDueHours: {
    en: 'the fiscal day has been open for {hours, plural, one {# hour} other {# hours}}',
    it: 'la giornata fiscale è aperta da {hours, plural, one {# ora} other {# ore}}',
  },
  amountTooHigh: {
    en: 'An amount is above the printer’s limit; {notPrinted}. Check the bill.',
    it: 'Un importo supera il limite della stampante; {notPrinted}. Controllare il conto.',
  },
  outsideLimits: {
    en: 'A value is outside the printer’s limits (or its daily total is reached); {notPrinted}. Check the bill.',
    it: 'Un valore è fuori dai limiti della stampante (o è stato raggiunto il suo totale giornaliero); {notPrinted}. Controllare il conto.',
  },
  badCustomerCode: {
    en: 'The customer’s tax code, VAT number or lottery code is invalid; {notPrinted}. Correct it and try again.',
    it: 'Il codice fiscale, la partita IVA o il codice lotteria del cliente non è valido; {notPrinted}. Correggerlo e riprovare.',
  },
  alreadyVoided: {
    en: 'The original receipt has already been voided; {notPrinted}.',
    it: 'Lo scontrino originale è già stato annullato; {notPrinted}.',
  },
  alreadyRefunded: {
    en: 'The original receipt has already been refunded; {notPrinted}.',
    it: 'Lo scontrino originale è già stato reso; {notPrinted}.',
  },
  referenceIsVoid: {
    en: 'The receipt it names is a void document, not a sale: only a sale receipt can be voided or refunded; {notPrinted}. Check the number of the original sale receipt.',
    it: 'Lo scontrino indicato è un documento di annullo, non una vendita: si può annullare o rendere solo uno scontrino di vendita; {notPrinted}. Controllare il numero dello scontrino di vendita originale.',
  },
  referenceIsRefund: {
    en: 'The receipt it names is a refund receipt, not a sale: only a sale receipt can be voided or refunded; {notPrinted}. Check the number of the original sale receipt.',
    it: 'Lo scontrino indicato è uno scontrino di reso, non una vendita: si può annullare o rendere solo uno scontrino di vendita; {notPrinted}. Controllare il numero dello scontrino di vendita originale.',
  },
  unitSilent: {
    en: 'The printer’s fiscal unit stopped answering while taking the {document}; it may or may not have been printed. Check the printer’s last receipt before trying again.',
    it: 'L’unità fiscale della stampante ha smesso di rispondere mentre riceveva {document}; potrebbe essere stato stampato o no. Controllare l’ultimo scontrino della stampante prima di riprovare.',
  },
  paperLowStopped: {
    en: 'The printer’s paper is running low and it stopped; {notPrinted}. Replace the roll, then try again.',
    it: 'La carta della stampante sta finendo e la stampante si è fermata; {notPrinted}. Sostituire il rotolo, poi riprovare.',
  },
  errorCode: {
    en: 'The printer reported error {status}; {notPrinted}. Check the printer’s display, then try again.',
    it: 'La stampante ha segnalato l’errore {status}; {notPrinted}. Controllare il display della stampante, poi riprovare.',
  },
  errorNoCode: {
    en: 'The printer reported error without a code; {notPrinted}. Check the printer’s display, then try again.',
    it: 'La stampante ha segnalato un errore senza codice; {notPrinted}. Controllare il display della stampante, poi riprovare.',
  },
  answered: {
    en: 'The printer answered “{code}”; {notPrinted}. Check the printer, then try again.',
    it: 'La stampante ha risposto “{code}”; {notPrinted}. Controllare la stampante, poi riprovare.',
  },
});
