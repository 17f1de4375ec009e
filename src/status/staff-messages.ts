import { defineMessages } from '../messages/catalogue.js';

/** What staff read about logging in to the page and using the staff socket. */
export const staffMessages = defineMessages('staff', {
  title: { en: 'Log in to the front desk agent', it: 'Accesso all’agente della reception' },
  howStaff: {
    en: 'On this PC, in a terminal of your own account, run {command} and open the address it prints. It works once, for 5 minutes; the login lasts 12 hours.',
    it: 'Su questo PC, in un terminale del proprio account, eseguire {command} e aprire l’indirizzo che stampa. Vale una volta sola, per 5 minuti; l’accesso dura 12 ore.',
  },
  howIt: {
    en: 'IT can log in with the status token instead.',
    it: 'Il personale IT può accedere invece con il token della pagina di stato.',
  },
  tokenLabel: { en: 'Status token', it: 'Token della pagina di stato' },
  submit: { en: 'Log in', it: 'Accedi' },
  logout: { en: 'Log out', it: 'Esci' },
  refused: {
    en: 'Not logged in: that login address was used already or has expired, or the token is wrong. Ask for a new address with {command}.',
    it: 'Accesso non riuscito: l’indirizzo di accesso è già stato usato o è scaduto, oppure il token è sbagliato. Chiederne uno nuovo con {command}.',
  },
  loginFirst: {
    en: 'Log in first: open /login on this page’s address.',
    it: 'Accedere prima: aprire /login all’indirizzo di questa pagina.',
  },
  wrongToken: {
    en: 'Refused: the status token is wrong.',
    it: 'Rifiutato: il token della pagina di stato è sbagliato.',
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
    en: 'No agent answers on {path}: start it (sudo systemctl start frontdesk-agent), then try again.',
    it: 'Nessun agente risponde su {path}: avviarlo (sudo systemctl start frontdesk-agent), poi riprovare.',
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
  demoLogin: {
    en: 'Status page: open {url} to log in (the address works once).',
    it: 'Pagina di stato: aprire {url} per accedere (l’indirizzo vale una volta sola).',
  },
});
