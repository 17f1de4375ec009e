import type { z } from 'zod';
import type { Clock } from '../clock.js';
import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { linkSignals } from '../signals.js';
import { formatIssues, ONE_LINE } from '../zod-issues.js';
import type { RefusedItems, RequestPriority, RequestRecord } from './api.js';
import type { DocumentSpool } from './document-spool.js';
import { parseRetryAfter, platformError, transportError } from './http-errors.js';
import type { FetchLike, HttpAnswer } from './http-transport.js';
import type { RateBudget } from './rate-budget.js';
import { ErrorBodySchema, type Tokens } from './wire.js';

/** The transport the client uses (`http-transport.ts`); inject a double in tests. */
export type { FetchLike } from './http-transport.js';

/** Everything one HTTP exchange needs; built once per client. */
export interface ExchangeContext {
  baseUrl: string;
  tokens: Tokens;
  fetch: FetchLike;
  clock: Clock;
  log: Logger;
  budget: RateBudget;
  requestTimeoutMs: number;
  onRequest?: (record: RequestRecord) => void;
  /** Told of every item the agent refused unread (a page over its bound); must not throw. */
  onRefusedItems?: (refused: RefusedItems) => void;
}

export interface ExchangeRequest<S extends z.ZodType> {
  /** `group/operation`, exact case, e.g. `fiscalMachineCommands/getAll`. */
  operation: string;
  /** The operation's own fields (already validated); tokens and Client are added here. */
  body: Record<string, unknown>;
  /** The response schema; unknown fields are tolerated by the schemas of `wire.ts`. */
  response: S;
  priority: RequestPriority;
  /** A further page of a listing already begun (see `RateBudget.acquire`). */
  continuation?: boolean;
  signal?: AbortSignal;
  /** Takes print documents out of the answer as it arrives (`document-spool.ts`); reset per attempt. */
  spool?: DocumentSpool;
  /**
   * The most items the answer's list `key` may hold: the `Limitation.Count` asked, the ids asked,
   * or an operation's documented bound. A longer list is refused before anything reads its
   * items (issue 40, M4: a page of 400,000 empty items exhausted the heap).
   */
  itemBound?: { key: string; max: number };
}

/**
 * One attempt of one operation: waits for the rate budget, POSTs the body with a timeout, maps a
 * non-2xx answer to its AgentError (a 429 also blocks the budget for `Retry-After`), and
 * validates a 2xx body with `response`. No retries here (see `retry.ts`).
 *
 * Rejects with: ABORTED (caller's signal), PLATFORM_TIMEOUT, PLATFORM_UNREACHABLE, the status
 * codes of `http-errors.ts`, RESPONSE_INVALID (2xx body not JSON or not matching the schema).
 * Never puts a token into an error or a log line.
 */
