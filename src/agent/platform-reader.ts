import type { Clock } from '../clock.js';
import type { ConnectorApi } from '../connector/api.js';
import type { PlatformReader } from '../drivers-api/types.js';
import { isAgentError } from '../errors.js';
import type { Logger } from '../log.js';

const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 30_000;

/**
 * The read access drivers get: a bill's order items and payments, every page. A driver reads
 * these before its first side effect, so while the platform is unreachable (a retryable error)
 * the read waits and tries again — for as long as the job's signal allows — instead of failing a
 * receipt that only needs the platform back. Errors that are not retryable (401, 400 …) reject
 * at once.
 */
export function platformReader(connector: ConnectorApi, clock: Clock, log: Logger): PlatformReader {
  async function patiently<T>(what: string, read: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    let wait = FIRST_WAIT_MS;
    for (;;) {
      try {
        return await read();
      } catch (error) {
        if (!isAgentError(error) || !error.retryable || signal?.aborted) throw error;
        log.warn('platform unavailable while reading a bill; waiting for it', {
          what,
          code: error.code,
          waitMs: wait,
        });
        await clock.sleep(wait, signal);
        wait = Math.min(wait * 2, LONGEST_WAIT_MS);
      }
    }
  }
  const collect = async <T>(pages: AsyncIterable<T[]>): Promise<T[]> => {
    const out: T[] = [];
    for await (const page of pages) out.push(...page);
    return out;
  };
  return {
    orderItems: (billId, signal) =>
      patiently(
        'orderItems',
        () =>
          collect(
            connector.orderItems({ BillIds: [billId] }, { pageSize: 1000, ...(signal ? { signal } : {}) }),
          ),
        signal,
      ),
    payments: (billId, signal) =>
      patiently(
        'payments',
        () =>
          collect(
            connector.payments({ BillIds: [billId] }, { pageSize: 1000, ...(signal ? { signal } : {}) }),
          ),
        signal,
      ),
  };
}
