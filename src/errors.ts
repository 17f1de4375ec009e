/**
 * The one error type of the agent. Every failure that crosses a module boundary is an
 * `AgentError` with a string `code`; whether it may be retried follows from the code (callers can
 * override it for a single error). The serialisable form `{code, message, details}` goes into the
 * journal; `notes` (or the code's default) is the sentence a receptionist reads in the platform's
 * Notes and on the status page.
 *
 * Secrets never belong in `message`, `notes` or `details`: build them from ids and codes only.
 */

export const ERROR_CODES = {
  CONFIG_INVALID: {
    retryable: false,
    notes: 'The agent configuration is invalid; ask IT to fix it.',
  },
  PLATFORM_UNREACHABLE: {
    retryable: true,
    notes: 'The platform could not be reached; the agent keeps trying.',
  },
  PLATFORM_TIMEOUT: {
    retryable: true,
    notes: 'The platform did not answer in time; the agent keeps trying.',
  },
  PLATFORM_ERROR: {
    retryable: true,
    notes: 'The platform reported an internal error; the agent keeps trying.',
  },
  PLATFORM_REJECTED: {
    retryable: false,
    notes: 'The platform refused the request.',
  },
  PLATFORM_FORBIDDEN: {
    retryable: false,
    notes: 'The platform refused the request for a business reason.',
  },
  PLATFORM_AUTH: {
    retryable: false,
    notes: 'The platform refused the agent’s tokens; ask IT to check the integration.',
  },
  PLATFORM_NOT_FOUND: {
    retryable: false,
    notes: 'The agent called a platform address that does not exist; ask IT to check the configuration.',
  },
  PLATFORM_CONFLICT: {
    retryable: true,
    notes: 'The data changed on the platform meanwhile; the agent re-reads it.',
  },
  REQUEST_TOO_LARGE: {
    retryable: true,
    notes: 'The request was too heavy for the platform; the agent retries with smaller pages.',
  },
  RATE_LIMITED: {
    retryable: true,
    notes: 'The platform asked the agent to slow down; it waits as told.',
  },
  REQUEST_INVALID: {
    retryable: false,
    notes: 'The agent built a request outside the platform’s documented limits.',
  },
  RESPONSE_INVALID: {
    // Not understood is not delivered: an HTML page from a captive portal or a proxy, a JSON array
    // where an object belongs. The agent keeps what it has and asks again later, as in an outage.
    retryable: true,
    notes: 'The platform answered with data the agent does not understand; the agent keeps trying.',
  },
  COMMAND_INVALID: {
    retryable: false,
    notes: 'The command from the platform is incomplete or malformed; nothing was done. Create it again.',
  },
  DEVICE_UNAVAILABLE: {
    retryable: true,
    notes: 'The device cannot be reached; check that it is switched on and connected.',
  },
  DEVICE_BUSY: {
    retryable: true,
    notes: 'The device is busy; the agent tries again shortly.',
  },
  DEVICE_TIMEOUT: {
    retryable: true,
    notes: 'The device did not answer in time.',
  },
  DEVICE_ERROR: {
    retryable: false,
    notes: 'The device reported an error; check it and try again.',
  },
  PAPER_OUT: {
    retryable: false,
    notes: 'The printer is out of paper; replace the roll and try again.',
  },
  COVER_OPEN: {
    retryable: false,
    notes: 'The printer cover is open; close it and try again.',
  },
  FISCAL_REJECTED: {
    retryable: false,
    notes: 'The fiscal printer refused the document; nothing was printed.',
  },
  NO_CARD: {
    retryable: false,
    notes: 'No card in the encoder; insert a blank card and try again.',
  },
  CARD_REJECTED: {
    retryable: false,
    notes: 'The encoder refused the card; use a blank card of this hotel’s system.',
  },
  ROOM_UNKNOWN: {
    retryable: false,
    notes: 'The lock system does not know this room; check the room-to-lock mapping.',
  },
  STATE_UNKNOWN: {
    retryable: false,
    notes: 'The agent cannot tell whether the device finished the job; check the device before trying again.',
  },
  ABORTED: {
    retryable: false,
    notes: 'The job was stopped before it finished.',
  },
  JOURNAL_ERROR: {
    retryable: false,
    notes: 'The agent cannot write its journal; ask IT to check the disk.',
  },
  INTERNAL: {
    retryable: false,
    notes: 'The agent hit an unexpected problem; ask IT to check its log.',
  },
} as const satisfies Record<string, { retryable: boolean; notes: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * COMMAND_INVALID for a command outside the agent's bounds (too large, too deeply nested: see
 * `src/connector/bounds.ts`): creating it again the same way would fail the same way.
 */
export const OVERSIZED_COMMAND_NOTES =
  'The command from the platform is too large or too deeply nested for the agent to read; nothing was done. Ask IT to check what created it.';

/** The form an error takes in the journal and in JSON. */
export interface SerializedError {
  code: ErrorCode;
  message: string;
  notes: string;
  retryable: boolean;
  details?: Record<string, unknown>;
}

export interface AgentErrorOptions {
  /** Overrides the code's default. */
  retryable?: boolean;
  /** The receptionist's sentence; defaults to the code's. */
  notes?: string;
  /** Machine-readable context: ids, status codes, counters. Never secrets. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class AgentError extends Error {
  override readonly name = 'AgentError';
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly notes: string;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: AgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
    this.notes = options.notes ?? ERROR_CODES[code].notes;
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
      notes: value.notes,
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
