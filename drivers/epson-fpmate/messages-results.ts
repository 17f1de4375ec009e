import { defineMessages } from '../../src/messages/catalogue.js';
import type { Message, MessageArg } from '../../src/messages/message.js';

/**
 * What the fiscal driver says about documents it printed (or may have printed): a receipt's
 * Notes, a report's, what the printer's memory proved after a lost answer, why an outcome is
 * unknown, and how a daily closure went — in English and Italian.
 *
 * A receipt's Notes keep the form the platform parses (`src/platform-simulator/receipts.ts`): the
 * document's `ZZZZ-NNNN` first, the printer's serial right after "RT ", in both languages.
 */
export const epsonResults = defineMessages('epson.result', {
  receipt: {
    en: '{kind, select, refund {Refund {label} on RT {serial}} void {Void {label} on RT {serial}} other {Receipt {label} on RT {serial}}}',
    it: '{kind, select, refund {Reso {label} su RT {serial}} void {Annullo {label} su RT {serial}} other {Scontrino {label} su RT {serial}}}',
  },
  withDate: { en: '{notes}, {dateTime}', it: '{notes}, {dateTime}' },
  withTotal: {
    en: '{notes}, total {total, number, ::.00 group-off} {currency}',
    it: '{notes}, totale {total, number, ::.00 group-off} {currency}',
  },
  withReference: { en: '{notes} ({reference})', it: '{notes} ({reference})' },
  reference: {
    en: '{kind, select, VOID {void of Z {z} no. {doc} of {date}} other {refund of Z {z} no. {doc} of {date}}}',
    it: '{kind, select, VOID {annullo dello scontrino Z {z} n. {doc} del {date}} other {reso dello scontrino Z {z} n. {doc} del {date}}}',
  },
  referenceOnRt: {
    en: '{reference} on RT {serial}',
    it: '{reference} su RT {serial}',
  },
  recovered: {
    en: '{notes}. Confirmed from the printer’s memory after its answer was lost',
    it: '{notes}. Confermato dalla memoria della stampante dopo che la sua risposta è andata persa',
  },
  withPrinterWarnings: { en: '{notes}. Printer: {warnings}', it: '{notes}. Stampante: {warnings}' },
  /** A printed receipt's Notes, then what the fiscal core says of it (a customer code left off …). */
  withFiscalNotes: { en: '{notes}. {more}', it: '{notes}. {more}' },
  /** Two things said one after the other: "paper running low; electronic journal nearly full". */
  oneThenOther: { en: '{first}; {then}', it: '{first}; {then}' },
  paperRunningLow: { en: 'paper running low', it: 'carta in esaurimento' },
  journalNearlyFull: { en: 'electronic journal nearly full', it: 'giornale elettronico quasi pieno' },
  unknownSerial: { en: 'unknown', it: 'sconosciuta' },

  document: {
    en: '{root, select, printerFiscalReport {Fiscal report printed on RT {serial}} printerNonFiscal {Non-fiscal document printed on RT {serial}} printerCommand {Printer command done on RT {serial}} printerFiscalReceipt {Fiscal document printed on RT {serial}} other {Document sent on RT {serial}}}',
    it: '{root, select, printerFiscalReport {Rapporto fiscale stampato su RT {serial}} printerNonFiscal {Documento non fiscale stampato su RT {serial}} printerCommand {Comando eseguito su RT {serial}} printerFiscalReceipt {Documento fiscale stampato su RT {serial}} other {Documento inviato su RT {serial}}}',
  },
  withZ: { en: '{notes}, Z {z}', it: '{notes}, Z {z}' },
  documentPrinted: { en: 'Document printed on RT {serial}', it: 'Documento stampato su RT {serial}' },
  documentType: {
    en: '{kind, select, refund {refund receipt} void {void receipt} other {sale receipt}}',
    it: '{kind, select, refund {scontrino di reso} void {documento di annullo} other {scontrino di vendita}}',
  },

  stoppedUnreadable: {
    en: 'The agent stopped while a fiscal document was being sent and cannot read what it had recorded about it. Check the printer’s last receipt: if it is there, do nothing; if not, issue it again.',
    it: 'L’agente si è fermato mentre inviava un documento fiscale e non riesce a leggere cosa aveva registrato al riguardo. Controllare l’ultimo scontrino della stampante: se c’è, non fare nulla; altrimenti emetterlo di nuovo.',
  },
  stopped: {
    en: 'The agent stopped while {what, select, refund {a refund receipt was} void {a void receipt was} receipt {a receipt was} other {a document was}} being sent and {reason}. Check the printer’s last receipt: if it is there, do nothing; if not, issue it again.',
    it: 'L’agente si è fermato mentre inviava {what, select, refund {uno scontrino di reso} void {un documento di annullo} receipt {uno scontrino} other {un documento}} e {reason}. Controllare l’ultimo scontrino della stampante: se c’è, non fare nulla; altrimenti emetterlo di nuovo.',
  },
  cannotTell: {
    en: 'cannot tell whether the printer did it',
    it: 'non può sapere se la stampante lo ha eseguito',
  },
  noAddress: {
    en: 'does not know the printer’s address',
    it: 'non conosce l’indirizzo della stampante',
  },
  countersUnknown: {
    en: 'the printer’s counters were not known before sending',
    it: 'i contatori della stampante non erano noti prima dell’invio',
  },
  lastDocumentUnreadable: {
    en: 'the printer’s last document cannot be read',
    it: 'l’ultimo documento della stampante non si può leggere',
  },
  lastDocumentNotFiscal: {
    en: 'the printer’s last document is not a fiscal one',
    it: 'l’ultimo documento della stampante non è fiscale',
  },
  countersBehind: {
    en: 'the printer’s counters are behind what the agent knew',
    it: 'i contatori della stampante sono indietro rispetto a quanto l’agente sapeva',
  },
  otherTotal: {
    en: 'the printer’s last document has a different total (another till?)',
    it: 'l’ultimo documento della stampante ha un totale diverso (un’altra cassa?)',
  },
  otherDocuments: {
    en: 'other documents were printed since the agent last looked',
    it: 'sono stati stampati altri documenti da quando l’agente ha controllato',
  },
  voidNotPrinted: {
    en: 'The void was not printed (the agent stopped before the printer took it); void the receipt again.',
    it: 'L’annullo non è stato stampato (l’agente si è fermato prima che la stampante lo ricevesse); annullare di nuovo lo scontrino.',
  },
});

