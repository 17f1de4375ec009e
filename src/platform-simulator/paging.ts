import type { z } from 'zod';
import type { TimeInterval } from '../connector/wire.js';
import { rejection } from './commands.js';
import { type DocumentRules, LENIENT_RULES } from './document.js';

/**
 * The platform's paging and request-checking rules, shared by every list operation.
 */

/** What the document's rules say about pages (see `DocumentRules`). */
export type PageRules = Pick<DocumentRules, 'maxCount' | 'cursor'>;

/**
 * One page of `ordered` (newest first) after the filter. Without a cursor the page starts at the
 * newest item; with one it starts right after the item whose id is the cursor (its position in
 * the unfiltered order, so a cursor item that no longer matches still works). A page holds at most
 * `Count` items, capped at `rules.maxCount`. The response cursor is the id of the last item
 * returned — with `rules.cursor` `more-only` only when something older matches, else null. An
 * unknown cursor is refused (400).
 */
export function paginate<T extends { id: string }>(
  ordered: readonly T[],
  matches: (item: T) => boolean,
  limitation: { Count: number; Cursor?: string | null | undefined } | undefined,
  rules: PageRules = LENIENT_RULES,
): { items: T[]; cursor: string | null } {
  let start = 0;
  if (limitation?.Cursor) {
    const index = ordered.findIndex((item) => item.id === limitation.Cursor);
    if (index < 0) throw rejection(400, 'Invalid Cursor: no item with this id');
    start = index + 1;
  }
  const count = limitation ? Math.min(limitation.Count, rules.maxCount) : Number.POSITIVE_INFINITY;
  const items: T[] = [];
  let more = false;
  for (let i = start; i < ordered.length; i++) {
    const item = ordered[i] as T;
    if (!matches(item)) continue;
    if (items.length >= count) {
      more = true;
      break;
    }
    items.push(item);
  }
  const last = items[items.length - 1];
  if (!last) return { items, cursor: null };
  return { items, cursor: more || rules.cursor === 'last-item' ? last.id : null };
}

/** Half-open: start inclusive, end exclusive. */
export function inInterval(ms: number, interval: TimeInterval | undefined): boolean {
  if (!interval) return true;
  return ms >= Date.parse(interval.StartUtc) && ms < Date.parse(interval.EndUtc);
}

const TOKEN_FIELDS = new Set(['ClientToken', 'AccessToken', 'Client']);

/** The request body without the authentication fields. */
export function withoutTokens(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !TOKEN_FIELDS.has(key)));
}

/**
 * Validates a request body (minus tokens) with a wire schema. Rejects with 400
 * `Invalid <Field>: <why>`, naming the first offending top-level field.
 */
export function validate<S extends z.ZodType>(schema: S, body: Record<string, unknown>): z.infer<S> {
  const result = schema.safeParse(withoutTokens(body));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const keys = issue && 'keys' in issue && Array.isArray(issue.keys) ? (issue.keys as string[]) : [];
  const field = String(issue?.path[0] ?? keys[0] ?? 'request');
  const where = issue && issue.path.length > 1 ? ` (${issue.path.join('.')})` : '';
  const message = issue?.code === 'unrecognized_keys' ? 'unknown field' : (issue?.message ?? 'invalid');
  throw rejection(400, `Invalid ${field}: ${message}${where}`);
}
