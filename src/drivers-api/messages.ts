import { defineMessages } from '../messages/catalogue.js';
import type { Message } from '../messages/message.js';

/**
 * Words every driver family shares (a family's own sentences are in `drivers/<family>/messages.ts`).
 *
 * Labels: the status page names a device fact (`DeviceStatus.facts`) or a result detail
 * (`JobResult.details`) by the message `label.<driver kind>.<key>` when the family defines one,
 * else `label.<key>` from this list, else the key itself made readable. A family's facts are typed
 * by its labels (`FactsOf`), so each has one; a fact about one of several things is keyed
 * `<base>:<name>` and labelled by `label.<driver kind>.<base>` with `{name}` ("Printer {name}"). A detail whose value is a
 * `MessageArg` (a list, an amount of money, a time) is shown as one: `{money: 14.1, currency:
 * 'EUR'}` reads "€14.10" / "14,10 €", `["202", "SPA"]` reads "202 and SPA" / "202 e SPA".
 */
export const deviceMessages = defineMessages('device', {
  keysForRooms: {
    en: '{count, plural, one {# key} other {# keys}} for {rooms}',
    it: '{count, plural, one {# chiave} other {# chiavi}} per {rooms}',
  },
  rooms: {
    en: '{count, plural, one {room {rooms}} other {rooms {rooms}}}',
    it: '{count, plural, one {la camera {rooms}} other {le camere {rooms}}}',
  },
  keysUnreadable: {
    en: 'The agent cannot read how far it got with {total, plural, one {# key} other {# keys}} for {rooms}: {total, plural, one {the key} other {up to # keys}} may have been cut. Test the cards from the encoder before handing them out, and cut the keys again if needed.',
    it: 'L’agente non riesce a leggere a che punto era con {total, plural, one {# chiave} other {# chiavi}} per {rooms}: {total, plural, one {la chiave potrebbe essere stata codificata} other {potrebbero essere state codificate fino a # chiavi}}. Provare le tessere dall’encoder prima di consegnarle e, se serve, codificare di nuovo le chiavi.',
  },
  noRoom: { en: 'no room', it: 'nessuna camera' },
  statusUnavailable: { en: 'status unavailable ({error})', it: 'stato non disponibile ({error})' },
  noRoomAssigned: {
    en: 'The reservation has no room assigned; assign a room, then cut the keys again.',
    it: 'Alla prenotazione non è assegnata una camera: assegnarla, poi codificare di nuovo le chiavi.',
  },
  otherKeyProtocol: {
    en: 'This key command is for {wanted} (the key cutter’s Data JSON says Type "{type}"), but this encoder speaks {speaks}; no key was cut. Check the key cutter’s Data JSON on the platform, or which encoder the agent uses for it.',
    it: 'Questo comando di chiavi è per {wanted} (i dati JSON del codificatore indicano Type "{type}"), ma questo encoder usa {speaks}: nessuna chiave è stata codificata. Controllare i dati JSON del codificatore sulla piattaforma, o quale encoder usa l’agente.',
  },
});

/** "room 202", "rooms 202 and SPA" / "la camera 202", "le camere 202 e SPA". */
export function roomsWords(rooms: readonly string[]): Message {
  if (rooms.length === 0) return deviceMessages.noRoom();
  return deviceMessages.rooms({ count: rooms.length, rooms: { list: rooms } });
}

/** "2 keys for room 202" / "2 chiavi per la camera 202". */
export function keysForRoomsWords(count: number, rooms: readonly string[]): Message {
  return deviceMessages.keysForRooms({ count, rooms: roomsWords(rooms) });
}

/**
 * A key job whose checkpoint exists but cannot be read: as many cards as the job asks for may
 * have been cut.
 */
export function keysUnreadableWords(total: number, rooms: readonly string[]): Message {
  return deviceMessages.keysUnreadable({ total, rooms: roomsWords(rooms) });
}

/** Labels of facts and result details that several families use (see above). */
export const sharedLabels = defineMessages('label', {
  rooms: { en: 'Rooms', it: 'Camere' },
  room: { en: 'Room', it: 'Camera' },
  guest: { en: 'Guest', it: 'Ospite' },
  keys: { en: 'Keys', it: 'Chiavi' },
  cards: { en: 'Cards', it: 'Tessere' },
  serial: { en: 'Serial number', it: 'Matricola' },
  total: { en: 'Total', it: 'Totale' },
  receipt: { en: 'Receipt', it: 'Scontrino' },
  address: { en: 'Address', it: 'Indirizzo' },
  reachable: { en: 'Reachable', it: 'Raggiungibile' },
  simulated: { en: 'Simulated', it: 'Simulato' },
  warnings: { en: 'Warnings', it: 'Avvisi' },
  paperOut: { en: 'Paper out', it: 'Carta esaurita' },
});
