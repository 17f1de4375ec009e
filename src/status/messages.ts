import { defineMessages } from '../messages/catalogue.js';

/** The status page's words, its live script's, and what its form and `/healthz` say. */
export const pageMessages = defineMessages('page', {
  title: { en: 'Front desk agent', it: 'Agente della reception' },
  connecting: { en: 'Connecting…', it: 'Connessione…' },
  live: { en: 'Live', it: 'In diretta' },
  reconnecting: { en: 'Reconnecting…', it: 'Riconnessione…' },
  headingAttention: { en: 'Needs attention', it: 'Da controllare' },
  headingPlatform: { en: 'Platform link', it: 'Collegamento con la piattaforma' },
  headingCutKeys: { en: 'Cut keys', it: 'Codifica chiavi' },
  headingDevices: { en: 'Devices', it: 'Dispositivi' },
  headingDeviceActions: { en: 'Device actions', it: 'Operazioni sui dispositivi' },
  actionOnDevice: { en: '{action} on {device}', it: '{action} su {device}' },
  confirmFirst: { en: 'Confirm first: {confirm}', it: 'Confermare prima: {confirm}' },
  noSuchAction: { en: 'This device has no such action.', it: 'Questo dispositivo non ha questa operazione.' },
  unknownAction: { en: 'the action “{name}”', it: 'l’operazione “{name}”' },
  checkFields: { en: 'Check the form: {fields}.', it: 'Controllare il modulo: {fields}.' },
  checkForm: { en: 'Check the form.', it: 'Controllare il modulo.' },
  fieldWithExample: { en: '{label} (e.g. {example})', it: '{label} (per esempio {example})' },
  noDeviceActions: { en: 'No device actions here.', it: 'Nessuna operazione sui dispositivi qui.' },
  headingChart: { en: 'Commands per minute, last hour', it: 'Comandi al minuto, ultima ora' },
  headingRecent: { en: 'Recent commands', it: 'Comandi recenti' },

  cutCreated: {
    en: 'Command {id} created; its progress shows in Recent commands.',
    it: 'Comando {id} creato; l’avanzamento compare in Comandi recenti.',
  },
  noEncoder: { en: 'No key encoder is configured.', it: 'Nessun encoder di chiavi configurato.' },
  formEncoder: { en: 'Encoder', it: 'Encoder' },
  formNotConnected: { en: '{name} (not connected)', it: '{name} (non collegato)' },
  formEnterprise: { en: 'Enterprise', it: 'Struttura' },
  formReservation: { en: 'Reservation id', it: 'ID prenotazione' },
  formKeys: { en: 'Keys', it: 'Numero di chiavi' },
  formSubmit: { en: 'Cut keys', it: 'Codifica chiavi' },
  formInvalid: {
    en: 'Fill in a reservation id and a number of keys between 1 and {max}.',
    it: 'Indicare un ID prenotazione e un numero di chiavi tra 1 e {max}.',
  },
  formDeviceUnknown: {
    en: 'Choose one of the key encoders in the list.',
    it: 'Scegliere uno degli encoder dell’elenco.',
  },
  formEnterpriseUnknown: {
    en: 'Choose one of the enterprises in the list.',
    it: 'Scegliere una delle strutture dell’elenco.',
  },
  notKeyCutter: {
    en: 'Choose one of this desk’s key encoders.',
    it: 'Scegliere uno degli encoder di chiavi di questa reception.',
  },
  refusedCrossSite: {
    en: 'Refused: not sent from this page.',
    it: 'Rifiutato: non inviato da questa pagina.',
  },
  refusedStalePage: {
    en: 'Refused: the page is out of date; reload it and try again.',
    it: 'Rifiutato: la pagina non è aggiornata; ricaricarla e riprovare.',
  },
  tooManyActions: {
    en: 'Too many actions from the status page: at most {perMinute} a minute. Try again in {seconds} s.',
    it: 'Troppe operazioni dalla pagina di stato: al massimo {perMinute} al minuto. Riprovare tra {seconds} s.',
  },
  requestFailed: { en: 'The request failed.', it: 'La richiesta non è riuscita.' },

  scriptSending: { en: 'Sending…', it: 'Invio…' },
  scriptWaiting: {
    en: 'Command {id} created; waiting for the agent to pick it up…',
    it: 'Comando {id} creato; in attesa che l’agente lo prenda in carico…',
  },
  scriptState: { en: 'Command {id}: {state}', it: 'Comando {id}: {state}' },
  scriptStateCode: { en: 'Command {id}: {state} ({code})', it: 'Comando {id}: {state} ({code})' },
  scriptCutting: {
    en: 'Command {id}: cutting, {percent}%',
    it: 'Comando {id}: codifica in corso, {percent}%',
  },
  scriptRefused: { en: 'Refused ({status})', it: 'Rifiutato ({status})' },
  scriptUnreachable: { en: 'The agent could not be reached.', it: 'L’agente non è raggiungibile.' },

  working: { en: 'Working', it: 'Tutto a posto' },
  needsAttention: { en: 'Needs attention', it: 'Da controllare' },
  version: { en: 'Version {version}', it: 'Versione {version}' },
  up: { en: 'Up {duration}', it: 'Attivo da {duration}' },
  totals: {
    en: '{processed, number} done · {failed, number} failed · {cancelled, number} cancelled · {inFlight, number} in progress',
    it: '{processed, plural, one {# eseguito} other {# eseguiti}} · {failed, plural, one {# non riuscito} other {# non riusciti}} · {cancelled, plural, one {# annullato} other {# annullati}} · {inFlight, number} in corso',
  },
  updated: { en: 'Updated {time}', it: 'Aggiornato alle {time}' },
  nothingNeedsAttention: { en: 'Nothing needs attention.', it: 'Niente da controllare.' },
  whatToDo: { en: 'What to do: {todo}', it: 'Cosa fare: {todo}' },
  tokensRefused: {
    en: 'The platform refuses the agent’s tokens: no command can be picked up.',
    it: 'La piattaforma rifiuta le credenziali dell’agente: nessun comando può essere preso in carico.',
  },
  deviceSays: { en: '{device}: {what}', it: '{device}: {what}' },
  platformSays: { en: 'Platform: {error}', it: 'Piattaforma: {error}' },
  slowDown: {
    en: 'The platform asked the agent to slow down ({how}, since {since}); {state}.',
    it: 'La piattaforma ha chiesto all’agente di rallentare ({how}, dalle {since}); {state}.',
  },
  slowDownUntil: {
    en: 'The platform asked the agent to slow down; nothing is sent until {until}.',
    it: 'La piattaforma ha chiesto all’agente di rallentare; non invia nulla fino alle {until}.',
  },
  blockedUntil: {
    en: 'nothing is sent until {until}, then one probe request',
    it: 'non invia nulla fino alle {until}, poi una richiesta di prova',
  },
  probing: {
    en: 'one probe request is out to see whether it accepts requests again',
    it: 'è partita una richiesta di prova per vedere se accetta di nuovo richieste',
  },
  nextIsProbe: { en: 'the next request is a probe', it: 'la prossima richiesta è di prova' },
  rateLimit: { en: '{count} × 429, {asked}', it: '{count} × 429, {asked}' },
  noRetryAfter: {
    en: 'no Retry-After, the agent backs off by itself',
    it: 'senza Retry-After, l’agente rallenta da sé',
  },
  retryAfter: { en: 'Retry-After {asked}', it: 'Retry-After {asked}' },
  retryAfterCapped: {
    en: 'Retry-After {asked}, waiting at most {wait}',
    it: 'Retry-After {asked}, attesa massima {wait}',
  },
  outboxLate: {
    en: '{count, plural, one {# result} other {# results}} not yet delivered to the platform, the oldest for {age}.',
    it: '{count, plural, one {# risultato non ancora consegnato} other {# risultati non ancora consegnati}} alla piattaforma, il più vecchio da {age}.',
  },
  outboxLateTodo: {
    en: 'The agent keeps retrying; check the platform link above.',
    it: 'L’agente continua a riprovare; controllare il collegamento con la piattaforma qui sopra.',
  },
  commandFailed: {
    en: '{device}: {what} {id} failed ({code}).',
    it: '{device}: {what} {id} non riuscito ({code}).',
  },
  commandFailedNoCode: { en: '{device}: {what} {id} failed.', it: '{device}: {what} {id} non riuscito.' },

  websocketUp: { en: 'WebSocket up', it: 'WebSocket attivo' },
  websocketOff: { en: 'Polling (WebSocket off)', it: 'Interrogazione periodica (WebSocket disattivato)' },
  websocketConnecting: {
    en: 'Polling (WebSocket connecting)',
    it: 'Interrogazione periodica (WebSocket in connessione)',
  },
  websocketDown: {
    en: 'Polling (WebSocket down)',
    it: 'Interrogazione periodica (WebSocket non disponibile)',
  },
  labelPlatform: { en: 'Platform', it: 'Piattaforma' },
  labelLink: { en: 'Link', it: 'Collegamento' },
  labelLastSuccess: { en: 'Last successful call', it: 'Ultima chiamata riuscita' },
  labelBudget: { en: 'Rate budget', it: 'Richieste disponibili' },
  labelRateLimited: { en: 'Rate limited', it: 'Rallentato' },
  labelLastError: { en: 'Last error', it: 'Ultimo errore' },
  labelToDeliver: { en: 'Results to deliver', it: 'Risultati da consegnare' },
  connected: { en: 'Connected', it: 'Collegato' },
  notConnected: { en: 'Not connected', it: 'Non collegato' },
  tokensRefusedBadge: { en: 'Tokens refused', it: 'Credenziali rifiutate' },
  never: { en: 'never', it: 'mai' },
  timeAndAgo: { en: '{time} ({ago})', it: '{time} ({ago})' },
  ago: { en: '{duration} ago', it: '{duration} fa' },
  budget: {
    en: '{used, number} of {limit, number} per {window}',
    it: '{used, number} su {limit, number} ogni {window}',
  },
  budgetWaiting: { en: '{budget}, {waiting} waiting', it: '{budget}, {waiting} in attesa' },
  rateLimitedSince: { en: 'since {since} ({how})', it: 'dalle {since} ({how})' },
  rateLimitedNext: { en: '{line}; next probe at {at}', it: '{line}; prossima prova alle {at}' },
  lastError: { en: '{code}: {error} ({ago})', it: '{code}: {error} ({ago})' },
  pendingOldest: { en: '{count} (oldest {ago})', it: '{count} (il più vecchio {ago})' },

  noDevices: { en: 'No devices are configured.', it: 'Nessun dispositivo configurato.' },
  labelType: { en: 'Type', it: 'Tipo' },
  labelLastContact: { en: 'Last contact', it: 'Ultimo contatto' },
  labelQueue: { en: 'Queue', it: 'Coda' },
  technicalDetails: { en: 'Technical details', it: 'Dettagli tecnici' },
  queueWorkingOn: { en: 'working on', it: 'sta eseguendo' },
  queueIdle: { en: 'idle', it: 'libero' },
  queueWaiting: { en: '{count} waiting', it: '{count} in attesa' },
  typeFiscalMachine: { en: 'Fiscal printer', it: 'Stampante fiscale (RT)' },
  typeKeyCutter: { en: 'Key encoder', it: 'Encoder chiavi' },
  typePrinter: { en: 'Office printer', it: 'Stampante d’ufficio' },
  yes: { en: 'yes', it: 'sì' },
  no: { en: 'no', it: 'no' },

  noCommands: { en: 'No commands yet.', it: 'Ancora nessun comando.' },
  columnSeen: { en: 'Seen', it: 'Arrivato' },
  columnDevice: { en: 'Device', it: 'Dispositivo' },
  columnKind: { en: 'Kind', it: 'Tipo' },
  columnState: { en: 'State', it: 'Stato' },
  columnTimeline: { en: 'Timeline', it: 'Cronologia' },
  columnNotes: { en: 'Notes and result', it: 'Note e risultato' },
  kindFiscal: { en: 'Receipt', it: 'Scontrino' },
  kindKeys: { en: 'Keys', it: 'Chiavi' },
  kindPrint: { en: 'Print', it: 'Stampa' },
  kindOther: { en: 'Other', it: 'Altro' },
  kindInvalid: { en: 'Invalid', it: 'Non valido' },
  commandFiscal: { en: 'fiscal command', it: 'comando fiscale' },
  commandKeys: { en: 'key command', it: 'comando chiavi' },
  commandPrint: { en: 'print command', it: 'comando di stampa' },
  commandOther: { en: 'command', it: 'comando' },
  commandInvalid: { en: 'invalid command', it: 'comando non valido' },
  resultLine: { en: '{label}: {value}', it: '{label}: {value}' },
  latencyMs: { en: '{ms, number} ms', it: '{ms, number} ms' },
  latencySeconds: { en: '{s, number, ::.0} s', it: '{s, number, ::.0} s' },
  latencyWholeSeconds: { en: '{s, number, ::precision-integer} s', it: '{s, number, ::precision-integer} s' },

  noData: { en: 'No data yet.', it: 'Ancora nessun dato.' },
  chartBar: {
    en: '{time}: {done, number} done, {failed, number} failed',
    it: '{time}: {done, plural, one {# eseguito} other {# eseguiti}}, {failed, plural, one {# non riuscito} other {# non riusciti}}',
  },
  chartBarPickup: {
    en: '{time}: {done, number} done, {failed, number} failed, pickup p50 {latency}',
    it: '{time}: {done, plural, one {# eseguito} other {# eseguiti}}, {failed, plural, one {# non riuscito} other {# non riusciti}}, presa in carico p50 {latency}',
  },
  chartSummary: {
    en: '{total, plural, one {# command} other {# commands}} in the last {minutes} minutes; busiest minute {busiest}',
    it: '{total, plural, one {# comando} other {# comandi}} negli ultimi {minutes} minuti; minuto più intenso {busiest}',
  },
  chartSummaryPickup: {
    en: '{total, plural, one {# command} other {# commands}} in the last {minutes} minutes; busiest minute {busiest}; pickup p50 up to {latency}',
    it: '{total, plural, one {# comando} other {# comandi}} negli ultimi {minutes} minuti; minuto più intenso {busiest}; presa in carico p50 fino a {latency}',
  },
  legendDone: { en: 'done', it: 'eseguiti' },
  legendFailed: { en: 'failed', it: 'non riusciti' },
  legendLatency: {
    en: 'pickup latency (median, right axis)',
    it: 'tempo di presa in carico (mediana, asse destro)',
  },

  healthJournal: { en: 'the journal cannot be written', it: 'il registro non si può scrivere' },
  healthJournalBecause: {
    en: 'the journal cannot be written ({error})',
    it: 'il registro non si può scrivere ({error})',
  },
  healthTokens: {
    en: 'the platform refuses the agent’s tokens (401)',
    it: 'la piattaforma rifiuta le credenziali dell’agente (401)',
  },
  healthSilent: {
    en: 'the platform has not answered for {seconds} s',
    it: 'la piattaforma non risponde da {seconds} s',
  },
  healthRateLimited: {
    en: 'the platform has rate-limited the agent for {duration} ({how})',
    it: 'la piattaforma rallenta l’agente da {duration} ({how})',
  },
  healthRateLimitedCapped: {
    en: 'the platform has rate-limited the agent for {duration} ({how}); one probe request after each capped wait',
    it: 'la piattaforma rallenta l’agente da {duration} ({how}); una richiesta di prova dopo ogni attesa limitata',
  },
  healthIntakeFailing: {
    en: 'new commands are not taken in: every {round} has failed for {duration} ({failures, plural, one {# time} other {# times}}; {code})',
    it: 'i nuovi comandi non vengono presi in carico: ogni {round} non riesce da {duration} ({failures, plural, one {# volta} other {# volte}}; {code})',
  },
  healthIntakeFailingBecause: {
    en: 'new commands are not taken in: every {round} has failed for {duration} ({failures, plural, one {# time} other {# times}}; {code}: {detail})',
    it: 'i nuovi comandi non vengono presi in carico: ogni {round} non riesce da {duration} ({failures, plural, one {# volta} other {# volte}}; {code}: {detail})',
  },
  healthStalled: {
    en: 'the event loop is stalled ({ms} ms behind)',
    it: 'il ciclo degli eventi è bloccato ({ms} ms di ritardo)',
  },
});

