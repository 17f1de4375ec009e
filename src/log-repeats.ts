import { type Clock, systemClock } from './clock.js';

/**
 * The one brake on warnings that can come in floods — a refused connection, a failed login, a
 * journal that cannot be read — for `Logger.repeated` (log.ts). Per source (a warning and who or
 * what causes it), the first line of a quiet source is written at once; the ones that follow
 * within the window are counted, and when the window ends one line says how many there were. A
 * flood therefore writes one line per minute per source, whatever its rate: journald's rate limit
 * (10,000 lines per 30 s per service by default, journald.conf(5) `RateLimitBurst=`) never drops
 * the agent's other lines, the audit lines among them, because of it.
 *
 * The sources followed are bounded (`maxSources`): beyond them, new sources share one window, so
 * an attacker who varies its address cannot fill the agent's memory either.
 */

export interface RepeatOptions {
  clock?: Clock;
  /** The window: one line per source per window. Default 60 s. */
  windowMs?: number;
  /** Sources followed at once; more share the `OTHER` source. Default 256. */
  maxSources?: number;
}

/** What a window that counted repeats says when it ends. */
export interface RepeatSummary<T> {
  /** The source: the key noted, or `OTHER_SOURCES`. */
  key: string;
  /** Lines counted and not written in the window. */
  count: number;
  /** When the window began (epoch ms). */
  since: number;
  /** What the last counted line carried. */
  last: T;
}

/** The source that sources beyond `maxSources` share. */
export const OTHER_SOURCES = '(other sources)';

interface Window<T> {
  start: number;
  count: number;
  last: T;
  /** The window's end is awaited (a wake-up is scheduled). */
  waking: boolean;
}

export const DEFAULT_REPEAT_WINDOW_MS = 60_000;

export class RepeatWindows<T> {
  private readonly clock: Clock;
  private readonly windowMs: number;
  private readonly maxSources: number;
  private readonly windows = new Map<string, Window<T>>();

  /** `summarise` writes the line of a window that counted repeats, when it ends. */
  constructor(
    private readonly summarise: (summary: RepeatSummary<T>) => void,
    options: RepeatOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.windowMs = options.windowMs ?? DEFAULT_REPEAT_WINDOW_MS;
    this.maxSources = options.maxSources ?? 256;
  }

  /** Sources followed now (bounded by `maxSources` + 1). */
  get size(): number {
    return this.windows.size;
  }

  /**
   * One occurrence of `key` (a warning and its source). Returns the key to write it under — the
   * key itself, or `OTHER_SOURCES` when too many sources are followed — or undefined when it was
   * counted instead (its window's summary will tell).
   */
  note(key: string, line: T): string | undefined {
    const now = this.clock.now();
    let source = key;
    let window = this.windows.get(source);
    if (!window && this.windows.size >= this.maxSources) {
      this.forgetQuiet(now);
      if (this.windows.size >= this.maxSources) {
        source = OTHER_SOURCES;
        window = this.windows.get(source);
      }
    }
    if (!window || (!window.waking && now >= window.start + this.windowMs)) {
      this.windows.set(source, { start: now, count: 0, last: line, waking: false });
      return source;
    }
    window.count++;
    window.last = line;
    if (!window.waking) {
      window.waking = true;
      this.wakeAt(source, window, window.start + this.windowMs - now);
    }
    return undefined;
  }

  private wakeAt(source: string, window: Window<T>, ms: number): void {
    const wake = () => {
      if (this.windows.get(source) !== window) return;
      window.waking = false;
      if (window.count === 0) return;
      const summary = { key: source, count: window.count, since: window.start, last: window.last };
      // A flood that goes on is counted in a new window from here: one line per window.
      window.start = this.clock.now();
      window.count = 0;
      try {
        this.summarise(summary);
      } catch {
        // A summary line must not take the agent down.
      }
    };
    this.clock.sleep(Math.max(0, ms)).then(wake, () => undefined);
  }

  /** Drops the sources whose window ended without repeats. */
  private forgetQuiet(now: number): void {
    for (const [source, window] of this.windows) {
      if (!window.waking && now >= window.start + this.windowMs) this.windows.delete(source);
    }
  }
}
