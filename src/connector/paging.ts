import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';

/** One page as the pager needs to see it. */
export interface Page<T> {
  items: T[];
  cursor?: string | undefined;
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
 * each response `Cursor` (the id of the last, oldest item returned) is passed back for the next,
 * older page. Paging goes on while the response `Cursor` is not null, whatever the page's size: a
 * platform may cap `Limitation.Count` (its upper bound is "not shown" in platform-interfaces.md,
 * Part B › Limits) or drop items after limiting, so a page shorter than the Count asked for (even
 * an empty one) does not mean the end. It stops when the cursor is null or absent, after
 * `maxPages` pages, or when the platform hands back a cursor it already gave in this iteration
 * (which would loop forever). A halved page size stays halved for the rest of the iteration.
 *
 * Callers that know what they are looking for (reads by id) stop early by leaving the loop.
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
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await fetchPage(cursor, size);
    yield result.items;
    if (!result.cursor) return;
    if (seen.has(result.cursor)) {
      options.log.warn('platform returned a cursor it already gave; stopping', {
        operation: options.operation,
        page,
      });
      return;
    }
    if (options.maxPages !== undefined && page >= options.maxPages) return;
    seen.add(result.cursor);
    cursor = result.cursor;
  }
}
