import { type ErrorCode, errorCodeNote, type SerializedError } from '../../errors.js';
import { type Message, readMessage } from '../../messages/message.js';
import { english } from '../../messages/render.js';
import { engineMessages, stateWord } from './messages.js';

/**
 * The `Notes` the platform shows staff, as catalogue messages (`messages.ts`; rendered in the
 * configured language when they are queued for the platform). Pure functions; what they return
 * may be sent, so they never include anything that could be a secret.
 */

/** Longest technical reason appended to a note. */
const MAX_REASON = 160;
/** Words that suggest a credential might be in a message; such messages are never appended. */
const SECRET_HINT = /(token|passw|secret|authori[sz]|cookie|bearer|api[-_ ]?key|access[-_ ]?key|credential)/i;
/** `scheme://user:pass@host` */
const URL_CREDENTIALS = /\w+:\/\/[^/\s:@]+:[^/\s@]+@/;

/** A short technical reason, or undefined when it is empty or might carry a secret. */
export function safeReason(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const oneLine = text.replace(/\s+/g, ' ').trim();
  if (oneLine === '' || SECRET_HINT.test(oneLine) || URL_CREDENTIALS.test(oneLine)) return undefined;
  return oneLine.length > MAX_REASON ? `${oneLine.slice(0, MAX_REASON - 1)}…` : oneLine;
}

/** The error's own sentence, or its code's when it has none (a journal from an older build). */
function sentenceOf(error: Pick<SerializedError, 'code' | 'notes'>): Message {
  const notes = readMessage(error.notes);
  return english(notes).trim() === '' ? errorCodeNote(error.code) : notes;
}

/**
 * Notes for a command that ended in Error: the receptionist's sentence, then the code and a short
 * technical reason in brackets when it is safe to show (the error's message: English, for IT).
 */
export function errorNotes(error: SerializedError): Message {
  const sentence = sentenceOf(error);
  const reason = error.message === english(sentence) ? undefined : safeReason(error.message);
  return withCode(sentence, error.code, reason);
}

function withCode(sentence: Message, code: ErrorCode, reason: string | Message | undefined): Message {
  return reason === undefined
    ? engineMessages.errorWithCode({ sentence, code })
    : engineMessages.errorWithReason({ sentence, code, reason });
}

/**
 * The error of a job whose outcome the driver could not establish after a restart: `reason` (the
 * driver's words on why) follows the code's sentence in the Notes, and in English is its message.
 */
export function unknownOutcomeError(reason: Message): SerializedError {
  return {
    code: 'STATE_UNKNOWN',
    message: english(reason),
    notes: errorCodeNote('STATE_UNKNOWN'),
    retryable: false,
  };
}

/** Notes for a job whose outcome the driver could not establish after a restart. */
export function unknownOutcomeNotes(reason: Message): Message {
  return withCode(errorCodeNote('STATE_UNKNOWN'), 'STATE_UNKNOWN', reason);
}

/** The reason (for an unknown outcome) when the driver could not be asked at all. */
export function deviceUnreachableReason(error: Pick<SerializedError, 'code' | 'message'>): Message {
  return engineMessages.deviceNotAsked({ code: error.code, error: safeReason(error.message) ?? '' });
}

/** Notes of a command that never started: cancelled, or no longer offered by the platform. */
export function notStartedNotes(platformState: string): Message {
  return platformState === 'Cancelled'
    ? engineMessages.cancelledBeforeStart()
    : engineMessages.notOfferedBeforeStart({ state: stateWord(platformState) });
}

/** Notes of a command cancelled while running, whose driver stopped. */
export function cancelledWhileRunningNotes(): Message {
  return engineMessages.cancelledWhileRunning();
}

/** Notes of a command cancelled while running whose device had already done it. */
export function doneDespiteCancelNotes(resultNotes: Message): Message {
  return engineMessages.doneDespiteCancel({ result: resultNotes });
}

/**
 * Notes sent back with Cancelled when an update of ours landed after the platform had cancelled
 * the command and the job had not settled yet (`outbox/restore.ts`).
 */
export function cancelledOnPlatformNotes(): Message {
  return engineMessages.cancelledOnPlatform();
}

/**
 * Why a stored checkpoint cannot be handed to this device's driver (the outcome is then unknown,
 * and staff check the device).
 */
export const checkpointReasons = {
  unreadable: engineMessages.checkpointUnreadable(),
  otherDriver: (stored: string, configured: string) =>
    engineMessages.checkpointOtherDriver({ stored, configured }),
  otherVersion: (driver: string, stored: number, expected: number) =>
    engineMessages.checkpointOtherVersion({ driver, stored, expected }),
} as const;