export async function exchange<S extends z.ZodType>(
  ctx: ExchangeContext,
  request: ExchangeRequest<S>,
): Promise<z.output<S>> {
  const { operation, signal } = request;
  const secrets = [ctx.tokens.ClientToken, ctx.tokens.AccessToken];
  const waitStart = ctx.clock.now();
  let settleSlot: () => void;
  try {
    settleSlot = await ctx.budget.acquire(request.priority, signal, {
      continuation: request.continuation === true,
    });
  } catch (error) {
    throw new AgentError('ABORTED', `${operation} was aborted while waiting for the rate budget`, {
      details: { operation },
      cause: error,
    });
  }
  const sentAt = ctx.clock.now();
  const budgetWaitMs = sentAt - waitStart;
  const timeoutSignal = AbortSignal.timeout(ctx.requestTimeoutMs);
  // Not AbortSignal.any: the caller's signal lives long (see src/signals.ts).
  const { signal: combined, unlink } = linkSignals(timeoutSignal, signal);
  const failureContext = {
    operation,
    timeoutSignal,
    timeoutMs: ctx.requestTimeoutMs,
    secrets,
    ...(signal ? { callerSignal: signal } : {}),
  };

  let status = 0;
  let retryAfterMs: number | undefined;
  let requestId: string | undefined;
  let date: string | undefined;
  const finish = (error?: AgentError) => {
    const record: RequestRecord = { operation, status, durationMs: ctx.clock.now() - sentAt, budgetWaitMs };
    if (requestId) record.requestId = requestId;
    if (date) record.date = date;
    if (error) record.errorCode = error.code;
    ctx.log.debug('connector exchange', { ...record });
    try {
      ctx.onRequest?.(record);
    } catch {
      // A metrics hook must not change the outcome of a request.
    }
  };

  let text: string;
  let response: HttpAnswer;
  request.spool?.reset();
  try {
    response = await ctx.fetch(`${ctx.baseUrl}/api/connector/v1/${operation}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ ...ctx.tokens, ...request.body }),
      signal: combined,
      ...(request.spool ? { answerFilter: request.spool.filter } : {}),
    });
    status = response.status;
    // A 429 blocks the budget the moment its status line is here, not once its body is read:
    // no request leaves after it (those already on the wire could not be held).
    if (status === 429) {
      retryAfterMs = ctx.budget.noteRateLimited(
        parseRetryAfter(response.headers.get('Retry-After'), ctx.clock.now()),
      );
    }
    requestId = response.headers.get('Request-Id') ?? undefined;
    date = response.headers.get('Date') ?? undefined;
    text = await response.text();
  } catch (error) {
    const failure = transportError(error, failureContext);
    finish(failure);
    throw failure;
  } finally {
    // The platform counted this request on arrival, at the latest now: from here the slot counts.
    settleSlot();
    unlink();
  }

  const json = parseJson(text);
  if (!response.ok) {
    const body = ErrorBodySchema.safeParse(json.ok ? json.value : {});
    requestId ??= body.success ? body.data.RequestId : undefined;
    const failure = platformError({
      operation,
      status,
      message: body.success && body.data.Message ? body.data.Message : response.statusText,
      secrets,
      ...(requestId ? { requestId } : {}),
    });
    if (status === 429) {
      failure.details.retryAfterMs = retryAfterMs;
    } else {
      ctx.budget.noteAccepted(sentAt);
    }
    finish(failure);
    throw failure;
  }

  ctx.budget.noteAccepted(sentAt);
  const details: Record<string, unknown> = { operation, status };
  if (requestId) details.requestId = requestId;
  if (!json.ok) {
    const failure = new AgentError('RESPONSE_INVALID', `${operation} answered with a body that is not JSON`, {
      details,
    });
    finish(failure);
    throw failure;
  }
  const overBound = itemsOverBound(json.value, request.itemBound);
  if (overBound !== undefined) {
    const max = request.itemBound?.max ?? 0;
    const failure = new AgentError(
      'RESPONSE_INVALID',
      `${operation} answered ${overBound} items where at most ${max} may come; the page was refused unread`,
      { details: { ...details, items: overBound, max } },
    );
    finish(failure);
    try {
      ctx.onRefusedItems?.({ operation, reason: 'over-bound', items: overBound });
    } catch {
      // A counter must not change the outcome of a request.
    }
    throw failure;
  }
  const parsed = request.response.safeParse(json.value);
  if (!parsed.success) {
    const issues = formatIssues(parsed.error, ONE_LINE);
    const failure = new AgentError(
      'RESPONSE_INVALID',
      `${operation} answered with an unexpected body: ${issues}`,
      {
        details,
      },
    );
    finish(failure);
    throw failure;
  }
  finish();
  return parsed.data;
}

/** The length of the answer's list when it exceeds `bound`; undefined otherwise. */
function itemsOverBound(value: unknown, bound: ExchangeRequest<z.ZodType>['itemBound']): number | undefined {
  if (!bound || value === null || typeof value !== 'object') return undefined;
  const list = (value as Record<string, unknown>)[bound.key];
  return Array.isArray(list) && list.length > bound.max ? list.length : undefined;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
