import { defineMessages } from '../../src/messages/catalogue.js';

/**
 * What the office printer (IPP) driver tells staff. `{printer}` is the printer's name as
 * configured ("Reception Laser"); sentences about a printer start with it, so a reason reads
 * "Reception Laser is out of paper — …" / "Reception Laser è senza carta — …".
 */
export const ippMessages = defineMessages('ipp', {
  printed: { en: 'Printed {what} on {printer}', it: 'Stampa eseguita: {what} su {printer}' },
  printedAfterRestart: {
    en: 'Printed {what} on {printer} (confirmed by the printer after a restart)',
    it: 'Stampa eseguita: {what} su {printer} (confermata dalla stampante dopo un riavvio)',
  },
  copies: {
    en: '{copies, plural, one {# copy} other {# copies}}',
    it: '{copies, plural, one {# copia} other {# copie}}',
  },
  copiesOfPages: {
    en: '{copies, plural, one {# copy} other {# copies}} of {pages, plural, one {# page} other {# pages}}',
    it: '{copies, plural, one {# copia} other {# copie}} di {pages, plural, one {# pagina} other {# pagine}}',
  },
  confirmedAfterRestart: {
    en: '{sentence} (confirmed after a restart)',
    it: '{sentence} (confermato dopo un riavvio)',
  },
  copyCountIgnored: {
    en: '{sentence} (the printer ignored the copy count: check how many came out)',
    it: '{sentence} (la stampante ha ignorato il numero di copie: controllare quante ne sono uscite)',
  },
  purged: {
    en: 'Sent {what} to {printer} (job {job}); the printer accepted it and no longer lists it',
    it: 'Invio a {printer} riuscito: {what} (lavoro {job}); la stampante l’ha accettato e non lo elenca più',
  },
  unconfirmed: {
    en: 'Sent {what} to {printer} (job {job}); the printer did not report it finished within {waited} — check the output tray',
    it: 'Invio a {printer} riuscito: {what} (lavoro {job}); entro {waited} la stampante non ha comunicato la fine della stampa — controllare il vassoio di uscita',
  },
  minutes: {
    en: '{minutes, plural, one {# minute} other {# minutes}}',
    it: '{minutes, plural, one {# minuto} other {# minuti}}',
  },
  nothingHadPrinted: { en: '; nothing had printed', it: '; non era stato stampato nulla' },
  pagesOfHadPrinted: {
    en: '; {done} of {total} pages had printed',
    it: '; erano state stampate {done} pagine su {total}',
  },
  pagesHadPrinted: {
    en: '; {done, plural, one {# page} other {# pages}} had printed',
    it: '; {done, plural, one {era stata stampata # pagina} other {erano state stampate # pagine}}',
  },
  abortedWithProblem: {
    en: '{printer} could not print the document (job {job}): {problem}{soFar}. Fix the printer, then print again.',
    it: '{printer} non è riuscita a stampare il documento (lavoro {job}): {problem}{soFar}. Sistemare la stampante, poi stampare di nuovo.',
  },
  abortedWithWords: {
    en: '{printer} could not print the document (job {job}) ({words}){soFar}. Fix the printer, then print again.',
    it: '{printer} non è riuscita a stampare il documento (lavoro {job}) ({words}){soFar}. Sistemare la stampante, poi stampare di nuovo.',
  },
  aborted: {
    en: '{printer} could not print the document (job {job}){soFar}. Fix the printer, then print again.',
    it: '{printer} non è riuscita a stampare il documento (lavoro {job}){soFar}. Sistemare la stampante, poi stampare di nuovo.',
  },
  cancelledElsewhere: {
    en: 'The print job was cancelled on {printer} or in CUPS (job {job}){soFar}. Print it again if it is still needed.',
    it: 'La stampa è stata annullata su {printer} o in CUPS (lavoro {job}){soFar}. Stamparla di nuovo se serve ancora.',
  },
  stoppedAnswering: {
    en: 'The document was sent to {printer} (job {job}), but the printer stopped answering before it said it was printed. Check the printer before printing it again.',
    it: 'Il documento è stato inviato a {printer} (lavoro {job}), ma la stampante ha smesso di rispondere prima di confermare la stampa. Controllare la stampante prima di stampare di nuovo.',
  },
  printerStopped: { en: '{printer} stopped', it: '{printer} si è fermata' },
  waitedAndCancelled: {
    en: 'Not printed: {problem}. The job waited {waited} and was cancelled{soFar}; print it again once the printer is ready.',
    it: 'Non stampato: {problem}. Il lavoro ha atteso {waited} ed è stato annullato{soFar}; stamparlo di nuovo quando la stampante è pronta.',
  },
  waitedNotCancelled: {
    en: 'Not printed: {problem}. The job waited {waited}; the agent could not cancel it ({why}), so it may still print when the printer is fixed — check before printing again.',
    it: 'Non stampato: {problem}. Il lavoro ha atteso {waited}; l’agente non è riuscito ad annullarlo ({why}), quindi potrebbe ancora uscire quando la stampante sarà sistemata — controllare prima di stampare di nuovo.',
  },
  cancelledOn: {
    en: 'Cancelled on {printer} (job {job}){soFar}.',
    it: 'Annullato su {printer} (lavoro {job}){soFar}.',
  },
  couldNotCancel: {
    en: 'The agent could not cancel job {job} on {printer} ({why}); it may still print — cancel it at the printer.',
    it: 'L’agente non è riuscito ad annullare il lavoro {job} su {printer} ({why}); potrebbe ancora uscire — annullarlo dalla stampante.',
  },
  cancelNeedsPassword: {
    en: 'the printer asks for a password to cancel',
    it: 'la stampante chiede una password per annullare',
  },
  cancelNoAnswer: { en: 'the printer did not answer', it: 'la stampante non ha risposto' },
  cancelNotYet: { en: 'the printer has not stopped it yet', it: 'la stampante non l’ha ancora fermato' },
  noneAnswers: {
    en: 'None of the printers answers ({printers}); nothing was printed. Check that they are switched on and connected.',
    it: 'Nessuna stampante risponde ({printers}); non è stato stampato nulla. Controllare che siano accese e collegate.',
  },
  doesNotAnswer: {
    en: '{printer} does not answer; nothing was printed. Check that it is switched on and connected.',
    it: '{printer} non risponde; non è stato stampato nulla. Controllare che sia accesa e collegata.',
  },
  doesNotAnswerNothingMore: {
    en: '{printer} does not answer; nothing more was printed. Check that it is switched on and connected.',
    it: '{printer} non risponde; non è stato stampato altro. Controllare che sia accesa e collegata.',
  },
  unreadableCheckpoint: {
    en: 'The agent cannot read what it noted about an earlier try of this print, so it does not print again. Check the printer; print again if nothing came out.',
    it: 'L’agente non riesce a leggere cosa aveva annotato su un tentativo precedente di questa stampa, quindi non stampa di nuovo. Controllare la stampante; stampare di nuovo se non è uscito nulla.',
  },
  unreadableCheckpointReason: {
    en: 'the agent cannot read what it noted before the interruption, so it cannot tell whether the document was printed',
    it: 'l’agente non riesce a leggere cosa aveva annotato prima dell’interruzione, quindi non sa se il documento è stato stampato',
  },
  sentBut: {
    en: '{printer} was sent the document but {why}',
    it: 'il documento è stato inviato a {printer}, ma {why}',
  },
  jobsNotListed: {
    en: 'the printer does not list its jobs ({status})',
    it: 'la stampante non elenca i suoi lavori ({status})',
  },
  clockNotNoted: {
    en: 'the agent did not note the printer’s clock before sending',
    it: 'l’agente non aveva annotato l’orologio della stampante prima dell’invio',
  },
  notInJobList: { en: 'not in the printer’s job list', it: 'non è nell’elenco dei lavori della stampante' },
  printerRestarted: {
    en: 'the printer restarted since, and forgot its jobs',
    it: 'nel frattempo la stampante si è riavviata e ha dimenticato i suoi lavori',
  },
  jobsTooOld: {
    en: 'the printer no longer lists jobs that old',
    it: 'la stampante non elenca più lavori così vecchi',
  },
  unknownPrinter: {
    en: 'The agent does not know the printer “{name}”; nothing was printed. {known} Choose one of them, or ask IT to add this printer to the agent’s configuration.',
    it: 'L’agente non conosce la stampante “{name}”; non è stato stampato nulla. {known} Sceglierne una, oppure chiedere all’assistenza tecnica di aggiungere questa stampante alla configurazione dell’agente.',
  },
  noPrinterName: {
    en: 'The command names no printer; nothing was printed. {known} Choose one of them, or ask IT to add this printer to the agent’s configuration.',
    it: 'Il comando non indica nessuna stampante; non è stato stampato nulla. {known} Sceglierne una, oppure chiedere all’assistenza tecnica di aggiungere questa stampante alla configurazione dell’agente.',
  },
  knownPrinters: { en: 'Printers it knows: {names}.', it: 'Stampanti che conosce: {names}.' },
  noKnownPrinters: { en: 'It knows no printers yet.', it: 'Non conosce ancora nessuna stampante.' },
  cannotPrintFormat: {
    en: '{printer} cannot print {format} documents; nothing was printed.',
    it: '{printer} non può stampare documenti in formato {format}; non è stato stampato nulla.',
  },
  cannotPrintFormatTakes: {
    en: '{printer} cannot print {format} documents (it takes {accepted}); nothing was printed.',
    it: '{printer} non può stampare documenti in formato {format} (accetta {accepted}); non è stato stampato nulla.',
  },
  tooManyCopiesForPrinter: {
    en: '{printer} prints at most {upper, plural, one {# copy} other {# copies}} of a document at once; the command asks for {copies}. Nothing was printed.',
    it: '{printer} stampa al massimo {upper, plural, one {# copia} other {# copie}} di un documento alla volta; il comando ne chiede {copies}. Non è stato stampato nulla.',
  },
  brokeNothingTaken: {
    en: 'The connection to {printer} broke while sending; it did not take the document, so nothing was printed.',
    it: 'Il collegamento con {printer} si è interrotto durante l’invio; la stampante non ha ricevuto il documento, quindi non è stato stampato nulla.',
  },
  brokeUnknown: {
    en: 'The connection to {printer} broke while the document was being sent, and the agent cannot tell whether it was printed ({why}). Check the printer before printing again.',
    it: 'Il collegamento con {printer} si è interrotto durante l’invio del documento e l’agente non sa se è stato stampato ({why}). Controllare la stampante prima di stampare di nuovo.',
  },
  tooLargeForPrinter: {
    en: 'The document is too large for {printer}; nothing was printed.',
    it: 'Il documento è troppo grande per {printer}; non è stato stampato nulla.',
  },
  busy: {
    en: '{printer} is busy and did not take the document; nothing was printed.',
    it: '{printer} è occupata e non ha preso il documento; non è stato stampato nulla.',
  },
  needsPassword: {
    en: '{printer} asks for a password the agent does not have; nothing was printed. Ask IT to allow printing from this PC.',
    it: '{printer} chiede una password che l’agente non ha; non è stato stampato nulla. Chiedere all’assistenza tecnica di consentire la stampa da questo PC.',
  },
  refused: {
    en: '{printer} refused the document ({words}); nothing was printed.',
    it: '{printer} ha rifiutato il documento ({words}); non è stato stampato nulla.',
  },
  refusedRequest: {
    en: '{printer} refused the agent’s request ({words}); nothing was printed.',
    it: '{printer} ha rifiutato la richiesta dell’agente ({words}); non è stato stampato nulla.',
  },
  refusedRequestAddress: {
    en: '{printer} refused the agent’s request ({words}); nothing was printed. Ask IT to check the printer’s address.',
    it: '{printer} ha rifiutato la richiesta dell’agente ({words}); non è stato stampato nulla. Chiedere all’assistenza tecnica di controllare l’indirizzo della stampante.',
  },
  notIppAnswer: { en: 'not an IPP answer', it: 'non è una risposta IPP' },
  blocked: {
    en: '{problem}; nothing was printed. Print again once it is fixed.',
    it: '{problem}; non è stato stampato nulla. Stampare di nuovo una volta risolto.',
  },
  notAccepting: {
    en: '{printer} does not accept jobs; nothing was printed. Ask IT to enable it (on this PC: cupsaccept QUEUE).',
    it: '{printer} non accetta lavori; non è stato stampato nulla. Chiedere all’assistenza tecnica di abilitarla (su questo PC: cupsaccept NOMECODA).',
  },
  stopped: {
    en: 'The print job was stopped before the document was sent; nothing was printed.',
    it: 'La stampa è stata interrotta prima dell’invio del documento; non è stato stampato nulla.',
  },
  notPrintCommand: {
    en: 'This command is not a print command; the office printer driver did nothing.',
    it: 'Questo comando non è un comando di stampa; il driver della stampante d’ufficio non ha fatto nulla.',
  },
  unknownFileType: {
    en: 'The document’s file type ({type}) is not one the agent can print; nothing was printed.',
    it: 'Il tipo di file del documento ({type}) non è tra quelli che l’agente sa stampare; non è stato stampato nulla.',
  },
  noCopies: {
    en: 'The command asks for {copies} copies; nothing was printed. Print again with at least 1 copy.',
    it: 'Il comando chiede {copies} copie; non è stato stampato nulla. Stampare di nuovo con almeno 1 copia.',
  },
  tooManyCopies: {
    en: 'The command asks for {copies} copies, more than the {max} the agent prints at once; nothing was printed.',
    it: 'Il comando chiede {copies} copie, più delle {max} che l’agente stampa alla volta; non è stato stampato nulla.',
  },
  emptyDocument: {
    en: 'The command carries an empty document; nothing was printed.',
    it: 'Il comando contiene un documento vuoto; non è stato stampato nulla.',
  },
  notBase64: {
    en: 'The document in the command is damaged (not Base64); nothing was printed. Create it again.',
    it: 'Il documento nel comando è danneggiato (non è Base64); non è stato stampato nulla. Crearlo di nuovo.',
  },
  mislabelled: {
    en: 'The document is marked as {format} but is not one; nothing was printed. Create it again.',
    it: 'Il documento è indicato come {format} ma non lo è; non è stato stampato nulla. Crearlo di nuovo.',
  },
  tooLarge: {
    en: 'The document is too large ({size, number, ::.0} MB; the agent prints at most {max, number, ::.0} MB); nothing was printed.',
    it: 'Il documento è troppo grande ({size, number, ::.0} MB; l’agente stampa al massimo {max, number, ::.0} MB); non è stato stampato nulla.',
  },
  noPrinterContacted: { en: 'no printer contacted yet', it: 'nessuna stampante ancora contattata' },
  notContacted: { en: 'not contacted yet', it: 'non ancora contattata' },
  readyOne: { en: 'ready ({line})', it: 'pronta ({line})' },
  readyMany: { en: '{count} printers ready', it: '{count} stampanti pronte' },
  notAnsweringBecause: {
    en: '{printer} does not answer ({problem}) — check that it is switched on and connected',
    it: '{printer} non risponde ({problem}) — controllare che sia accesa e collegata',
  },
  ownerWithoutAccount: {
    en: 'Jobs are sent as “{user}”, which is not an account of this PC: a cancellation through this PC’s CUPS can stop CUPS (a bug of CUPS 2.4.17, in Debian 12’s cups 2.4.2-3+deb12u10) — ask IT to set the printer’s “user” to the agent’s service account (frontdesk-agent)',
    it: 'I lavori sono inviati come «{user}», che non è un account di questo PC: un annullamento tramite il CUPS di questo PC può fermare CUPS (un difetto di CUPS 2.4.17, in cups 2.4.2-3+deb12u10 di Debian 12) — chiedere all’assistenza tecnica di impostare «user» della stampante sull’account di servizio dell’agente (frontdesk-agent)',
  },
  notAcceptingWarning: {
    en: '{printer} does not accept jobs — ask IT to enable it (on this PC: cupsaccept QUEUE)',
    it: '{printer} non accetta lavori — chiedere all’assistenza tecnica di abilitarla (su questo PC: cupsaccept NOMECODA)',
  },
  lineNotAnswering: { en: 'not answering ({problem})', it: 'non risponde ({problem})' },
  noAnswer: { en: 'no answer', it: 'nessuna risposta' },
  noAnswerInTime: { en: 'no answer in time', it: 'nessuna risposta in tempo' },
  unreachable: { en: 'unreachable', it: 'irraggiungibile' },
  noSuchQueue: { en: 'no such queue', it: 'coda inesistente' },
  connectionBroken: { en: 'connection broken', it: 'connessione interrotta' },
  webServerAnswered: {
    en: 'its web server answered HTTP {status}',
    it: 'il suo server web ha risposto HTTP {status}',
  },
  /** The printer's own words (its `status-message`, else the IPP status keyword), as it said them. */
  printerAnswered: { en: 'the printer answered “{words}”', it: 'la stampante ha risposto “{words}”' },
  stateIdle: { en: 'idle', it: 'inattiva' },
  stateProcessing: { en: 'printing', it: 'in stampa' },
  stateStopped: { en: 'stopped', it: 'ferma' },
  stateAnswering: { en: 'answering', it: 'risponde' },
  stateUnknown: { en: 'state unknown', it: 'stato sconosciuto' },
  lineQueued: {
    en: '{state}, {queued, plural, one {# job queued} other {# jobs queued}}',
    it: '{state}, {queued, plural, one {# lavoro in coda} other {# lavori in coda}}',
  },
  lastJob: { en: 'job {job} on {printer}: {outcome}', it: 'lavoro {job} su {printer}: {outcome}' },
  lastJobNoId: { en: 'on {printer}: {outcome}', it: 'su {printer}: {outcome}' },
  problem: { en: '{printer} {reason}', it: '{printer} {reason}' },
  alsoProblem: { en: '{before}; it also {reason}', it: '{before}; inoltre {reason}' },
  unspecifiedProblem: {
    en: '{printer} reports a problem — check its display',
    it: '{printer} segnala un problema — controllarne il display',
  },
  reasonWarning: { en: '{problem}.', it: '{problem}.' },
});

