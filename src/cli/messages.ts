import { defineMessages } from '../messages/catalogue.js';

/** What the command line says to people (in the configured `locale`; errors stay English). */
export const cliMessages = defineMessages('cli', {
  followingSocket: {
    en: 'No local agent answers on its status address; following the platform’s events instead.',
    it: 'Nessun agente locale risponde al suo indirizzo di stato; seguo invece gli eventi della piattaforma.',
  },
  cannotFollow: {
    en: 'Created. No local agent answers and no WebSocket is configured, so the command cannot be followed.',
    it: 'Creato. Nessun agente locale risponde e nessun WebSocket è configurato, quindi non posso seguire il comando.',
  },
  stoppedFollowing: {
    en: 'Stopped following; the command goes on without this command line.',
    it: 'Smetto di seguirlo; il comando prosegue senza questa riga di comando.',
  },
  actionRefused: {
    en: 'The agent refused the action (HTTP {status}).',
    it: 'L’agente ha rifiutato l’operazione (HTTP {status}).',
  },
  stateProgress: { en: '{state} {percent}%', it: '{state} {percent}%' },
});

/**
 * `check-config`'s findings in the configured `locale`. The configuration's own paths, ids and
 * values, and the validation errors of the file itself (English, as every error), stay as written.
 */
export const checkConfigMessages = defineMessages('check-config', {
  tokensFromSimulator: {
    en: 'tokens: taken from the embedded platform simulator',
    it: 'credenziali: prese dal simulatore della piattaforma incorporato',
  },
  tokensReadable: { en: 'tokens: readable', it: 'credenziali: leggibili' },
  tokensAccepted: {
    en: 'platform: tokens accepted, {count, plural, one {# device} other {# devices}} visible',
    it: 'piattaforma: credenziali accettate, {count, plural, one {# dispositivo visibile} other {# dispositivi visibili}}',
  },
  deviceFound: {
    en: 'device {id}: {type} "{name}" found on the platform',
    it: 'dispositivo {id}: {type} "{name}" trovato sulla piattaforma',
  },
  deviceFoundAs: {
    en: 'device {id}: {type} "{name}" found on the platform, driven as a {configured}',
    it: 'dispositivo {id}: {type} "{name}" trovato sulla piattaforma, gestito come {configured}',
  },
  notOnPlatform: {
    en: 'devices: {id} is not a device of this integration on the platform',
    it: 'devices: {id} non è un dispositivo di questa integrazione sulla piattaforma',
  },
  otherType: {
    en: 'devices: {id} is a {type} on the platform, configured as {configured}',
    it: 'devices: {id} sulla piattaforma è un {type}, configurato come {configured}',
  },
  problem: { en: 'problem: {problem}', it: 'problema: {problem}' },
  ok: { en: '{file}: OK', it: '{file}: OK' },
  problems: {
    en: '{file}: {count, plural, one {# problem} other {# problems}}',
    it: '{file}: {count, plural, one {# problema} other {# problemi}}',
  },
});

/**
 * `doctor`'s checklist in the configured `locale`: the titles, verdicts and fixes people act on.
 * File paths, unit names, error codes and commands to type stay as they are in every language.
 */