/** What staff read about logging in to the page and using the staff socket. */
export const staffMessages = defineMessages('staff', {
  title: { en: 'Log in to the front desk agent', it: 'Accesso all’agente della reception' },
  howStaff: {
    en: 'On this PC, in a terminal of your own account, run {command} and open the address it prints. It works once, for 5 minutes, and only in a browser of your own account; the login lasts {hours} hours and ends after {minutes} minutes without use.',
    it: 'Su questo PC, in un terminale del proprio account, eseguire {command} e aprire l’indirizzo che stampa. Vale una volta sola, per 5 minuti, e solo in un browser del proprio account; l’accesso dura {hours} ore e termina dopo {minutes} minuti di inattività.',
  },
  howIt: {
    en: 'IT can log in with the desk’s action token instead.',
    it: 'Il personale IT può accedere invece con il token delle operazioni della reception.',
  },
  tokenLabel: { en: 'Action token', it: 'Token delle operazioni' },
  submit: { en: 'Log in', it: 'Accedi' },
  logout: { en: 'Log out', it: 'Esci' },
  refused: {
    en: 'Not logged in: that login address was used already or has expired, or the token is wrong. Ask for a new address with {command}.',
    it: 'Accesso non riuscito: l’indirizzo di accesso è già stato usato o è scaduto, oppure il token è sbagliato. Chiederne uno nuovo con {command}.',
  },
  refusedNotYours: {
    en: 'Not logged in: this login address belongs to another account of this PC. Run {command} in a terminal of your own account and open the address it prints.',
    it: 'Accesso non riuscito: questo indirizzo di accesso appartiene a un altro account di questo PC. Eseguire {command} in un terminale del proprio account e aprire l’indirizzo che stampa.',
  },
  tokenNeedsTls: {
    en: 'Refused: the action token is accepted from another computer only over HTTPS. Ask IT to set up HTTPS for the page, or use an SSH tunnel.',
    it: 'Rifiutato: il token delle operazioni è accettato da un altro computer solo tramite HTTPS. Chiedere all’IT di attivare HTTPS per la pagina, oppure usare un tunnel SSH.',
  },
  tokenInAddress: {
    en: 'Refused: a token must never be put in an address, where the browser’s history keeps it. Type it into the form below.',
    it: 'Rifiutato: un token non va mai messo in un indirizzo, dove la cronologia del browser lo conserva. Inserirlo nel modulo qui sotto.',
  },
  tooManyAttempts: {
    en: 'Too many failed attempts from here: try again in {seconds} s.',
    it: 'Troppi tentativi non riusciti da qui: riprovare tra {seconds} s.',
  },
  metricsOnly: {
    en: 'Refused: the metrics token opens /metrics and /healthz only.',
    it: 'Rifiutato: il token delle metriche apre solo /metrics e /healthz.',
  },
  loginFirst: {
    en: 'Log in first: open /login on this page’s address.',
    it: 'Accedere prima: aprire /login all’indirizzo di questa pagina.',
  },
  wrongToken: {
    en: 'Refused: the token is wrong.',
    it: 'Rifiutato: il token è sbagliato.',
  },
  notStaff: {
    en: 'Refused: only staff (group {group}), the service and root may use the staff socket.',
    it: 'Rifiutato: solo il personale (gruppo {group}), il servizio e root possono usare il socket del personale.',
  },
  socketOnly: {
    en: 'Only through the staff socket (frontdesk-agent login).',
    it: 'Solo attraverso il socket del personale (frontdesk-agent login).',
  },
  notListening: {
    en: 'The status page is not listening, so there is no address to log in at.',
    it: 'La pagina di stato non è in ascolto, quindi non c’è un indirizzo per accedere.',
  },
  unknownAction: {
    en: 'This device has no such action.',
    it: 'Questo dispositivo non ha questa operazione.',
  },
  agentAbsent: {
    en: 'No agent answers: there is no staff socket at {path} (status.staffSocket in the configuration, or the default). Start the agent (sudo systemctl start frontdesk-agent); an agent started by hand makes this socket only as root, and otherwise says in its log why it has none.',
    it: 'Nessun agente risponde: non c’è il socket del personale in {path} (status.staffSocket nella configurazione, o il valore predefinito). Avviare l’agente (sudo systemctl start frontdesk-agent); un agente avviato a mano crea questo socket solo come root, altrimenti nel suo log spiega perché non ce l’ha.',
  },
  agentStopped: {
    en: 'No agent answers on {path}: the socket is there, but nothing listens on it (the agent stopped or is restarting). Start it (sudo systemctl start frontdesk-agent), then try again.',
    it: 'Nessun agente risponde su {path}: il socket c’è, ma nessuno è in ascolto (l’agente si è fermato o si sta riavviando). Avviarlo (sudo systemctl start frontdesk-agent), poi riprovare.',
  },
  askForGroup: {
    en: '{path} is for the desk’s staff only: ask IT to add this account to the group {group} (sudo adduser {user} {group}), then log in to the PC again.',
    it: '{path} è riservato al personale della reception: chiedere all’IT di aggiungere questo account al gruppo {group} (sudo adduser {user} {group}), poi accedere di nuovo al PC.',
  },
  socketUnsafe: {
    en: 'Refused to use {path}: {reason}. The staff socket must be the agent’s, in a directory only root and the agent can write (status.staffSocket).',
    it: 'Rifiutato l’uso di {path}: {reason}. Il socket del personale deve essere dell’agente, in una cartella in cui possono scrivere solo root e l’agente (status.staffSocket).',
  },
  loginAddress: {
    en: 'Open this address in the browser on this PC within {minutes} minutes; it works once:',
    it: 'Aprire questo indirizzo nel browser di questo PC entro {minutes} minuti; vale una volta sola:',
  },
  loginOpening: {
    en: 'The status page opens in the browser on this PC; the login works once, within {minutes} minutes.',
    it: 'La pagina di stato si apre nel browser di questo PC; l’accesso vale una volta sola, entro {minutes} minuti.',
  },
  loginOpenFailed: {
    en: 'The browser could not be opened ({error}): run frontdesk-agent login without --open and open the address it prints.',
    it: 'Non è stato possibile aprire il browser ({error}): eseguire frontdesk-agent login senza --open e aprire l’indirizzo che stampa.',
  },
  demoLogin: {
    en: 'Status page: open {url} to log in (the address works once).',
    it: 'Pagina di stato: aprire {url} per accedere (l’indirizzo vale una volta sola).',
  },
});