/**
 * `printer-state-reasons` keywords in words, each after the printer's name ("is out of paper —
 * load paper into the tray"). `reasons.ts` says which stop printing and with which error code.
 */
export const ippReasons = defineMessages('ippReason', {
  'media-empty': {
    en: 'is out of paper — load paper into the tray',
    it: 'è senza carta — caricare la carta nel cassetto',
  },
  'media-needed': {
    en: 'needs paper — load paper into the tray',
    it: 'chiede carta — caricare la carta nel cassetto',
  },
  'media-low': { en: 'is running low on paper — add paper soon', it: 'ha poca carta — aggiungerne presto' },
  'media-jam': {
    en: 'has a paper jam — open it, remove the jammed sheet and close it',
    it: 'ha un foglio inceppato — aprirla, togliere il foglio e richiuderla',
  },
  'toner-empty': {
    en: 'is out of toner — replace the toner cartridge',
    it: 'ha finito il toner — sostituire la cartuccia del toner',
  },
  'toner-low': {
    en: 'is low on toner — have a new cartridge ready',
    it: 'ha poco toner — tenere pronta una cartuccia nuova',
  },
  'marker-supply-empty': {
    en: 'is out of ink or toner — replace the cartridge',
    it: 'ha finito l’inchiostro o il toner — sostituire la cartuccia',
  },
  'marker-supply-low': {
    en: 'is low on ink or toner — have a new cartridge ready',
    it: 'ha poco inchiostro o toner — tenere pronta una cartuccia nuova',
  },
  'marker-waste-full': {
    en: 'has a full waste toner box — replace it',
    it: 'ha il contenitore del toner di scarto pieno — sostituirlo',
  },
  'door-open': { en: 'has a door open — close it', it: 'ha uno sportello aperto — chiuderlo' },
  'cover-open': { en: 'has its cover open — close it', it: 'ha il coperchio aperto — chiuderlo' },
  'interlock-open': {
    en: 'has a door or cover open — close it',
    it: 'ha uno sportello o il coperchio aperto — chiuderlo',
  },
  'input-tray-missing': {
    en: 'is missing a paper tray — push the tray back in',
    it: 'non ha il cassetto della carta — reinserirlo',
  },
  'output-area-full': {
    en: 'has a full output tray — take the printed sheets out',
    it: 'ha il vassoio di uscita pieno — togliere i fogli stampati',
  },
  'output-area-almost-full': {
    en: 'has an almost full output tray — take the printed sheets out',
    it: 'ha il vassoio di uscita quasi pieno — togliere i fogli stampati',
  },
  offline: {
    en: 'is offline — switch it on or press its Online button',
    it: 'è fuori linea — accenderla o premere il suo tasto Online',
  },
  shutdown: { en: 'is switched off — switch it on', it: 'è spenta — accenderla' },
  paused: {
    en: 'is paused — ask IT to resume it (on this PC: cupsenable QUEUE)',
    it: 'è in pausa — chiedere all’assistenza tecnica di riattivarla (su questo PC: cupsenable NOMECODA)',
  },
  'moving-to-paused': {
    en: 'is pausing — ask IT to resume it (on this PC: cupsenable QUEUE)',
    it: 'si sta mettendo in pausa — chiedere all’assistenza tecnica di riattivarla (su questo PC: cupsenable NOMECODA)',
  },
  'spool-area-full': {
    en: 'has a full memory — wait a minute, or switch it off and on',
    it: 'ha la memoria piena — attendere un minuto, oppure spegnerla e riaccenderla',
  },
  'connecting-to-device': {
    en: 'cannot be reached by CUPS yet — check that it is switched on and connected',
    it: 'non è ancora raggiungibile da CUPS — controllare che sia accesa e collegata',
  },
  'timed-out': {
    en: 'did not answer CUPS in time — check that it is switched on and connected',
    it: 'non ha risposto in tempo a CUPS — controllare che sia accesa e collegata',
  },
  'cups-missing-filter': {
    en: 'has no driver in CUPS for this document — ask IT to check the queue’s driver',
    it: 'non ha in CUPS un driver per questo documento — chiedere all’assistenza tecnica di controllare il driver della coda',
  },
  'cups-insecure-filter': {
    en: 'has a CUPS driver that CUPS refuses to run — ask IT to check the queue’s driver',
    it: 'ha un driver che CUPS si rifiuta di eseguire — chiedere all’assistenza tecnica di controllare il driver della coda',
  },
  'cups-waiting-for-job-completed': {
    en: 'is finishing the previous job',
    it: 'sta finendo il lavoro precedente',
  },
  other: {
    en: 'reports “{keyword}” — check its display',
    it: 'segnala “{keyword}” — controllarne il display',
  },
});