export const doctorMessages = defineMessages('doctor', {
  heading: {
    en: 'frontdesk-agent doctor {version}: {config}',
    it: 'frontdesk-agent doctor {version}: {config}',
  },
  fixLine: { en: 'fix: {fix}', it: 'rimedio: {fix}' },
  noProblems: { en: 'No problems found.', it: 'Nessun problema trovato.' },
  problems: {
    en: '{count, plural, one {# problem} other {# problems}} found (exit code {code}).',
    it: '{count, plural, one {# problema trovato} other {# problemi trovati}} (codice di uscita {code}).',
  },
  titleConfig: { en: 'configuration', it: 'configurazione' },
  titlePlatform: { en: 'platform', it: 'piattaforma' },
  titlePlatformDevices: { en: 'platform devices', it: 'dispositivi sulla piattaforma' },
  titleClock: { en: 'clock', it: 'orologio' },
  titleDevices: { en: 'devices', it: 'dispositivi' },
  titleJournal: { en: 'journal', it: 'registro' },
  titleDisk: { en: 'disk', it: 'disco' },
  titleSystemd: { en: 'systemd', it: 'systemd' },
  configFix: {
    en: 'Correct {config} (config/agent.example.yaml documents every key), then run doctor again.',
    it: 'Correggere {config} (config/agent.example.yaml documenta ogni chiave), poi eseguire di nuovo doctor.',
  },
  configValid: {
    en: 'valid: {count, plural, one {# device} other {# devices}}, journal {journal}',
    it: 'valida: {count, plural, one {# dispositivo} other {# dispositivi}}, registro {journal}',
  },
  configPathsFix: {
    en: 'Correct these paths in {config} (the drivers’ README files document their options).',
    it: 'Correggere questi percorsi in {config} (i README dei driver documentano le loro opzioni).',
  },
  noTokensToAsk: {
    en: 'no tokens to ask it with (see tokens)',
    it: 'nessun token con cui interrogarla (vedere tokens)',
  },
  noTokens: { en: 'no tokens', it: 'nessun token' },
  platformNotAsked: { en: 'the platform was not asked', it: 'la piattaforma non è stata interrogata' },
  scenarioFix: {
    en: 'Check simulator.scenario in the configuration.',
    it: 'Controllare simulator.scenario nella configurazione.',
  },
  devicesUnchecked: {
    en: 'the devices could not be checked: {error}',
    it: 'non è stato possibile controllare i dispositivi: {error}',
  },
  agentFaultFix: {
    en: 'Send a support bundle (frontdesk-agent support-bundle): this is a fault of the agent.',
    it: 'Inviare un pacchetto di assistenza (frontdesk-agent support-bundle): è un difetto dell’agente.',
  },
  journalInMemory: {
    en: 'in memory (:memory:), nothing to check',
    it: 'in memoria (:memory:), niente da controllare',
  },
  journalNotYet: {
    en: '{path} does not exist yet; the agent creates it at its first start',
    it: '{path} non esiste ancora; l’agente lo crea al primo avvio',
  },
  journalCannotCreate: {
    en: '{path} does not exist and the agent cannot create it: {where} cannot be written ({code})',
    it: '{path} non esiste e l’agente non può crearlo: non si può scrivere in {where} ({code})',
  },
  journalCannotWrite: {
    en: 'the agent cannot write {target} ({code}): it would stop recording, and refuse to start',
    it: 'l’agente non può scrivere {target} ({code}): smetterebbe di registrare e rifiuterebbe di avviarsi',
  },
  journalUnreadable: {
    en: '{path} cannot be read as a journal: {error}',
    it: '{path} non si può leggere come registro: {error}',
  },
  journalUnreadableFix: {
    en: 'Stop the agent, keep a copy of {dir}, and send a support bundle (frontdesk-agent support-bundle): the journal is the record of receipts that refunds refer to, never delete it.',
    it: 'Fermare l’agente, conservare una copia di {dir} e inviare un pacchetto di assistenza (frontdesk-agent support-bundle): il registro è la memoria degli scontrini a cui si riferiscono i resi, non cancellarlo mai.',
  },
  journalCorrupt: { en: 'integrity check failed: {result}', it: 'controllo di integrità fallito: {result}' },
  journalCorruptFix: {
    en: 'Stop the agent (sudo systemctl stop frontdesk-agent), keep a copy of {dir}, and send a support bundle: the journal is the record of receipts that refunds refer to, never delete it.',
    it: 'Fermare l’agente (sudo systemctl stop frontdesk-agent), conservare una copia di {dir} e inviare un pacchetto di assistenza: il registro è la memoria degli scontrini a cui si riferiscono i resi, non cancellarlo mai.',
  },
  journalOk: {
    en: '{path}: integrity ok, writable, {mb, number, ::.0 group-off} MB',
    it: '{path}: integrità ok, scrivibile, {mb, number, ::.0 group-off} MB',
  },
  journalFigures: {
    en: '{total} commands kept, {inFlight} in flight; {pending} results waiting',
    it: 'comandi conservati: {total}, in corso: {inFlight}; risultati in attesa: {pending}',
  },
  journalFiguresOldest: {
    en: '{total} commands kept, {inFlight} in flight; {pending} results waiting (oldest {age} s)',
    it: 'comandi conservati: {total}, in corso: {inFlight}; risultati in attesa: {pending} (il più vecchio da {age} s)',
  },
  readOnlyFix: {
    en: 'The file system holding {dir} is read-only: check `findmnt -T {dir}` and the disk’s health (sudo dmesg), then remount it read-write.',
    it: 'Il file system che contiene {dir} è in sola lettura: controllare `findmnt -T {dir}` e lo stato del disco (sudo dmesg), poi rimontarlo in lettura e scrittura.',
  },
  chownFix: {
    en: 'Give the journal back to the service user: sudo chown -R frontdesk-agent: {dir} && sudo chmod -R u+rwX {dir}.',
    it: 'Restituire il registro all’utente del servizio: sudo chown -R frontdesk-agent: {dir} && sudo chmod -R u+rwX {dir}.',
  },
  immutableFix: {
    en: 'If that is already so, `lsattr {path}` may show the immutable flag: sudo chattr -i {path}.',
    it: 'Se è già così, `lsattr {path}` può mostrare l’attributo immutabile: sudo chattr -i {path}.',
  },
  diskInMemory: { en: 'the journal is in memory', it: 'il registro è in memoria' },
  diskFree: {
    en: '{free, number, ::.0 group-off} GB free of {total, number, ::.0 group-off} GB ({percent} %) where the journal lives ({where})',
    it: '{free, number, ::.0 group-off} GB liberi su {total, number, ::.0 group-off} GB ({percent} %) dove si trova il registro ({where})',
  },
  diskFix: {
    en: 'Free space on that file system (at least {mb} MB): sudo journalctl --vacuum-size=200M, old files in /var/log and /tmp.',
    it: 'Liberare spazio su quel file system (almeno {mb} MB): sudo journalctl --vacuum-size=200M, vecchi file in /var/log e /tmp.',
  },
  cannotRead: { en: 'cannot read {where}: {error}', it: 'impossibile leggere {where}: {error}' },
  insideUnit: {
    en: 'doctor itself runs in a systemd unit (INVOCATION_ID {id})',
    it: 'doctor stesso è eseguito in un’unità systemd (INVOCATION_ID {id})',
  },
  noSystemctl: { en: 'no systemctl on this PC', it: 'systemctl non c’è su questo PC' },
  systemdSilent: { en: 'systemd does not answer here: {why}', it: 'systemd qui non risponde: {why}' },
  notInstalled: {
    en: '{unit} is not installed as a service (LoadState {state}); systemd/install.sh installs it',
    it: '{unit} non è installato come servizio (LoadState {state}); lo installa systemd/install.sh',
  },
  activeSince: { en: 'active since {since}', it: 'attivo dal {since}' },
  restarted: {
    en: 'systemd restarted it {count} times: journalctl -u {unit} shows why',
    it: 'systemd lo ha riavviato {count} volte: journalctl -u {unit} mostra il perché',
  },
  unitStoppedFix: {
    en: 'journalctl -u {unit} -e says why it stopped; start it with: sudo systemctl restart {unit}.',
    it: 'journalctl -u {unit} -e dice perché si è fermato; avviarlo con: sudo systemctl restart {unit}.',
  },
  titleTokens: { en: 'tokens', it: 'token' },
  clientToken: { en: 'client token', it: 'token client' },
  accessToken: { en: 'access token', it: 'token di accesso' },
  statusPageToken: { en: 'status page token', it: 'token della pagina di stato' },
  tokensDemo: {
    en: 'the embedded platform simulator’s (demo)',
    it: 'quelli del simulatore della piattaforma incorporato (demo)',
  },
  tokenFromEnv: {
    en: '{what}: from the environment variable {env}',
    it: '{what}: dalla variabile d’ambiente {env}',
  },
  tokenFileUnreadable: {
    en: '{what} file {file} cannot be read ({code})',
    it: 'il file del {what} {file} non si può leggere ({code})',
  },
  tokenFileFix: {
    en: 'Create {file} holding the {what} on one line (mode 0600), or correct its path.',
    it: 'Creare {file} con il {what} su una riga (modo 0600), o correggerne il percorso.',
  },
  tokenFile: { en: '{what}: {file} (mode {mode})', it: '{what}: {file} (modo {mode})' },
  tokenFileOpen: {
    en: '{file} can be read by other users (mode {mode})',
    it: '{file} è leggibile da altri utenti (modo {mode})',
  },
  tokensInstallFix: {
    en: 'Install the tokens with systemd/install.sh --tokens-from-stdin, or set platform.clientTokenFile and accessTokenFile to readable files.',
    it: 'Installare i token con systemd/install.sh --tokens-from-stdin, o impostare platform.clientTokenFile e accessTokenFile su file leggibili.',
  },
  statusTokenEmpty: {
    en: 'the status page token file {file} is empty',
    it: 'il file del token della pagina di stato {file} è vuoto',
  },
  tokensOk: {
    en: 'readable, and no token file is readable by others',
    it: 'leggibili, e nessun file di token è leggibile da altri',
  },
  authFix: {
    en: 'The platform refused the tokens: check the ClientToken and AccessToken of this integration (install them again with systemd/install.sh --tokens-from-stdin) and that the integration is enabled on the platform.',
    it: 'La piattaforma ha rifiutato i token: controllare ClientToken e AccessToken di questa integrazione (reinstallarli con systemd/install.sh --tokens-from-stdin) e che l’integrazione sia attiva sulla piattaforma.',
  },
  networkFix: {
    en: 'Check this PC’s network, DNS and any firewall or proxy towards platform.url ({curl} must print a number).',
    it: 'Controllare la rete di questo PC, il DNS ed eventuali firewall o proxy verso platform.url ({curl} deve stampare un numero).',
  },
  meanwhileKept: {
    en: 'Meanwhile the agent keeps every result and delivers it when the platform can be reached.',
    it: 'Nel frattempo l’agente conserva ogni risultato e lo consegna quando la piattaforma è raggiungibile.',
  },
  serverErrorsFix: {
    en: 'The platform answers with server errors: it is down or in maintenance. Nothing to change here: the agent keeps every result and delivers it when the platform is back; if it lasts, ask the platform’s support.',
    it: 'La piattaforma risponde con errori del server: è ferma o in manutenzione. Qui non c’è niente da cambiare: l’agente conserva ogni risultato e lo consegna quando la piattaforma torna; se dura, chiedere all’assistenza della piattaforma.',
  },
  rateLimitedFix: {
    en: 'The token’s request budget is used up, maybe by other software on the same token: try again in a minute.',
    it: 'Le richieste consentite al token sono esaurite, forse da un altro software con lo stesso token: riprovare tra un minuto.',
  },
  forbiddenFix: {
    en: 'The platform refused for a business reason (above): check the integration’s settings on the platform.',
    it: 'La piattaforma ha rifiutato per un motivo di gestione (sopra): controllare le impostazioni dell’integrazione sulla piattaforma.',
  },
  notConnectorFix: {
    en: 'platform.url answers, but not as the Connector API does: check platform.url (a proxy in the way?).',
    it: 'platform.url risponde, ma non come la Connector API: controllare platform.url (c’è un proxy in mezzo?).',
  },
  platformAnswers: {
    en: '{label} answers; tokens accepted, {count, plural, one {# device} other {# devices}} visible',
    it: '{label} risponde; token accettati, {count, plural, one {# dispositivo visibile} other {# dispositivi visibili}}',
  },
  platformAnswersIn: {
    en: '{label} answers in {ms} ms; tokens accepted, {count, plural, one {# device} other {# devices}} visible',
    it: '{label} risponde in {ms} ms; token accettati, {count, plural, one {# dispositivo visibile} other {# dispositivi visibili}}',
  },
  runningSimulator: {
    en: 'the running agent’s embedded simulator at {url}',
    it: 'il simulatore incorporato dell’agente in esecuzione su {url}',
  },
  doctorSimulator: {
    en: 'an embedded simulator started by doctor at {url} (demo)',
    it: 'un simulatore incorporato avviato da doctor su {url} (demo)',
  },
  platformSilent: { en: 'the platform did not answer', it: 'la piattaforma non ha risposto' },
  notOnPlatform: {
    en: '{name} is not a device of this integration on the platform',
    it: '{name} non è un dispositivo di questa integrazione sulla piattaforma',
  },
  wrongType: {
    en: '{name} is a {found} on the platform, configured as {configured}',
    it: '{name} è un {found} sulla piattaforma, configurato come {configured}',
  },
  devicesKnown: {
    en: 'all {count} configured devices are known with their type',
    it: 'tutti i {count} dispositivi configurati sono noti con il loro tipo',
  },
  onPlatform: { en: 'on the platform: {type} "{name}" {id}', it: 'sulla piattaforma: {type} “{name}” {id}' },
  devicesFix: {
    en: 'Use the platform’s Device id and type in devices[] of the configuration (the list is above).',
    it: 'Usare l’id e il tipo del Device della piattaforma in devices[] della configurazione (l’elenco è sopra).',
  },
  noDate: {
    en: 'the platform sent no Date to compare with',
    it: 'la piattaforma non ha inviato un Date con cui confrontare',
  },
  clockBehind: {
    en: 'this PC is {seconds, number, ::.0 group-off} s behind the platform',
    it: 'questo PC è {seconds, number, ::.0 group-off} s indietro rispetto alla piattaforma',
  },
  clockAhead: {
    en: 'this PC is {seconds, number, ::.0 group-off} s ahead of the platform',
    it: 'questo PC è {seconds, number, ::.0 group-off} s avanti rispetto alla piattaforma',
  },
  withinSkew: { en: '{said} (within ±{max} s)', it: '{said} (entro ±{max} s)' },
  ntpFix: {
    en: 'Turn on network time: sudo timedatectl set-ntp true (timedatectl timesync-status shows the server); the fiscal printer keeps its own clock.',
    it: 'Attivare l’ora di rete: sudo timedatectl set-ntp true (timedatectl timesync-status mostra il server); la stampante fiscale ha un suo orologio.',
  },
  titleAgent: { en: 'agent', it: 'agente' },
  agentNotProbed: { en: 'status.listen {listen}: not probed', it: 'status.listen {listen}: non interrogato' },
  agentRefused: {
    en: 'an agent answers at {base} but refused doctor (HTTP {status}): devices are opened by doctor instead',
    it: 'un agente risponde su {base} ma ha rifiutato doctor (HTTP {status}): i dispositivi li apre invece doctor',
  },
  agentRunning: {
    en: 'running at {base} (version {version}, since {since}{health, select, healthy {, healthy} unhealthy {, unhealthy} other {}})',
    it: 'in esecuzione su {base} (versione {version}, dal {since}{health, select, healthy {, in salute} unhealthy {, non in salute} other {}})',
  },
  agentPlatformNever: {
    en: 'platform {mode}, last success never; {pending} results waiting to be delivered',
    it: 'piattaforma {mode}, ultimo successo mai; risultati in attesa di consegna: {pending}',
  },
  agentPlatformAgo: {
    en: 'platform {mode}, last success {seconds} s ago; {pending} results waiting to be delivered',
    it: 'piattaforma {mode}, ultimo successo {seconds} s fa; risultati in attesa di consegna: {pending}',
  },
  unhealthyReason: { en: 'unhealthy: {reason}', it: 'non in salute: {reason}' },
  agentAbsent: {
    en: 'not running on this PC (nothing answers at {base}: {error}); devices are opened by doctor',
    it: 'non in esecuzione su questo PC (nessuno risponde su {base}: {error}); i dispositivi li apre doctor',
  },
  titleDevice: { en: 'device {name}', it: 'dispositivo {name}' },
  deviceFacts: { en: '{type}, driver {driver}, {source}', it: '{type}, driver {driver}, {source}' },
  seenByAgent: { en: 'as the running agent sees it', it: 'come lo vede l’agente in esecuzione' },
  openedByDoctor: { en: 'opened by doctor', it: 'aperto da doctor' },
  notReachable: { en: 'not reachable: {summary}', it: 'non raggiungibile: {summary}' },
  noStatus: { en: 'no status', it: 'nessuno stato' },
  switchOnFix: {
    en: 'Check that the device is switched on and connected.',
    it: 'Controllare che il dispositivo sia acceso e collegato.',
  },
  optionsFix: {
    en: 'If it is, check that the options of this device in the configuration point at it ({driver}).',
    it: 'Se lo è, controllare che le opzioni di questo dispositivo nella configurazione puntino a lui ({driver}).',
  },
  notInAgent: {
    en: 'configured, but the running agent does not have it',
    it: 'configurato, ma l’agente in esecuzione non lo ha',
  },
  restartFix: {
    en: 'Restart the agent so that it reads the current configuration: sudo systemctl restart frontdesk-agent.',
    it: 'Riavviare l’agente perché legga la configurazione attuale: sudo systemctl restart frontdesk-agent.',
  },
  notChecked: { en: 'not checked: {error}', it: 'non controllato: {error}' },
});

/** What `support-bundle` says to the person who runs it; the bundle's own files stay English for support. */
export const bundleMessages = defineMessages('support-bundle', {
  wrote: { en: 'wrote {output} ({kb} KB)', it: 'scritto {output} ({kb} KB)' },
  logSource: { en: 'log: {source}', it: 'log: {source}' },
  doctorClean: {
    en: 'doctor: no problems; tokens, guest names, phones and e-mails are taken out',
    it: 'doctor: nessun problema; token, nomi degli ospiti, telefoni ed e-mail sono stati tolti',
  },
  doctorProblems: {
    en: 'doctor: {count, plural, one {# problem} other {# problems}}; tokens, guest names, phones and e-mails are taken out',
    it: 'doctor: {count, plural, one {# problema} other {# problemi}}; token, nomi degli ospiti, telefoni ed e-mail sono stati tolti',
  },
});
