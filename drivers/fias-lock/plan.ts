import type { KeyJobData } from '../../src/connector/model.js';
import { checkKeyCount } from '../../src/drivers-api/key-jobs.js';
import { roomsWords } from '../../src/drivers-api/messages.js';
import { toFieldText } from '../../src/drivers-api/text.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import type { FiasLockOptions } from './config.js';
import type { LinkDescription } from './description.js';
import { fiasMessages } from './messages.js';
import { type FiasRecord, isFieldSafe } from './records.js';
import { stamp, stayFields } from './time.js';

/**
 * A key command as FIAS key requests (KR, IFC8 FIAS specification 2.20.23, "Key Services"
 * p.61–70), decided before anything is sent: a bad command is refused (COMMAND_INVALID, or
 * CONFIG_INVALID when no encoder id is known) without reaching the lock server.
 *
 * - One KR per card, K# always 1: "several cards = several KRs, the first KTN, the rest KTD", so
 *   each KA answers one card (p.63, p.65–66; the spec advises not to describe K# at all). `N`
 *   cancels the room's earlier keys, `D` leaves them valid (p.66–67, code table p.107); the first
 *   card is `N` unless `firstKey: duplicate`.
 * - The mandatory fields WS, KC, RN, KT always go; the others only when the lock server's
 *   `LR|RIKR` lists them (p.11, p.20: the PMS sends what the vendor described), in its order.
 *   Without an `LR|RIKR` the request carries WS KC RN KT G# GN GA GD DT DA TI.
 * - Rooms: the first of `LockIds` is `RN`; the others are `SI`, suite information, `;`-separated
 *   (p.63). A lock server that did not ask for SI gets no key for several rooms: it would open
 *   only the first.
 * - `G#` (numeric, at most 10 digits, p.63) is the reservation number when it is one; `GN` is
 *   "Last, First" as in the specification's examples (`GNVoigt, Thomas Herrn`, p.69).
 */

export type KeyType = 'N' | 'D';

/** What `LR|RIKR` lists when a lock server sends none (a minimal, common set). */
export const DEFAULT_KR_FIELDS = ['WS', 'KC', 'RN', 'KT', 'G#', 'GN', 'GA', 'GD', 'DT', 'DA', 'TI'] as const;
const MANDATORY = ['WS', 'KC', 'RN', 'KT'] as const;

export interface KeyPlan {
  total: number;
  /** The platform's room numbers, for Notes. */
  rooms: readonly string[];
  encoder: string;
  workstation: string;
  /** `G#`, when the reservation number is numeric. */
  reservation?: string;
  /** The KR for one card, with the fields the link's description asks for; `now` stamps DA/TI. */
  request(type: KeyType, description: LinkDescription | undefined, now: number): FiasRecord;
}

function invalid(message: string, notes: Message): AgentError {
  return new AgentError('COMMAND_INVALID', message, { notes });
}

/** Field-safe text: the charset's letters only, no `|`, at most `max` characters. */
function text(value: string, charset: FiasLockOptions['charset'], max = 200): string {
  return toFieldText(value, charset, max).replaceAll('|', '/');
}

export function planKeyJob(
  keys: KeyJobData,
  options: FiasLockOptions,
  timezone: string,
  creatorName: string | undefined,
): KeyPlan {
  checkKeyCount(keys, options.maxKeys, fiasMessages);
  const start = Date.parse(keys.startUtc);
  const end = Date.parse(keys.endUtc);
  if (Number.isNaN(start) || Number.isNaN(end) || end <= start) {
    throw invalid(`Bad validity ${keys.startUtc} … ${keys.endUtc}`, fiasMessages.badDates());
  }
  const encoder = text(options.encoderId ?? keys.keyCutterId ?? '', 'latin1', 8);
  if (!encoder) {
    throw new AgentError('CONFIG_INVALID', 'No encoder id: neither options.encoderId nor KeyCutterId', {
      notes: fiasMessages.noEncoderId(),
    });
  }
  const rooms = keys.lockIds.map((id) => text(options.rooms[id] ?? id, 'latin1', 40));
  if (rooms.some((r) => r === '')) throw invalid('An empty room id', fiasMessages.emptyRoom());
  let stay: ReturnType<typeof stayFields>;
  try {
    stay = stayFields(start, end, timezone, options.departureTime);
  } catch (error) {
    throw new AgentError('CONFIG_INVALID', `Unknown time zone ${timezone}`, { cause: error });
  }
  const g = keys.guest;
  const ascii = options.charset === 'ascii';
  const last = (ascii ? g.normalizedLastName : undefined)?.trim() || g.lastName.trim();
  const first = ((ascii ? g.normalizedFirstName : undefined) ?? g.firstName ?? '').trim();
  const guest = text(first ? `${last}, ${first}` : last, options.charset, 200);
  const reservation = /^\d{1,10}$/.test(keys.reservationNumber ?? '') ? keys.reservationNumber : undefined;
  const user = text(creatorName ?? '', options.charset, 16);
  const workstation = text(options.workstation, 'latin1', 16);
  const values = (type: KeyType, now: number): Record<string, string | undefined> => ({
    WS: workstation,
    KC: encoder,
    RN: rooms[0],
    KT: type,
    'K#': '1',
    SI: rooms.length > 1 ? rooms.slice(1).join(';') : undefined,
    'G#': reservation,
    GN: guest || undefined,
    GA: stay.arrival,
    GD: stay.departure,
    DT: stay.departureTime,
    KO: options.keyOptions,
    ID: user || undefined,
    ...stamp(now, timezone),
  });
  const plan: KeyPlan = {
    total: keys.keyCount,
    rooms: keys.lockIds,
    encoder,
    workstation,
    request(type, description, now) {
      const listed = description?.records.get('KR');
      const wanted = listed && listed.length > 0 ? listed : DEFAULT_KR_FIELDS;
      if (rooms.length > 1 && !wanted.includes('SI')) {
        throw invalid(
          `${rooms.length} rooms on one key, and the lock server's LR for KR has no SI`,
          fiasMessages.noSuites({ rooms: roomsWords(keys.lockIds) }),
        );
      }
      const available = values(type, now);
      const ids = [...wanted, ...MANDATORY.filter((id) => !wanted.includes(id))];
      const fields: Array<[string, string]> = [];
      for (const id of new Set(ids)) {
        const value = available[id];
        if (value !== undefined && isFieldSafe(value)) fields.push([id, value]);
      }
      return { type: 'KR', fields };
    },
  };
  if (reservation) plan.reservation = reservation;
  return plan;
}
