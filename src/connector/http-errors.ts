import { AgentError, type ErrorCode } from '../errors.js';
import { redact } from '../log.js';
import { connectorMessages } from './messages.js';

/**
 * How the platform's HTTP answers become AgentErrors (table in `connector-api.md`). Every error
 * carries `details.status`, `details.operation` and, when the platform gave one,
 * `details.requestId`; the platform's `Message` goes into the message with any secret redacted.
 */

export interface PlatformFailure {
  operation: string;
  status: number;
  /** The platform's `Message`, possibly empty. */
  message: string;
  requestId?: string;
  /** Strings that must not appear in the error (the tokens). */
  secrets: readonly string[];
}

/** HTTP status → error code. Anything unlisted: other 4xx are refusals, the rest platform faults. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'PLATFORM_REJECTED';
    case 401:
      return 'PLATFORM_AUTH';
    case 403:
      return 'PLATFORM_FORBIDDEN';
    case 404:
      return 'PLATFORM_NOT_FOUND';
    case 408:
    case 413:
      return 'REQUEST_TOO_LARGE';
    case 409:
      return 'PLATFORM_CONFLICT';
    case 429:
      return 'RATE_LIMITED';
    default:
      return status >= 400 && status < 500 ? 'PLATFORM_REJECTED' : 'PLATFORM_ERROR';
  }
}

/** The most of the platform's `Message` an error keeps (it may reach Notes and the journal). */
export const MAX_PLATFORM_MESSAGE_CHARS = 500;

function clipMessage(text: string): string {
  return text.length > MAX_PLATFORM_MESSAGE_CHARS
    ? `${text.slice(0, MAX_PLATFORM_MESSAGE_CHARS - 1)}…`
    : text;
}

/**
 * Builds the error for a non-2xx answer. For 403 the platform's message is meant for a human, so
 * it becomes `notes` as well (the receptionist reads it in Notes and on the status page), as the
 * platform wrote it: in the platform's language.
 */
export function platformError(failure: PlatformFailure): AgentError {
  const code = codeForStatus(failure.status);
  const said = clipMessage(redact(failure.message.trim(), failure.secrets));
  const details: Record<string, unknown> = { status: failure.status, operation: failure.operation };
  if (failure.requestId) details.requestId = failure.requestId;
  const message = `${failure.operation} answered HTTP ${failure.status}${said ? `: ${said}` : ''}`;
  return new AgentError(code, message, {
    details,
    ...(code === 'PLATFORM_FORBIDDEN' && said ? { notes: connectorMessages.platformSaid({ said }) } : {}),
  });
}

/**
 * `Retry-After` in ms: delta-seconds (the platform's form) or an HTTP date. Undefined when absent
 * or unreadable, so the caller falls back to its own backoff. Always a finite number of ms, at
 * most `Number.MAX_SAFE_INTEGER` (a 400-digit value must not read as "no Retry-After"); the rate
 * budget caps the wait it imposes (`maxRetryAfterSeconds`), not this parser.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(Number.MAX_SAFE_INTEGER, Math.round(Number(text) * 1000));
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, at - now));
}

/** Socket-level error codes that prove the request never reached the platform. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A failure below HTTP. `ABORTED` when the caller's signal fired, `PLATFORM_TIMEOUT` when our
 * own timeout did, `PLATFORM_UNREACHABLE` otherwise; `details.sent` is false when the connection
 * was refused, i.e. the platform surely did not act on the request.
 */
export function transportError(
  error: unknown,
  context: {
    operation: string;
    callerSignal?: AbortSignal;
    timeoutSignal: AbortSignal;
    timeoutMs: number;
    secrets: readonly string[];
  },
): AgentError {
  const { operation } = context;
  if (error instanceof AgentError) return error;
  if (context.callerSignal?.aborted) {
    return new AgentError('ABORTED', `${operation} was aborted`, { details: { operation }, cause: error });
  }
  if (context.timeoutSignal.aborted) {
    return new AgentError('PLATFORM_TIMEOUT', `${operation} got no answer within ${context.timeoutMs} ms`, {
      details: { operation, timeoutMs: context.timeoutMs },
      cause: error,
    });
  }
  const code = causeCode(error);
  const text = error instanceof Error ? error.message : String(error);
  const causeText = causeMessage(error);
  const details: Record<string, unknown> = { operation, status: 0 };
  if (code) details.errno = code;
  if (code && NOT_SENT.has(code)) details.sent = false;
  const message = redact(
    `${operation} could not reach the platform: ${text}${causeText ? ` (${causeText})` : ''}`,
    context.secrets,
  );
  return new AgentError('PLATFORM_UNREACHABLE', message, { details, cause: error });
}

function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function causeMessage(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return cause instanceof Error && cause.message ? cause.message : undefined;
}
