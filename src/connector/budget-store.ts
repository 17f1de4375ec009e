/**
 * Where the rate budget keeps what must outlive the process (issue 26.1): a crash loop under
 * systemd restarts the agent within a second, and a budget that starts empty each time sends a
 * window's worth of requests per start and the next one right into a running `Retry-After`. The
 * journal implements it (`src/commands/journal/rate-budget-table.ts`); a client without one (the
 * command line's one-shot reads) keeps its budget in memory only.
 *
 * Every method is synchronous and returns once the change is committed (the journal's WAL: it
 * survives a killed process; a power cut also costs the process, and the platform's window is
 * gone long before the machine is back). A store that throws is not fatal to the budget: it goes
 * on in memory (the journal's own failure is reported where every journal failure is).
 */
export interface RateBudgetStore {
  /**
   * What an earlier process left, as of `now`: the slots still inside the window and the block
   * after a 429, if it still runs. A slot whose answer the earlier process never saw (it died with
   * the request on the wire) counts from `now`: the platform counted it at its arrival, which was
   * before the process died, so before now. Drops whatever the window has left behind.
   */
  load(now: number, windowMs: number): SavedRateBudget;
  /** A slot was granted at `at`; returns its key. Drops slots older than `at - windowMs`. */
  granted(at: number, windowMs: number): number;
  /** The slot's answer came back at `at`: it counts from then. */
  settled(key: number, at: number): void;
  /** The block after a 429 (or none: the platform accepted a request again). */
  blocked(block: SavedRateBlock | undefined): void;
}

export interface SavedRateBudget {
  /** Times the window's slots count from, oldest first. */
  slots: number[];
  block?: SavedRateBlock;
}

/** A running `Retry-After` (or backoff, or capped wait) and what the page shows of it. */
export interface SavedRateBlock {
  /** Epoch ms until which nothing is sent. */
  until: number;
  /** After a capped wait: one probe goes alone first. */
  probe: boolean;
  /** 429 answers in a row. */
  count: number;
  since: number;
  lastAt: number;
  askedMs?: number;
  waitMs: number;
  reason: RateLimitReason;
}

/** Why the budget holds every request after a 429. */
export type RateLimitReason = 'retry-after' | 'retry-after-capped' | 'backoff';
