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

/** The reason (for an unknown outcome) when the driver could not be asked at all. */
export function deviceUnreachableReason(error: Pick<SerializedError, 'code' | 'message'>): string {
  return `the device could not be asked (${error.code}: ${error.message})`;
}

/** Notes of a command that never started: cancelled, or no longer offered by the platform. */
export function notStartedNotes(platformState: string): string {
  return platformState === 'Cancelled'
    ? 'Cancelled on the platform before it started; nothing was done.'
    : `The platform no longer offered it (${platformState}) before it started; nothing was done.`;
}

/** Notes of a command cancelled while running, whose driver stopped. */
export const CANCELLED_WHILE_RUNNING_NOTES =
  'Cancelled on the platform while running; the device stopped the job.';

/** Notes of a command cancelled while running whose device had already done it. */
export function doneDespiteCancelNotes(resultNotes: string): string {
  return `Cancelled on the platform, but the device had already done it: ${resultNotes}`;
}

/**
 * Notes sent back with Cancelled when an update of ours landed after the platform had cancelled
 * the command and the job had not settled yet (`outbox-restore.ts`).
 */
export const CANCELLED_ON_PLATFORM_NOTES = 'Cancelled on the platform.';

/**
 * Why a stored checkpoint cannot be handed to this device's driver (the outcome is then unknown,
 * and staff check the device).
 */
export const checkpointReasons = {
  unreadable: 'its checkpoint in the journal cannot be read',
  otherDriver: (stored: string, configured: string) =>
    `its checkpoint was written by the ${stored} driver, and the device is now driven by ${configured}`,
  otherVersion: (driver: string, stored: number, expected: number) =>
    `its checkpoint is version ${stored} of the ${driver} driver, which now reads version ${expected}`,
} as const;
