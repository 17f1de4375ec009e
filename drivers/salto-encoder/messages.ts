import type { KeyJobWords } from '../../src/drivers-api/key-jobs.js';
import { defineMessages } from '../../src/messages/catalogue.js';

/**
 * What the Salto (PMS protocol) encoder driver tells staff. `{rooms}` is "room 101" / "la camera
 * 101" (`roomsWords`), `{count}` the number of rooms where a verb agrees with it.
 */
export const saltoMessages = defineMessages('salto', {
  notForEncoder: {
    en: 'This command is not for a key encoder; check the device configuration.',
    it: 'Questo comando non è per un encoder di chiavi: controllare la configurazione del dispositivo.',
  },
  reconnecting: {
    en: 'The encoder is unplugged or not answering; the agent reconnects by itself as soon as it is back.',
    it: 'L’encoder è scollegato o non risponde; l’agente si ricollega da solo appena torna disponibile.',
  },
  cutting: { en: 'cutting key {card} of {total}', it: 'codifica della chiave {card} di {total}' },
  ready: { en: 'ready', it: 'pronto' },
  unpluggedWaiting: { en: 'unplugged — waiting for it', it: 'scollegato — in attesa che torni' },
  notAnswering: { en: 'not answering', it: 'non risponde' },
  notConnectedYet: { en: 'not connected yet', it: 'non ancora collegato' },
  cut: {
    en: '{confirmed} of {total} keys {confirmed, plural, one {was} other {were}} cut',
    it: '{confirmed, plural, one {è stata codificata # chiave} other {sono state codificate # chiavi}} su {total}',
  },
  cancelledBeforeAny: {
    en: 'Cancelled before any key was cut.',
    it: 'Annullato prima di codificare qualsiasi chiave.',
  },
  cancelledAfter: { en: 'Cancelled; {cut} for {rooms}.', it: 'Annullato; {cut} per {rooms}.' },
  disconnectedAt: {
    en: 'The encoder was disconnected while writing key {card} of {total} for {rooms}; test that card before handing it out.',
    it: 'L’encoder si è scollegato mentre codificava la chiave {card} di {total} per {rooms}: provare quella tessera prima di consegnarla.',
  },
  unconfirmedAt: {
    en: 'The encoder did not confirm key {card} of {total} for {rooms}, which may have been written; test that card before handing it out.',
    it: 'L’encoder non ha confermato la chiave {card} di {total} per {rooms}, che potrebbe essere stata codificata: provare quella tessera prima di consegnarla.',
  },
  cutBefore: { en: '{sentence} {cut} before this.', it: '{sentence} In precedenza {cut}.' },
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
  noAnswer: {
    en: 'The encoder does not answer; check that it is switched on and connected.',
    it: 'L’encoder non risponde: controllare che sia acceso e collegato.',
  },
  keepsRefusing: {
    en: 'The encoder keeps refusing the request; switch it off and on, then try again.',
    it: 'L’encoder continua a rifiutare la richiesta: spegnerlo e riaccenderlo, poi riprovare.',
  },
  vanished: {
    en: 'The encoder is unplugged or switched off; the agent reconnects when it is back.',
    it: 'L’encoder è scollegato o spento; l’agente si ricollega quando torna disponibile.',
  },
  silent: {
    en: 'The encoder is connected but does not answer; check that it is switched on.',
    it: 'L’encoder è collegato ma non risponde: controllare che sia acceso.',
  },
  noKeys: {
    en: 'The command asks for no key; create it again.',
    it: 'Il comando non chiede nessuna chiave: crearlo di nuovo.',
  },
  tooManyKeys: {
    en: 'The command asks for {count} keys; at most {max} are cut at once. Create it again with fewer.',
    it: 'Il comando chiede {count} chiavi, ma se ne possono codificare al massimo {max} alla volta. Crearlo di nuovo con meno chiavi.',
  },
  tooManyRooms: {
    en: 'A key card opens at most {max} rooms, and this reservation has {count}; cut keys per room.',
    it: 'Una tessera apre al massimo {max} camere e questa prenotazione ne ha {count}: codificare le chiavi camera per camera.',
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
  replyES: {
    en: 'The lock software refused the agent’s request as malformed; ask IT to check the encoder settings.',
    it: 'Il software delle serrature ha rifiutato la richiesta dell’agente perché non valida: chiedere all’assistenza tecnica di controllare le impostazioni dell’encoder.',
  },
  replyNC: {
    en: 'The lock software cannot reach the encoder; check that it is switched on and connected, then try again.',
    it: 'Il software delle serrature non raggiunge l’encoder: controllare che sia acceso e collegato, poi riprovare.',
  },
  replyNF: {
    en: 'The lock software reports a damaged database; call the lock vendor’s support.',
    it: 'Il software delle serrature segnala un database danneggiato: chiamare l’assistenza del fornitore delle serrature.',
  },
  replyOV: {
    en: 'The encoder is busy with another card; wait a moment and try again.',
    it: 'L’encoder è occupato con un’altra tessera: attendere un momento e riprovare.',
  },
  replyEP: {
    en: 'No card in the encoder — insert a blank card and try again.',
    it: 'Nessuna tessera nell’encoder: inserire una tessera vergine e riprovare.',
  },
  replyEF: {
    en: 'The encoder cannot use this card (another system’s card, or damaged); insert a blank card of this hotel and try again.',
    it: 'L’encoder non può usare questa tessera (è di un altro sistema o è danneggiata): inserire una tessera vergine di questo hotel e riprovare.',
  },
  replyTD: {
    en: 'The lock software does not know {rooms}; check the room-to-lock mapping.',
    it: 'Il software delle serrature non conosce {rooms}: controllare l’abbinamento tra camere e serrature.',
  },
  replyED: {
    en: 'The encoder waited too long for a card; insert a blank card when asked and try again.',
    it: 'L’encoder ha atteso troppo a lungo la tessera: inserire una tessera vergine quando richiesto e riprovare.',
  },
  replyEA: {
    en: 'The lock software says {rooms} {count, plural, one {is} other {are}} checked out, so it cannot copy the key; cut new keys instead.',
    it: 'Per il software delle serrature {rooms} {count, plural, one {risulta} other {risultano}} in check-out, quindi la chiave non si può copiare: codificare chiavi nuove.',
  },
  replyOS: {
    en: 'The lock software has {rooms} out of service; put it back in service or choose another room.',
    it: 'Il software delle serrature ha {rooms} fuori servizio: rimetterla in servizio o scegliere un’altra camera.',
  },
  replyEO: {
    en: 'This guest’s card is being encoded at another station; wait until it is done, then try again.',
    it: 'La tessera di questo ospite è in codifica su un’altra postazione: attendere che finisca, poi riprovare.',
  },
  replyEV: {
    en: 'The inserted card is a staff card; insert a blank guest card and try again.',
    it: 'La tessera inserita è del personale: inserire una tessera ospite vergine e riprovare.',
  },
  replyEG: {
    en: 'The lock software reported an error: {text}',
    it: 'Il software delle serrature ha segnalato un errore: {text}',
  },
  replyUnknown: {
    en: 'The encoder reported an error ({text}); check it and try again.',
    it: 'L’encoder ha segnalato un errore ({text}): controllarlo e riprovare.',
  },
  noDetails: { en: 'no details given', it: 'senza dettagli' },
});

/** The sentences of the shared key loop (`src/drivers-api/key-jobs.ts`), under their Salto ids. */
export const saltoKeyWords: KeyJobWords = { ...saltoMessages, unansweredAt: saltoMessages.unconfirmedAt };

/** How the agent reaches the encoder, as the status page's `transport` fact says it. */
export const saltoTransportWords = defineMessages('salto.transport', {
  serial: { en: 'serial port', it: 'porta seriale' },
  tcp: { en: 'network (TCP)', it: 'rete (TCP)' },
  hid: { en: 'USB (HID bridge)', it: 'USB (ponte HID)' },
  memory: { en: 'in memory (tests)', it: 'in memoria (prove)' },
});

/** Labels of the encoder's facts and details (see `src/drivers-api/messages.ts`). */
export const saltoLabels = defineMessages('label.salto-encoder', {
  transport: { en: 'Connection', it: 'Collegamento' },
  link: { en: 'Port', it: 'Porta' },
  cardsCut: { en: 'Cards cut', it: 'Tessere codificate' },
  lastError: { en: 'Last error', it: 'Ultimo errore' },
  encoderId: { en: 'Encoder', it: 'Encoder' },
  serials: { en: 'Card serial numbers', it: 'Numeri di serie delle tessere' },
});
