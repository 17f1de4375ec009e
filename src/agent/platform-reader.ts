import { Backoff, type BackoffRange } from '../backoff.js';
import type { Clock } from '../clock.js';
import type { ConnectorApi } from '../connector/api.js';
import type { PlatformReader } from '../drivers-api/types.js';
import { isAgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { pollUntil } from '../periodic.js';

/** A read without a job's signal is never stopped from outside. */
const NEVER = new AbortController().signal;

/** The wait between two tries while the platform is unreachable. */
const WAIT: BackoffRange = { minMs: 1000, maxMs: 30_000 };

/**
 * The read access drivers get: a bill's order items and payments, every page. A driver reads
 * these before its first side effect, so while the platform is unreachable (a retryable error)
 * the read waits and tries again — for as long as the job's signal allows — instead of failing a
 * receipt that only needs the platform back. Errors that are not retryable (401, 400 …) reject
 * at once.
 */
export function platformReader(connector: ConnectorApi, clock: Clock, log: Logger): PlatformReader {
  /** Every page of one bill's `what`, read again after each retryable failure. */
  async function billLines<T>(
    what: 'orderItems' | 'payments',
    billId: string,
    signal: AbortSignal | undefined,
  ): Promise<T[]> {
    const wait = new Backoff(WAIT);
    let waitMs = 0;
    /** One read of every page; undefined after a retryable failure, which `waitMs` then waits out. */
    const attempt = async (): Promise<T[] | undefined> => {
      try {
        const out: T[] = [];
        const pages = connector[what](
          { BillIds: [billId] },
          { pageSize: 1000, ...(signal ? { signal } : {}) },
        );
        for await (const page of pages as AsyncIterable<T[]>) out.push(...page);
        return out;
      } catch (error) {
        if (!isAgentError(error) || !error.retryable || signal?.aborted) throw error;
        waitMs = wait.next();
        log.warn('platform unavailable while reading a bill; waiting for it', {
          what,
          code: error.code,
          waitMs,
        });
        return undefined;
      }
    };
    // The first read goes even for an aborted job, so it fails with what the platform said.
    return (
      (await attempt()) ??
      pollUntil(attempt, {
        clock,
        signal: signal ?? NEVER,
        intervalMs: () => waitMs,
        firstRun: 'after-interval',
      })
    );
  }
  return {
    orderItems: (billId, signal) => billLines('orderItems', billId, signal),
    payments: (billId, signal) => billLines('payments', billId, signal),
  };
}
