import { AgentError, type ErrorCode } from '../../src/errors.js';

/**
 * Replies to an encode command. Success echoes the command (`|CN1|encoder|…|`, optionally with
 * card serial numbers after the encoder id); failure puts an error code in the first field
 * (`|EP|encoder|`, `|EG|encoder|text|`).
 */
export type CardReply =
  | { ok: true; command: string; encoderId: string; serials: string[] }
  | { ok: false; code: string; encoderId: string; text: string };

interface ErrorMeaning {
  code: ErrorCode;
  /** What the lock software means. */
  meaning: string;
  /** What the receptionist reads; `{rooms}` is replaced. */
  notes: string;
  retryable?: boolean;
}

/** Every error code of the protocol, what it means and what staff should do. */
export const REPLY_ERRORS: Readonly<Record<string, ErrorMeaning>> = {
  ES: {
    code: 'DEVICE_ERROR',
    meaning: 'syntax error: the lock software did not understand the request',
    notes:
      'The lock software refused the agent’s request as malformed; ask IT to check the encoder settings.',
  },
  NC: {
    code: 'DEVICE_UNAVAILABLE',
    meaning: 'no communication: the encoder does not answer the lock software',
    notes:
      'The lock software cannot reach the encoder; check that it is switched on and connected, then try again.',
  },
  NF: {
    code: 'DEVICE_ERROR',
    meaning: 'no files: the lock software’s database is damaged or missing',
    notes: 'The lock software reports a damaged database; call the lock vendor’s support.',
  },
  OV: {
    code: 'DEVICE_BUSY',
    meaning: 'overflow: the encoder is still busy with an earlier task',
    notes: 'The encoder is busy with another card; wait a moment and try again.',
  },
  EP: {
    code: 'NO_CARD',
    meaning: 'card error: no card, or wrongly inserted',
    notes: 'No card in the encoder — insert a blank card and try again.',
  },
  EF: {
    code: 'CARD_REJECTED',
    meaning: 'format error: the card belongs to another system or is damaged',
    notes:
      'The encoder cannot use this card (another system’s card, or damaged); insert a blank card of this hotel and try again.',
  },
  TD: {
    code: 'ROOM_UNKNOWN',
    meaning: 'unknown room',
    notes: 'The lock software does not know {rooms}; check the room-to-lock mapping.',
  },
  ED: {
    code: 'DEVICE_TIMEOUT',
    meaning: 'timeout: the encoder waited too long for a card',
    notes: 'The encoder waited too long for a card; insert a blank card when asked and try again.',
    retryable: false,
  },
  EA: {
    code: 'DEVICE_ERROR',
    meaning: 'the room is checked out, so no copy can be made',
    notes: 'The lock software says {rooms} is checked out, so it cannot copy the key; cut new keys instead.',
  },
  OS: {
    code: 'DEVICE_ERROR',
    meaning: 'the room is out of service',
    notes: 'The lock software has {rooms} out of service; put it back in service or choose another room.',
  },
  EO: {
    code: 'DEVICE_BUSY',
    meaning: 'the guest card is being encoded at another station',
    notes: 'This guest’s card is being encoded at another station; wait until it is done, then try again.',
    retryable: false,
  },
  EV: {
    code: 'CARD_REJECTED',
    meaning: 'the card belongs to a valid staff user',
    notes: 'The inserted card is a staff card; insert a blank guest card and try again.',
  },
  EG: {
    code: 'DEVICE_ERROR',
    meaning: 'general error (text in the last field)',
    notes: 'The lock software reported an error: {text}',
  },
};

/** Error codes are two capital letters; a reply starting with CN/CC is the echo of success. */
export function parseReply(fields: readonly string[]): CardReply {
  const first = fields[0] ?? '';
  const encoderId = fields[1] ?? '';
  if (/^(CN|CC)\d*$/.test(first)) {
    const serials = fields.slice(2).filter((f) => /^[0-9A-Fa-f]{4,32}$/.test(f));
    return { ok: true, command: first, encoderId, serials };
  }
  const text = fields.length > 2 ? (fields[fields.length - 1] ?? '') : '';
  return { ok: false, code: first, encoderId, text };
}

export interface ReplyContext {
  /** Rooms as the receptionist knows them ("room 101", "rooms 101, 102"). */
  roomsLabel: string;
  card: number;
  total: number;
}

/** Most characters of the encoder's own text (or an unknown code) carried into Notes and details. */
const MAX_REPLY_TEXT = 160;

const clip = (text: string) =>
  text.length > MAX_REPLY_TEXT ? `${text.slice(0, MAX_REPLY_TEXT - 1)}…` : text;

/** Maps a failed reply to the AgentError staff will read (the encoder's text clipped). */
export function replyError(reply: Extract<CardReply, { ok: false }>, context: ReplyContext): AgentError {
  const known = REPLY_ERRORS[reply.code];
  const text = clip(reply.text.trim()) || 'no details given';
  const meaning = known?.meaning ?? `unknown error code ${JSON.stringify(clip(reply.code))}`;
  const notes = (known?.notes ?? 'The encoder reported an error ({text}); check it and try again.')
    .replace('{rooms}', context.roomsLabel)
    .replace('{text}', text);
  return new AgentError(known?.code ?? 'DEVICE_ERROR', `Encoder replied ${clip(reply.code)}: ${meaning}`, {
    notes,
    ...(known?.retryable === undefined ? {} : { retryable: known.retryable }),
    details: {
      replyCode: clip(reply.code),
      ...(reply.text ? { replyText: clip(reply.text) } : {}),
      card: context.card,
      total: context.total,
    },
  });
}
