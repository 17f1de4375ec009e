import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';

/** One page as the pager needs to see it. */
export interface Page<T> {
  items: T[];
  /** Items the platform returned (before normalisation dropped or flagged any). */
  received: number;
  /** `Limitation.Count` of the request that produced this page. */
  requested: number;
  cursor?: string;
}

/** Mutable page size of one iteration: `shrink()` halves it after a REQUEST_TOO_LARGE. */
export class PageSize {
  constructor(public count: number) {}

  /** Halves the page size; false when it is already 1. */
  shrink(): boolean {
    if (this.count <= 1) return false;
    this.count = Math.max(1, Math.floor(this.count / 2));
    return true;
  }
}

export interface PaginateOptions {
  operation: string;
  pageSize: number;
  maxPages?: number;
  log: Logger;
}

/**
 * Follows the platform's cursor rules: the first request has no cursor (newest items first);
 * each response `Cursor` (the oldest item returned) is passed back for the next, older page.
 * Stops when the cursor is null/absent, a page is shorter than the Count that was asked for,
 * `maxPages` pages were read, or the platform hands back the cursor it was given (which would
 * loop forever). A halved page size stays halved for the rest of the iteration.
 *
 * `fetchPage` rejects with AgentErrors; the first rejection ends the iteration.
 */
export async function* paginate<T>(
  options: PaginateOptions,
  fetchPage: (cursor: string | undefined, size: PageSize) => Promise<Page<T>>,
): AsyncGenerator<T[], void, undefined> {
  if (options.maxPages !== undefined && !(Number.isInteger(options.maxPages) && options.maxPages >= 1)) {
    throw new AgentError('REQUEST_INVALID', `${options.operation}: maxPages must be a positive integer`, {
      details: { operation: options.operation },
    });
  }
  const size = new PageSize(options.pageSize);
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await fetchPage(cursor, size);
    yield result.items;
    if (!result.cursor || result.received < result.requested) return;
    if (result.cursor === cursor) {
      options.log.warn('platform returned the same cursor twice; stopping', {
        operation: options.operation,
        page,
      });
      return;
    }
    if (options.maxPages !== undefined && page >= options.maxPages) return;
    cursor = result.cursor;
  }
}
