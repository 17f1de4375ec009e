import type { KeyJobData } from '../../src/connector/model.js';
import { checkKeyCount } from '../../src/drivers-api/key-jobs.js';
import { toFieldText } from '../../src/drivers-api/text.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import {
  type CardCommand,
  type CardRequest,
  MAX_NAME_LENGTH,
  MAX_PRINT_LINE_LENGTH,
  MAX_ROOMS,
} from './commands.js';
import type { SaltoEncoderOptions } from './config.js';
import { saltoKeyWords, saltoMessages } from './messages.js';
import { formatLockTime, parseInstant } from './time.js';

/**
 * Turns a key command into what goes on the wire, before anything is sent: a bad command is
 * refused (COMMAND_INVALID, or CONFIG_INVALID when the encoder id is missing everywhere) without
 * touching the encoder.
 */
export interface KeyPlan {
  total: number;
  /** The platform's room numbers, for Notes ("room 101", `roomsWords`). */
  rooms: readonly string[];
  /** Request without the command name; `request(k)` adds CN for the first card, CC after. */
  base: Omit<CardRequest, 'command'>;
  request(command: CardCommand): CardRequest;
}

function invalid(message: string, notes: Message): AgentError {
  return new AgentError('COMMAND_INVALID', message, { notes });
}

/** The three print lines: guest name, reservation number, stay dates (local, DD/MM). */
function printLines(keys: KeyJobData, options: SaltoEncoderOptions, from: string, until: string): string[] {
  const g = keys.guest;
  const first = g.normalizedFirstName?.trim() || g.firstName?.trim() || '';
  const last = g.normalizedLastName?.trim() || g.lastName.trim();
  const name = toFieldText(`${first} ${last}`, options.printCharset, MAX_PRINT_LINE_LENGTH);
  const reservation = keys.reservationNumber
    ? toFieldText(`Res. ${keys.reservationNumber}`, 'ascii', MAX_PRINT_LINE_LENGTH)
    : '';
  const dates = `${from.slice(4, 6)}/${from.slice(6, 8)} - ${until.slice(4, 6)}/${until.slice(6, 8)}`;
  return [name, reservation, dates];
}

export function planKeyJob(
  keys: KeyJobData,
  options: SaltoEncoderOptions,
  timezone: string,
  creatorName: string | undefined,
): KeyPlan {
  checkKeyCount(keys, options.maxKeys, saltoKeyWords);
  if (keys.lockIds.length > MAX_ROOMS) {
    throw invalid(
      `${keys.lockIds.length} rooms on one card`,
      saltoMessages.tooManyRooms({ max: MAX_ROOMS, count: keys.lockIds.length }),
    );
  }
  const start = parseInstant(keys.startUtc);
  const end = parseInstant(keys.endUtc);
  if (start === undefined || end === undefined || end <= start) {
    throw invalid(`Bad validity ${keys.startUtc} … ${keys.endUtc}`, saltoMessages.badDates());
  }
  const encoderIdRaw = options.encoderId ?? keys.keyCutterId;
  if (!encoderIdRaw?.trim()) {
    throw new AgentError('CONFIG_INVALID', 'No encoder id: neither options.encoderId nor KeyCutterId', {
      notes: saltoMessages.noEncoderId(),
    });
  }
  const rooms = keys.lockIds.map((id) => toFieldText(options.rooms[id] ?? id, 'latin1', MAX_NAME_LENGTH));
  if (rooms.some((r) => r === '')) {
    throw invalid('An empty room id', saltoMessages.emptyRoom());
  }
  let validFrom: string;
  let validUntil: string;
  try {
    validFrom = formatLockTime(start, timezone, 'floor');
    validUntil = formatLockTime(end, timezone, 'ceil');
  } catch (error) {
    throw new AgentError('CONFIG_INVALID', `Unknown time zone ${timezone}`, { cause: error });
  }
  const operator = toFieldText(options.operator ?? creatorName ?? 'frontdesk', 'ascii', MAX_NAME_LENGTH);
  const base: Omit<CardRequest, 'command'> = {
    count: 1,
    encoderId: toFieldText(encoderIdRaw, 'latin1', MAX_NAME_LENGTH),
    eject: options.eject,
    rooms,
    grantedAccess: options.grantedAccess,
    deniedAccess: options.deniedAccess,
    validFrom,
    validUntil,
    operator: operator || 'frontdesk',
    printLines: printLines(keys, options, validFrom, validUntil),
    serialReturn: options.returnSerialNumbers ? 'last' : 'none',
  };
  return {
    total: keys.keyCount,
    rooms: keys.lockIds,
    base,
    request: (command) => ({ ...base, command }),
  };
}
