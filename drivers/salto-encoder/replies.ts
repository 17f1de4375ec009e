import { roomsWords } from '../../src/drivers-api/messages.js';
import { AgentError, type ErrorCode } from '../../src/errors.js';
import type { Message, MessageArg } from '../../src/messages/message.js';
import { saltoMessages } from './messages.js';

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
  /** What the receptionist reads, given the rooms and the lock software's text. */
  notes: (values: { rooms: Message; count: number; text: MessageArg }) => Message;
  retryable?: boolean;
}

/** Every error code of the protocol, what it means and what staff should do. */
export const REPLY_ERRORS: Readonly<Record<string, ErrorMeaning>> = {
  ES: {
    code: 'DEVICE_ERROR',
    meaning: 'syntax error: the lock software did not understand the request',
    notes: saltoMessages.replyES,
  },
  NC: {
    code: 'DEVICE_UNAVAILABLE',
    meaning: 'no communication: the encoder does not answer the lock software',
    notes: saltoMessages.replyNC,
  },
  NF: {
    code: 'DEVICE_ERROR',
    meaning: 'no files: the lock software’s database is damaged or missing',
    notes: saltoMessages.replyNF,
  },
  OV: {
    code: 'DEVICE_BUSY',
    meaning: 'overflow: the encoder is still busy with an earlier task',
    notes: saltoMessages.replyOV,
  },
  EP: {
    code: 'NO_CARD',
    meaning: 'card error: no card, or wrongly inserted',
    notes: saltoMessages.replyEP,
  },
  EF: {
    code: 'CARD_REJECTED',
    meaning: 'format error: the card belongs to another system or is damaged',
    notes: saltoMessages.replyEF,
  },
  TD: {
    code: 'ROOM_UNKNOWN',
    meaning: 'unknown room',
    notes: saltoMessages.replyTD,
  },
  ED: {
    code: 'DEVICE_TIMEOUT',
    meaning: 'timeout: the encoder waited too long for a card',
    notes: saltoMessages.replyED,
    retryable: false,
  },
  EA: {
    code: 'DEVICE_ERROR',
    meaning: 'the room is checked out, so no copy can be made',
    notes: saltoMessages.replyEA,
  },
  OS: {
    code: 'DEVICE_ERROR',
    meaning: 'the room is out of service',
    notes: saltoMessages.replyOS,
  },
  EO: {
    code: 'DEVICE_BUSY',
    meaning: 'the guest card is being encoded at another station',
    notes: saltoMessages.replyEO,
    retryable: false,
  },
  EV: {
    code: 'CARD_REJECTED',
    meaning: 'the card belongs to a valid staff user',
    notes: saltoMessages.replyEV,
  },
  EG: {
    code: 'DEVICE_ERROR',
    meaning: 'general error (text in the last field)',
    notes: saltoMessages.replyEG,
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
  /** The platform's room numbers (the Notes say "room 101", "rooms 101 and 102"). */
  rooms: readonly string[];
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
  const text = clip(reply.text.trim()) || saltoMessages.noDetails();
  const meaning = known?.meaning ?? `unknown error code ${JSON.stringify(clip(reply.code))}`;
  const notes = (known?.notes ?? saltoMessages.replyUnknown)({
    rooms: roomsWords(context.rooms),
    count: context.rooms.length,
    text,
  });
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
