import { defineMessages } from '../../src/messages/catalogue.js';

/**
 * What the FIAS lock-server driver tells staff. `{rooms}` is "room 101" / "la camera 101"
 * (`roomsWords`), `{text}` the lock server's own words (its `CT` field), `{address}` where the
 * agent waits for the lock server ("192.168.1.10:5010").
 */
export const fiasMessages = defineMessages('fias', {
  notForEncoder: {
    en: 'This command is not for a key encoder; check the device configuration.',
    it: 'Questo comando non è per un encoder di chiavi: controllare la configurazione del dispositivo.',
  },
  cutting: { en: 'cutting key {card} of {total}', it: 'codifica della chiave {card} di {total}' },
  ready: { en: 'ready (lock server linked)', it: 'pronto (server delle serrature collegato)' },
  waiting: {
    en: 'waiting for the lock server to connect',
    it: 'in attesa che il server delle serrature si colleghi',
  },
  starting: {
    en: 'lock server connected, starting the link',
    it: 'server delle serrature collegato, avvio del collegamento',
  },
  notListening: { en: 'not listening yet', it: 'non ancora in ascolto' },
  cannotListen: {
    en: 'cannot listen for the lock server',
    it: 'impossibile attendere il server delle serrature',
  },
  stateAlive: { en: 'alive', it: 'attivo' },
  stateStarting: { en: 'starting', it: 'in avvio' },
  stateWaiting: { en: 'waiting for the lock server', it: 'in attesa del server delle serrature' },
  stateNotListening: { en: 'not listening', it: 'non in ascolto' },
  notConnected: {
    en: 'The lock server is not connected to the agent; check that it is running and that its PMS (FIAS) interface points at {address}. The agent keeps waiting for it.',
    it: 'Il server delle serrature non è collegato all’agente: controllare che sia in funzione e che la sua interfaccia PMS (FIAS) punti a {address}. L’agente continua ad attenderlo.',
  },
  linkNotStarted: {
    en: 'The lock server connected but did not finish starting the link; check its PMS (FIAS) interface settings. The agent keeps waiting for it.',
    it: 'Il server delle serrature si è collegato ma non ha completato l’avvio del collegamento: controllarne le impostazioni dell’interfaccia PMS (FIAS). L’agente continua ad attenderlo.',
  },
  portInUse: {
    en: 'Another program uses port {port}, where the agent waits for the lock server (is the agent running twice?); the agent tries again by itself.',
    it: 'Un altro programma usa la porta {port}, sulla quale l’agente attende il server delle serrature (l’agente è avviato due volte?): l’agente riprova da solo.',
  },
  cannotListenAt: {
    en: 'The agent cannot wait for the lock server at {address}; ask IT to check the encoder’s host and port.',
    it: 'L’agente non può attendere il server delle serrature su {address}: chiedere all’assistenza tecnica di controllare host e porta dell’encoder.',
  },
  refused: {
    en: 'The agent refused a connection from {from}, which is not the configured lock server ({allowed}); if the lock server moved, change lockServer in the agent’s configuration.',
    it: 'L’agente ha rifiutato un collegamento da {from}, che non è il server delle serrature configurato ({allowed}): se il server è stato spostato, modificare lockServer nella configurazione dell’agente.',
  },
  cut: {
    en: '{confirmed} of {total} keys {confirmed, plural, one {was} other {were}} cut',
    it: '{confirmed, plural, one {è stata codificata # chiave} other {sono state codificate # chiavi}} su {total}',
  },
  cutBefore: { en: '{sentence} {cut} before this.', it: '{sentence} In precedenza {cut}.' },
  cancelledBeforeAny: {
    en: 'Cancelled before any key was cut.',
    it: 'Annullato prima di codificare qualsiasi chiave.',
  },
  cancelledAfter: { en: 'Cancelled; {cut} for {rooms}.', it: 'Annullato; {cut} per {rooms}.' },
  disconnectedAt: {
    en: 'The lock server’s link dropped while key {card} of {total} for {rooms} was being cut; that card may have been written: test it before handing it out.',
    it: 'Il collegamento con il server delle serrature si è interrotto mentre si codificava la chiave {card} di {total} per {rooms}: quella tessera potrebbe essere stata codificata, provarla prima di consegnarla.',
  },
  unansweredAt: {
    en: 'The lock server did not answer for key {card} of {total} for {rooms}; that card may have been written: test it before handing it out.',
    it: 'Il server delle serrature non ha risposto per la chiave {card} di {total} per {rooms}: quella tessera potrebbe essere stata codificata, provarla prima di consegnarla.',
  },
  firstInterrupted: {
    en: 'The agent restarted while the first key for {rooms} was being cut; test that card and cut the keys again if needed.',
    it: 'L’agente si è riavviato mentre codificava la prima chiave per {rooms}: provare quella tessera e, se serve, codificare di nuovo le chiavi.',
  },
  restInterrupted: {
    en: '{cut} before the agent restarted; cut the rest again if needed.',
    it: 'Prima del riavvio dell’agente {cut}; se servono, codificare di nuovo le altre.',
  },
  cardInFlight: {
    en: '{sentence} Card {card} was being written at that moment; test it before handing it out.',
    it: '{sentence} In quel momento si stava codificando la tessera {card}: provarla prima di consegnarla.',
  },
  noKeys: {
    en: 'The command asks for no key; create it again.',
    it: 'Il comando non chiede nessuna chiave: crearlo di nuovo.',
  },
  tooManyKeys: {
    en: 'The command asks for {count} keys; at most {max} are cut at once. Create it again with fewer.',
    it: 'Il comando chiede {count} chiavi, ma se ne possono codificare al massimo {max} alla volta. Crearlo di nuovo con meno chiavi.',
  },
  badDates: {
    en: 'The reservation’s dates are missing or end before they start; check the reservation.',
    it: 'Le date della prenotazione mancano o la partenza è prima dell’arrivo: controllare la prenotazione.',
  },
  noEncoderId: {
    en: 'The agent does not know which encoder to use; ask IT to set the encoder id.',
    it: 'L’agente non sa quale encoder usare: chiedere all’assistenza tecnica di impostare l’identificativo dell’encoder.',
  },
  emptyRoom: {
    en: 'The command names an empty room; check the room-to-lock mapping.',
    it: 'Il comando indica una camera senza nome: controllare l’abbinamento tra camere e serrature.',
  },
  noSuites: {
    en: 'The lock server takes one room per key (it did not ask for extra rooms, SI), and this key is for {rooms}; cut keys room by room, or ask IT to enable suites on the lock server’s PMS interface.',
    it: 'Il server delle serrature accetta una sola camera per chiave (non ha chiesto camere aggiuntive, SI) e questa chiave è per {rooms}: codificare le chiavi camera per camera, o chiedere all’assistenza tecnica di abilitare le suite nell’interfaccia PMS del server delle serrature.',
  },
  answerDN: {
    en: 'The lock server refused the key for {rooms}: {text}.',
    it: 'Il server delle serrature ha rifiutato la chiave per {rooms}: {text}.',
  },
  answerUR: {
    en: 'The lock server cannot make the key for {rooms}: {text}. Check the lock system, then try again.',
    it: 'Il server delle serrature non può creare la chiave per {rooms}: {text}. Controllare il sistema delle serrature, poi riprovare.',
  },
  answerNG: {
    en: 'The lock server does not know {rooms} ({text}); check the room-to-lock mapping.',
    it: 'Il server delle serrature non conosce {rooms} ({text}): controllare l’abbinamento tra camere e serrature.',
  },
  answerBY: {
    en: 'The encoder is busy, or the lock server cannot find it ({text}); wait a moment, then try again.',
    it: 'L’encoder è occupato, oppure il server delle serrature non lo trova ({text}): attendere un momento, poi riprovare.',
  },
  answerNA: {
    en: 'The lock server is running its night audit ({text}); cut the keys again once it has finished.',
    it: 'Il server delle serrature sta eseguendo la chiusura notturna ({text}): codificare di nuovo le chiavi quando avrà finito.',
  },
  answerOther: {
    en: 'The lock server answered {status} for {rooms} ({text}); check the lock system, then try again.',
    it: 'Il server delle serrature ha risposto {status} per {rooms} ({text}): controllare il sistema delle serrature, poi riprovare.',
  },
  noDetails: { en: 'no details given', it: 'senza dettagli' },
});

