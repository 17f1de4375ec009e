import type { z } from 'zod';
import { AgentError, isAgentError } from '../errors.js';
import { formatIssues, ONE_LINE } from '../zod-issues.js';
import type { PageSize } from './paging.js';

/** What the client needs to know about one platform operation. */
export interface OperationSpec {
  /** `group/operation`, exact case. */
  path: string;
  /** Repeating it after an unclear failure does no harm. */
  idempotent: boolean;
  /** A 409 is answered by reading again, i.e. by repeating the same request. */
  rereadOnConflict: boolean;
}

const read = (path: string): OperationSpec => ({ path, idempotent: true, rereadOnConflict: true });

export const OPERATIONS = {
  fiscalCommands: read('fiscalMachineCommands/getAll'),
  activeCommands: read('commands/getAllActive'),
  commandsByIds: read('commands/getAllByIds'),
  devices: read('devices/getAll'),
  orderItems: read('orderItems/getAll'),
  payments: read('payments/getAll'),
  /** Setting a state twice is harmless; a 409 needs the caller to re-read first. */
  updateCommand: { path: 'commands/update', idempotent: true, rereadOnConflict: false },
  /** Not idempotent: a blind repeat could cut a second set of keys. */
  addKeyCutter: { path: 'commands/addKeyCutter', idempotent: false, rereadOnConflict: false },
} as const satisfies Record<string, OperationSpec>;

export const MAX_IDS_PER_REQUEST = 1000;
export const DEFAULT_PAGE_SIZE = 100;

/** True for an AgentError that proves the platform never acted on the request. */
export function provablyNotProcessed(error: unknown): boolean {
  return isAgentError(error) && (error.code === 'RATE_LIMITED' || error.details.sent === false);
}

/**
 * Which retryable errors the client repeats on its own: never a non-idempotent request unless
 * the platform provably did not act on it (429, connection refused); a 409 only for reads.
 */
export function retryAllowed(spec: OperationSpec, error: AgentError): boolean {
  if (error.code === 'PLATFORM_CONFLICT') return spec.rereadOnConflict;
  return spec.idempotent || provablyNotProcessed(error);
}

/** Validates a request body against its schema; throws REQUEST_INVALID (nothing is sent). */
export function validateRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  operation: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new AgentError(
    'REQUEST_INVALID',
    `${operation} request outside the documented limits: ${formatIssues(parsed.error, ONE_LINE)}`,
    { details: { operation } },
  );
}

export function limitation(size: PageSize, cursor: string | undefined): { Count: number; Cursor?: string } {
  return cursor ? { Count: size.count, Cursor: cursor } : { Count: size.count };
}
