/**
 * The one way a test waits for something that happens outside its own call stack (a socket, a
 * child process, a timer inside the code under test): poll `check` until it yields a value.
 *
 * - `check` returns the awaited value, or `undefined` / `false` / `null` while it is not there
 *   yet; a `check` that throws (an `expect` inside it, say) also means "not yet", and its error
 *   is kept as the last observation.
 * - On timeout it fails with `what` and the last observed value or error, so a failure says what
 *   was awaited and how far it got. `what` may be a function, evaluated only then, to describe
 *   the state at that moment.
 * - The timeout is a safety net against a hung test, never a measurement: it is generous (a slow
 *   but correct run on a loaded machine must never reach it). Assertions on *how long* something
 *   took do not belong in tests; wait on the event, or drive time with `ManualClock`.
 */

export interface EventuallyOptions {
  /** Give up after this long; default 60 s. */
  timeoutMs?: number;
  /** Pause between checks; default 10 ms. Raise it for expensive checks, never for correctness. */
  intervalMs?: number;
}

export const EVENTUALLY_TIMEOUT_MS = 60_000;

/** Why `eventually` gave up: carries what was awaited and what was last seen. */
export class EventuallyTimeout extends Error {
  constructor(
    readonly what: string,
    readonly last: unknown,
    readonly timeoutMs: number,
  ) {
    super(`gave up after ${timeoutMs} ms waiting for ${what}; last observed: ${describe(last)}`);
    this.name = 'EventuallyTimeout';
  }
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (value === undefined) return 'undefined';
  try {
    const text = JSON.stringify(value);
    return text.length > 500 ? `${text.slice(0, 500)}…` : text;
  } catch {
    return String(value);
  }
}

type Pending = undefined | false | null;

export async function eventually<T>(
  what: string | (() => string),
  check: () => T | Pending | Promise<T | Pending>,
  options: EventuallyOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? EVENTUALLY_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? 10;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false && value !== null) return value as T;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      throw new EventuallyTimeout(typeof what === 'function' ? what() : what, last, timeoutMs);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