/**
 * How a daily closure went (`ClosureRecord.detail`, `ScheduledClosure.detail`) and the page's
 * fact about the last one.
 */
export const epsonClosure = defineMessages('epson.closure', {
  printerSilent: { en: 'the printer does not answer', it: 'la stampante non risponde' },
  printerSilentBecause: {
    en: 'the printer does not answer ({reason})',
    it: 'la stampante non risponde ({reason})',
  },
  unreachable: {
    en: 'the printer cannot be reached ({reason})',
    it: 'la stampante non è raggiungibile ({reason})',
  },
  confirmedByState: {
    en: 'confirmed from the printer’s state',
    it: 'confermata dallo stato della stampante',
  },
  stateUnproven: {
    en: 'the printer’s state cannot prove it either way',
    it: 'lo stato della stampante non permette di stabilirlo',
  },
  laterClosureSeen: {
    en: 'a later closure’s document is on the printer',
    it: 'sulla stampante c’è un documento di una chiusura successiva',
  },
  notTaken: { en: 'the printer did not take the Z report', it: 'la stampante non ha ricevuto il rapporto Z' },
  nothingToClose: { en: 'no document since the last closure', it: 'nessun documento dall’ultima chiusura' },
  verified: { en: 'verified', it: 'verificata' },
  printerConfirmed: { en: 'the printer confirmed it', it: 'confermata dalla stampante' },
  noAnswer: { en: 'no answer', it: 'nessuna risposta' },
  agentNotRunning: { en: 'the agent was not running', it: 'l’agente non era in funzione' },
  notAttempted: { en: 'not attempted', it: 'non tentata' },

  last: {
    en: '{status} at {at} ({reason}: {detail})',
    it: '{status} il {at} ({reason}: {detail})',
  },
  lastZ: {
    en: '{status} at {at}, Z {z} ({reason}: {detail})',
    it: '{status} il {at}, Z {z} ({reason}: {detail})',
  },
  done: { en: 'done', it: 'eseguita' },
  skipped: { en: 'skipped', it: 'non necessaria' },
  failed: { en: 'failed', it: 'non riuscita' },
  unknown: { en: 'outcome unknown', it: 'esito sconosciuto' },
  missed: { en: 'missed', it: 'mancata' },
  notRun: { en: 'not run', it: 'non eseguita' },
  bySchedule: { en: 'scheduled', it: 'programmata' },
  byStaff: { en: 'by staff', it: 'dal personale' },
  dayTooLong: { en: 'fiscal day open too long', it: 'giornata fiscale aperta da troppo tempo' },
});

/** Why an exchange with the printer failed (`http.ts` `reasonWords`). */
export const epsonLink = defineMessages('epson.link', {
  answerTooLarge: { en: 'answer too large', it: 'risposta troppo grande' },
  timeout: { en: 'timeout', it: 'tempo scaduto' },
  fingerprintMismatch: {
    en: 'certificate fingerprint mismatch',
    it: 'l’impronta del certificato non corrisponde',
  },
  certificateRefused: { en: 'certificate refused', it: 'certificato rifiutato' },
  connectionBroken: { en: 'connection broken', it: 'connessione interrotta' },
  connectionFailed: { en: 'connection failed', it: 'connessione non riuscita' },
  badAddress: { en: 'bad address', it: 'indirizzo non valido' },
  unreadableAnswer: { en: 'unreadable answer', it: 'risposta illeggibile' },
  noAnswer: { en: 'no answer', it: 'nessuna risposta' },
  aborted: { en: 'aborted', it: 'interrotto' },
});

/** Messages said one after the other, "a; b; c" (none: undefined). */
export function oneAfterAnother(items: readonly Message[]): Message | undefined {
  const [first, ...rest] = items;
  if (!first) return undefined;
  const then = oneAfterAnother(rest);
  return then ? epsonResults.oneThenOther({ first, then }) : first;
}

/** A printer's serial for Notes, "unknown" when the driver has not learnt it. */
export function serialWords(serial: string | undefined): MessageArg {
  return serial ?? epsonResults.unknownSerial();
}
