/**
 * The guest-card commands: `CN` (new guest card; cancels earlier cards of the room) and `CC`
 * (copy of the current guest card; earlier cards keep working), with the card count appended to
 * the command name (`CN1`, `CC3`). Field layout, by index:
 *
 *   0 command+count   1 encoder id        2 eject strategy (E eject, R retain, T rear)
 *   3..6 rooms (up to four; the first is the main room)
 *   7 granted access codes   8 denied access codes   9 valid from   10 valid until (hhmmDDMMYY)
 *   11 operator   12..14 three print lines   15 serial-number return (0 none, 1 last, 2 all)
 *
 * Access codes 1..62 travel as one character each: 1–9, then a–z (10–35), then the symbols of
 * ACCESS_SYMBOLS (36–62).
 */

export type CardCommand = 'CN' | 'CC';
export type EjectStrategy = 'eject' | 'retain' | 'rear';
export type SerialReturn = 'none' | 'last' | 'all';

export const MAX_ROOMS = 4;
/** Longest room, encoder and operator name the lock software stores (our reading: 24). */
export const MAX_NAME_LENGTH = 24;
/** Longest print line we send (our reading; card printers cut the rest anyway). */
export const MAX_PRINT_LINE_LENGTH = 32;

const EJECT_CODES: Record<EjectStrategy, string> = { eject: 'E', retain: 'R', rear: 'T' };
const SERIAL_CODES: Record<SerialReturn, string> = { none: '0', last: '1', all: '2' };
const ACCESS_SYMBOLS = '!#$%&()*+,-./:;<=>?@[\\]^_{}';

export interface CardRequest {
  command: CardCommand;
  /** Cards this command writes (the driver sends 1 to get one reply per card). */
  count: number;
  encoderId: string;
  eject: EjectStrategy;
  /** Lock-system room names, 1..4. */
  rooms: string[];
  grantedAccess: number[];
  deniedAccess: number[];
  validFrom: string;
  validUntil: string;
  operator: string;
  printLines: string[];
  serialReturn: SerialReturn;
}

export function encodeAccessCode(code: number): string {
  if (!Number.isInteger(code) || code < 1 || code > 62)
    throw new RangeError(`access code ${code} not in 1..62`);
  if (code <= 9) return String(code);
  if (code <= 35) return String.fromCharCode(0x61 + code - 10);
  return ACCESS_SYMBOLS[code - 36] as string;
}

export function decodeAccessCodes(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    if (ch >= '1' && ch <= '9') out.push(Number(ch));
    else if (ch >= 'a' && ch <= 'z') out.push(ch.charCodeAt(0) - 0x61 + 10);
    else {
      const i = ACCESS_SYMBOLS.indexOf(ch);
      if (i >= 0) out.push(36 + i);
    }
  }
  return out;
}

/** The request's fields, ready for `encodeFrame` (text must already be field-safe). */
export function cardRequestFields(r: CardRequest): string[] {
  if (r.rooms.length < 1 || r.rooms.length > MAX_ROOMS) throw new RangeError('a card opens 1..4 rooms');
  const rooms = [...r.rooms, '', '', '', ''].slice(0, MAX_ROOMS);
  const lines = [...r.printLines, '', '', ''].slice(0, 3);
  return [
    `${r.command}${r.count}`,
    r.encoderId,
    EJECT_CODES[r.eject],
    ...rooms,
    r.grantedAccess.map(encodeAccessCode).join(''),
    r.deniedAccess.map(encodeAccessCode).join(''),
    r.validFrom,
    r.validUntil,
    r.operator,
    ...lines,
    SERIAL_CODES[r.serialReturn],
  ];
}

/** Reads a card request back (the simulator's side). Undefined when it is not CN/CC. */
export function parseCardRequest(fields: readonly string[]): CardRequest | undefined {
  const head = /^(CN|CC)(\d*)$/.exec(fields[0] ?? '');
  if (!head) return undefined;
  const at = (i: number) => fields[i] ?? '';
  const eject = (Object.keys(EJECT_CODES) as EjectStrategy[]).find((k) => EJECT_CODES[k] === at(2));
  const serial = (Object.keys(SERIAL_CODES) as SerialReturn[]).find((k) => SERIAL_CODES[k] === at(15));
  return {
    command: head[1] as CardCommand,
    count: head[2] ? Number(head[2]) : 1,
    encoderId: at(1),
    eject: eject ?? 'eject',
    rooms: [at(3), at(4), at(5), at(6)].filter((r) => r !== ''),
    grantedAccess: decodeAccessCodes(at(7)),
    deniedAccess: decodeAccessCodes(at(8)),
    validFrom: at(9),
    validUntil: at(10),
    operator: at(11),
    printLines: [at(12), at(13), at(14)],
    serialReturn: serial ?? 'none',
  };
}
