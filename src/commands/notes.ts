import { ERROR_CODES, type SerializedError } from '../errors.js';

/**
 * The `Notes` text the platform shows staff. Pure functions; what they return may be sent, so
 * they never include anything that could be a secret.
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

/**
 * Notes for a command that ended in Error: the receptionist's sentence, then the code and a short
 * technical reason in brackets when it is safe to show.
 */
export function errorNotes(error: SerializedError): string {
  const sentence = error.notes.trim() || ERROR_CODES[error.code].notes;
  const reason = error.message === error.notes ? undefined : safeReason(error.message);
  return reason ? `${sentence} (${error.code}: ${reason})` : `${sentence} (${error.code})`;
}

/** Notes for a job whose outcome the driver could not establish after a restart. */
export function unknownOutcomeNotes(reason: string): string {
  return errorNotes({
    code: 'STATE_UNKNOWN',
    message: reason,
    notes: ERROR_CODES.STATE_UNKNOWN.notes,
    retryable: false,
  });
}