/** Names of the document formats, as the Notes say them. */
export const ippFormats = defineMessages('ippFormat', {
  pdf: { en: 'PDF', it: 'PDF' },
  postscript: { en: 'PostScript', it: 'PostScript' },
  png: { en: 'PNG image', it: 'immagine PNG' },
  jpeg: { en: 'JPEG image', it: 'immagine JPEG' },
  text: { en: 'text', it: 'testo' },
  pwg: { en: 'PWG raster', it: 'PWG raster' },
  urf: { en: 'Apple raster', it: 'Apple raster' },
  pcl: { en: 'PCL', it: 'PCL' },
  /** A format the driver has no name for: its MIME type as the platform gave it ("image/tiff"). */
  other: { en: '{mime}', it: '{mime}' },
});

/** Labels of the office printer's facts and details (see `src/drivers-api/messages.ts`). */
export const ippLabels = defineMessages('label.ipp-printer', {
  'jobs printed': { en: 'Jobs printed', it: 'Lavori stampati' },
  'jobs failed': { en: 'Jobs failed', it: 'Lavori non riusciti' },
  'last job': { en: 'Last job', it: 'Ultimo lavoro' },
  printer: { en: 'Printer', it: 'Stampante' },
  jobId: { en: 'Job', it: 'Lavoro' },
  copies: { en: 'Copies', it: 'Copie' },
  pages: { en: 'Pages', it: 'Pagine' },
  impressionsCompleted: { en: 'Pages printed', it: 'Pagine stampate' },
  jobState: { en: 'Job state', it: 'Stato del lavoro' },
  /** One printer's state on the page's card, keyed `printerState:<its name>` (see `labelFor`). */
  printerState: { en: 'Printer {name}', it: 'Stampante {name}' },
  unconfirmed: { en: 'Unconfirmed', it: 'Non confermato' },
});

/** An IPP job's `job-state` as the page's result detail says it (RFC 8011 §5.3.7). */
export const ippJobStates = defineMessages('ipp.jobState', {
  pending: { en: 'waiting', it: 'in attesa' },
  pendingHeld: { en: 'held', it: 'trattenuto' },
  processing: { en: 'printing', it: 'in stampa' },
  processingStopped: { en: 'stopped', it: 'fermo' },
  canceled: { en: 'cancelled', it: 'annullato' },
  aborted: { en: 'aborted by the printer', it: 'interrotto dalla stampante' },
  completed: { en: 'completed', it: 'completato' },
});
