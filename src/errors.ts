import { errorCodeMessages } from './messages/error-codes.js';
import { type Message, readMessage } from './messages/message.js';

/**
 * The one error type of the agent. Every failure that crosses a module boundary is an
 * `AgentError` with a string `code`; whether it may be retried follows from the code (callers can
 * override it for a single error). The serialisable form `{code, message, notes, details}` goes
 * into the journal. `message` is English for the log and support; `notes` (or the code's default,
 * `errorCodeNote`) is the catalogue message a receptionist reads in the platform's Notes and on
 * the status page, in the configured language.
 *
 * Secrets never belong in `message`, `notes` or `details`: build them from ids and codes only.
 */

export const ERROR_CODES = {
  CONFIG_INVALID: { retryable: false },
  PLATFORM_UNREACHABLE: { retryable: true },
  PLATFORM_TIMEOUT: { retryable: true },
  PLATFORM_ERROR: { retryable: true },
  PLATFORM_REJECTED: { retryable: false },
  PLATFORM_FORBIDDEN: { retryable: false },
  PLATFORM_AUTH: { retryable: false },
  PLATFORM_NOT_FOUND: { retryable: false },
  PLATFORM_CONFLICT: { retryable: true },
  REQUEST_TOO_LARGE: { retryable: true },
  RATE_LIMITED: { retryable: true },
  REQUEST_INVALID: { retryable: false },
  RESPONSE_INVALID: {
    // Not understood is not delivered: an HTML page from a captive portal or a proxy, a JSON array
    // where an object belongs. The agent keeps what it has and asks again later, as in an outage.
    retryable: true,
  },
  COMMAND_INVALID: { retryable: false },
  DEVICE_UNAVAILABLE: { retryable: true },
  DEVICE_BUSY: { retryable: true },
  DEVICE_TIMEOUT: { retryable: true },
  DEVICE_ERROR: { retryable: false },
  PAPER_OUT: { retryable: false },
  COVER_OPEN: { retryable: false },
  FISCAL_REJECTED: { retryable: false },
  NO_CARD: { retryable: false },
  CARD_REJECTED: { retryable: false },
  ROOM_UNKNOWN: { retryable: false },
  STATE_UNKNOWN: { retryable: false },
  ABORTED: { retryable: false },
  JOURNAL_ERROR: { retryable: false },
  INTERNAL: { retryable: false },
} as const satisfies Record<string, { retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Every code has its sentence (a compile-time check as much as a table). */
const CODE_NOTES: Record<ErrorCode, () => Message> = errorCodeMessages;

/** The sentence staff read for `code` when nothing more precise is said. */
export function errorCodeNote(code: ErrorCode): Message {
  return CODE_NOTES[code]();
}

/** The form an error takes in the journal and in JSON. */
export interface SerializedError {
  code: ErrorCode;
  message: string;
  /** A catalogue message; a plain string in journals written by older builds: read it with `readMessage`. */
  notes: Message | string;
  retryable: boolean;
  details?: Record<string, unknown>;
}

export interface AgentErrorOptions {
  /** Overrides the code's default. */
  retryable?: boolean;
  /** The receptionist's sentence (a catalogue message); defaults to the code's. */
  notes?: Message;
  /** Machine-readable context: ids, status codes, counters. Never secrets. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class AgentError extends Error {
  override readonly name = 'AgentError';
  readonly code: ErrorCode;
  readonly retryable: boolean;
  /** A catalogue message. */
  readonly notes: Message;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: AgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
    this.notes = options.notes ?? errorCodeNote(code);
    this.details = options.details ?? {};
  }

  toJSON(): SerializedError {
    const out: SerializedError = {
      code: this.code,
      message: this.message,
      notes: this.notes,
      retryable: this.retryable,
    };
    if (Object.keys(this.details).length > 0) out.details = this.details;
    return out;
  }

  static fromJSON(value: SerializedError): AgentError {
    return new AgentError(value.code, value.message, {
      retryable: value.retryable,
      notes: readMessage(value.notes),
      ...(value.details ? { details: value.details } : {}),
    });
  }
}

export function isAgentError(value: unknown): value is AgentError {
  return value instanceof AgentError;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/**
 * Wraps anything thrown into an AgentError. An AbortError becomes ABORTED; anything else that is
 * not already an AgentError becomes `fallback` (INTERNAL by default) with the original as cause.
 */
export function toAgentError(value: unknown, fallback: ErrorCode = 'INTERNAL'): AgentError {
  if (value instanceof AgentError) return value;
  if (value instanceof Error && (value.name === 'AbortError' || value.name === 'TimeoutError')) {
    return new AgentError(value.name === 'AbortError' ? 'ABORTED' : 'DEVICE_TIMEOUT', value.message, {
      cause: value,
    });
  }
  const message = value instanceof Error ? value.message : String(value);
  return new AgentError(fallback, message, { cause: value });
}

/**
 * CONFIG_INVALID for a file the configuration names that cannot be read: `file` says which
 * ("scenario /etc/…", "the device CA file /etc/…"), the reason is the system's error code
 * (`ENOENT`, `EACCES`), never the file's content.
 */
export function unreadableFile(file: string, cause: unknown): AgentError {
  return new AgentError(
    'CONFIG_INVALID',
    `Cannot read ${file}: ${(cause as NodeJS.ErrnoException).code ?? 'error'}`,
  );
}
