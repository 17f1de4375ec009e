import type { z } from 'zod';

/**
 * The agent's one wording of zod's complaints, for configuration errors, refused platform
 * payloads, the fake platform's admin routes and a device action's form: each issue as
 * `where: what`, where `where` is its path (`devices[1].options.path`, or the `root` label for
 * the value as a whole) and `what` zod's message. Never the offending value: a payload can hold
 * a guest's data or a token.
 */

export interface IssueFormat {
  /** Between two issues: a new line (the default) for a list, `'; '` for one line. */
  separator?: string;
  /** At most this many issues (all by default): a log line or an error message stays short. */
  limit?: number;
  /** Names the whole value when an issue has no path; `(root)` by default. */
  root?: string;
}

/** `devices[1].options.path`: keys joined by dots, array indexes in brackets. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, part) =>
      typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part),
    '',
  );
}

/** A log line's or an error message's form: the first five issues on one line. */
export const ONE_LINE: IssueFormat = { separator: '; ', limit: 5 };

/** The issues of `error` as text (one per line unless `format` says otherwise). */
export function formatIssues(error: z.ZodError, format: IssueFormat = {}): string {
  const { separator = '\n', limit = Number.POSITIVE_INFINITY, root = '(root)' } = format;
  return error.issues
    .slice(0, limit)
    .map((issue) => `${issuePath(issue.path) || root}: ${issue.message}`)
    .join(separator);
}