/** What the options mean, as `check-config` prints them (the options' values as configured). */
export const fiasDescribe = defineMessages('fias.describe', {
  listens: {
    en: 'listens on {address} for the lock server {lockServers} (it must connect there)',
    it: 'in ascolto su {address} per il server delle serrature {lockServers} (deve collegarsi lì)',
  },
  encoder: {
    en: 'encoder (KC): {encoder}, workstation (WS): {workstation}',
    it: 'encoder (KC): {encoder}, postazione (WS): {workstation}',
  },
  encoderOfCommand: { en: 'the command’s KeyCutterId', it: 'il KeyCutterId del comando' },
  firstKeyNew: {
    en: 'first key of a command: new (KTN, earlier keys stop working); departure time as {format}',
    it: 'prima chiave di un comando: nuova (KTN, le chiavi precedenti smettono di funzionare); ora di partenza come {format}',
  },
  firstKeyDuplicate: {
    en: 'first key of a command: duplicate (KTD); departure time as {format}',
    it: 'prima chiave di un comando: duplicato (KTD); ora di partenza come {format}',
  },
});

/** Labels of the driver's facts and details (see `src/drivers-api/messages.ts`). */
export const fiasLabels = defineMessages('label.fias-lock', {
  link: { en: 'Link', it: 'Collegamento' },
  linkUp: { en: 'Link alive', it: 'Collegamento attivo' },
  listen: { en: 'Waits on', it: 'In attesa su' },
  lockServer: { en: 'Lock server', it: 'Server delle serrature' },
  lockServerConnected: { en: 'Lock server connected', it: 'Server delle serrature collegato' },
  lockServerVersion: { en: 'Lock server version', it: 'Versione del server delle serrature' },
  linkDrops: { en: 'Links lost', it: 'Collegamenti persi' },
  refusedConnections: { en: 'Connections refused', it: 'Collegamenti rifiutati' },
  secondConnectionsRefused: {
    en: 'Second connections from the lock server’s address refused',
    it: 'Secondi collegamenti dall’indirizzo del server delle serrature rifiutati',
  },
  linkReplacements: {
    en: 'Links replaced (no answer to the alive check)',
    it: 'Collegamenti sostituiti (nessuna risposta al controllo)',
  },
  keysCut: { en: 'Keys cut', it: 'Chiavi codificate' },
  lastKey: { en: 'Last key', it: 'Ultima chiave' },
  lastKeyAt: { en: 'Last key at', it: 'Ultima chiave alle' },
  lastError: { en: 'Last error', it: 'Ultimo errore' },
  encoderId: { en: 'Encoder', it: 'Encoder' },
  answers: { en: 'Lock server answers', it: 'Risposte del server delle serrature' },
});
