import pRetry from 'p-retry';
import type { Clock } from '../clock.js';
import { AgentError, isAgentError, toAgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { type BackoffRange, equalJitterDelay, type RandomSource } from './backoff.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** Backoff between retries of platform faults (exponential, equal jitter). */
  delay: BackoffRange;
  random: RandomSource;
  clock: Clock;
  log: Logger;
}

export interface RetryCall {
  operation: string;
  signal?: AbortSignal;
  /** Whether this error may be retried for this operation (already known to be retryable). */
  retryOn: (error: AgentError) => boolean;
  /**
   * Makes the next attempt lighter after REQUEST_TOO_LARGE (halves a page or a batch). Returns
   * false when it cannot shrink further; a successful shrink is retried at once and does not
   * count against `retries`.
   */
  shrink?: () => boolean;
}

/**
 * Runs `attempt` with p-retry: only AgentErrors that are `retryable` and accepted by `retryOn`
 * are retried, at most `policy.retries` times. Waits go through the injected Clock (p-retry's own
 * timer is disabled): platform faults back off exponentially with jitter; a 429 does not sleep
 * here because the rate budget already holds the next attempt until `Retry-After` has passed.
 *
 * Rejects with the last AgentError, or ABORTED as soon as `signal` aborts (also mid-backoff).
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  call: RetryCall,
  attempt: () => Promise<T>,
): Promise<T> {
  const { operation, signal } = call;
  // p-retry's own count is unbounded: shrinking retries are free, the others are counted here.
  let retried = 0;
  try {
    return await pRetry(attempt, {
      retries: Number.POSITIVE_INFINITY,
      minTimeout: 0,
      factor: 1,
      ...(signal ? { signal } : {}),
      shouldRetry: async ({ error, attemptNumber }) => {
        if (!isAgentError(error) || !error.retryable || !call.retryOn(error)) return false;
        const log = {
          operation,
          code: error.code,
          status: error.details.status,
          requestId: error.details.requestId,
          attempt: attemptNumber,
        };
        if (error.code === 'REQUEST_TOO_LARGE' && call.shrink?.()) {
          policy.log.warn('connector request too heavy, retrying smaller', log);
          return true;
        }
        if (retried >= policy.retries) return false;
        const waitMs =
          error.code === 'RATE_LIMITED' ? 0 : equalJitterDelay(retried, policy.delay, policy.random);
        retried++;
        policy.log.warn('connector request failed, retrying', { ...log, waitMs });
        if (waitMs > 0) await policy.clock.sleep(waitMs, signal);
        return true;
      },
    });
  } catch (error) {
    if (signal?.aborted && !(isAgentError(error) && error.code === 'ABORTED')) {
      throw new AgentError('ABORTED', `${operation} was aborted`, { details: { operation }, cause: error });
    }
    throw toAgentError(error);
  }
}
