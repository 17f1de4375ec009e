import type { CardOutcome, CardPlace } from '../../src/drivers-api/key-jobs.js';
import { roomsWords } from '../../src/drivers-api/messages.js';
import { AgentError, type ErrorCode } from '../../src/errors.js';
import type { Message, MessageArg } from '../../src/messages/message.js';
import { fiasMessages } from './messages.js';
import { type FiasRecord, fieldOf } from './records.js';

/**
 * The key answer (KA, IFC8 FIAS specification 2.20.23 p.64): `AS` the answer status, `CT` the
 * lock server's clear text for the user (at most 40 characters; mandatory since 2.20 though the
 * spec's own examples omit it), `KC` and `WS` naming the request. The statuses are those of
 * Appendix B (p.103–104); what each means for the card is the agent's reading, since the spec
 * only says OK is "completed successfully" and that the PMS never re-sends a KR by itself (p.67):
 *
 * | AS          | card        | agent                                                         |
 * | OK          | written     | the card counts as cut                                        |
 * | BY, RY      | not written | encoder busy or not found / "retry": tried again after a pause |
 * | NA          | not written | night audit: Error, cut again later                           |
 * | NG          | not written | "not found" (`ASNG|CTINVALID ROOM`, p.14): ROOM_UNKNOWN        |
 * | DN, UR, any | not written | refused: Error with the lock server's text                    |
 *
 * Some lock servers answer OK on receipt, before the card is encoded (a GPL BMS bridge,
 * `pms_server.cpp`); the agent cannot tell and counts OK as written.
 */

export interface KeyAnswer {
  status: string;
  /** `CT`, cleaned for Notes. */
  text: string;
  encoder?: string;
  workstation?: string;
}

const MAX_TEXT = 80;

/** Reads a KA; control characters are dropped and the text clipped. */
export function readAnswer(ka: FiasRecord): KeyAnswer {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is dropped
  const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  const text = clean(fieldOf(ka, 'CT') ?? '');
  const answer: KeyAnswer = {
    status: clean(fieldOf(ka, 'AS') ?? '').toUpperCase() || '?',
    text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text,
  };
  const encoder = fieldOf(ka, 'KC');
  const workstation = fieldOf(ka, 'WS');
  if (encoder !== undefined) answer.encoder = encoder;
  if (workstation !== undefined) answer.workstation = workstation;
  return answer;
}

/** What the answer means for the card (the table above), with the error staff read if it is not written. */
export function judgeAnswer(answer: KeyAnswer, at: CardPlace): CardOutcome {
  if (answer.status === 'OK') return { kind: 'written' };
  const busy = answer.status === 'BY' || answer.status === 'RY';
  return { kind: busy ? 'busy' : 'refused', error: answerError(answer, at) };
}

interface Meaning {
  code: ErrorCode;
  meaning: string;
  notes: (values: { rooms: Message; text: MessageArg; status: string }) => Message;
  retryable?: boolean;
}

const MEANINGS: Readonly<Record<string, Meaning>> = {
  DN: { code: 'DEVICE_ERROR', meaning: 'request denied', notes: fiasMessages.answerDN },
  UR: { code: 'DEVICE_ERROR', meaning: 'unprocessable request, no retry', notes: fiasMessages.answerUR },
  NG: { code: 'ROOM_UNKNOWN', meaning: 'not found', notes: fiasMessages.answerNG },
  NA: { code: 'DEVICE_BUSY', meaning: 'night audit', notes: fiasMessages.answerNA, retryable: false },
  BY: { code: 'DEVICE_BUSY', meaning: 'encoder busy', notes: fiasMessages.answerBY, retryable: false },
  RY: { code: 'DEVICE_BUSY', meaning: 'retry', notes: fiasMessages.answerBY, retryable: false },
};

/** The error staff read for an answer that is not OK; no card was written. */
function answerError(answer: KeyAnswer, context: CardPlace): AgentError {
  const known = MEANINGS[answer.status];
  const text = answer.text || fiasMessages.noDetails();
  const notes = (known?.notes ?? fiasMessages.answerOther)({
    rooms: roomsWords(context.rooms),
    text,
    status: answer.status,
  });
  return new AgentError(
    known?.code ?? 'DEVICE_ERROR',
    `lock server answered ${answer.status}${known ? ` (${known.meaning})` : ''}${answer.text ? `: ${answer.text}` : ''}`,
    {
      notes,
      ...(known?.retryable === undefined ? {} : { retryable: known.retryable }),
      details: {
        answerStatus: answer.status,
        ...(answer.text ? { answerText: answer.text } : {}),
        card: context.card,
        total: context.total,
      },
    },
  );
}
