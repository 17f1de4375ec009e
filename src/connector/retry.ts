import pRetry from 'p-retry';
import { type BackoffRange, equalJitterDelay, type RandomSource } from '../backoff.js';
import type { Clock } from '../clock.js';
import { AgentError, isAgentError, toAgentError } from '../errors.js';
import type { Logger } from '../log.js';

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
   * false when it cannot shrink further; a lighter request is sent at once and is not a retry.
   */
  shrink?: () => boolean;
}

/**
 * Runs one platform call with bounded retries (p-retry): only AgentErrors that are `retryable`
 * and accepted by `retryOn` are retried, at most `policy.retries` times. A REQUEST_TOO_LARGE that
 * `shrink` can answer is not a retry: the lighter request goes out at once within the same
 * attempt. The wait before a retry goes through the injected Clock (p-retry's own timer is off):
 * exponential with equal jitter after a platform fault, none after a 429, because the rate budget
 * already holds the next request until `Retry-After` has passed.
 *
 * Rejects with the last AgentError, or ABORTED as soon as `signal` aborts (also mid-backoff).
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  call: RetryCall,
  attempt: () => Promise<T>,
): Promise<T> {
  const { operation, signal } = call;
  let failure: AgentError | undefined;
  try {
    return await pRetry(
      async (attemptNumber) => {
        if (failure) await waitBeforeRetry(policy, call, failure, attemptNumber - 2);
        return shrinkingWhileTooLarge(policy, call, attempt);
      },
      {
        retries: policy.retries,
        minTimeout: 0,
        ...(signal ? { signal } : {}),
        onFailedAttempt: ({ error }) => {
          failure = toAgentError(error);
        },
        shouldRetry: ({ error }) => isAgentError(error) && error.retryable && call.retryOn(error),
      },
    );
  } catch (error) {
    if (signal?.aborted && !(isAgentError(error) && error.code === 'ABORTED')) {
      throw new AgentError('ABORTED', `${operation} was aborted`, { details: { operation }, cause: error });
    }
    throw toAgentError(error);
  }
}

/** Retry `retry` (0 for the first) of a call whose last attempt failed with `error`. */
async function waitBeforeRetry(
  policy: RetryPolicy,
  call: RetryCall,
  error: AgentError,
  retry: number,
): Promise<void> {
  const waitMs = error.code === 'RATE_LIMITED' ? 0 : equalJitterDelay(retry, policy.delay, policy.random);
  policy.log.warn('connector request failed, retrying', { ...callFields(call, error, retry + 1), waitMs });
  if (waitMs > 0) await policy.clock.sleep(waitMs, call.signal);
}

/** One attempt: the request, sent again lighter for as long as the platform finds it too heavy. */
async function shrinkingWhileTooLarge<T>(
  policy: RetryPolicy,
  call: RetryCall,
  attempt: () => Promise<T>,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const tooLarge = isAgentError(error) && error.code === 'REQUEST_TOO_LARGE' && call.retryOn(error);
      if (!tooLarge || !call.shrink?.()) throw error;
      policy.log.warn('connector request too heavy, retrying smaller', callFields(call, error, tries));
    }
  }
}

function callFields(call: RetryCall, error: AgentError, attempt: number) {
  return {
    operation: call.operation,
    code: error.code,
    status: error.details.status,
    requestId: error.details.requestId,
    attempt,
  };
}
