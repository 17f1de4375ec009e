import { defineMessages } from '../../messages/catalogue.js';

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
