import { type BackoffRange, equalJitterDelay, type RandomSource } from '../backoff.js';
import { type Clock, systemClock } from '../clock.js';
import { AgentError } from '../errors.js';
import type { BudgetSnapshot, RequestPriority } from './api.js';
import type { RateBudgetStore, RateLimitReason, SavedRateBlock } from './budget-store.js';

/** The platform's limit as configured (`platform.rateLimit` in the agent config). */
export interface RateLimitOptions {
  /** Requests per window allowed on one access token (platform: 200). */
  requests: number;
  /** Window length in seconds (platform: 30, sliding). */
  windowSeconds: number;
  /** Fraction 0..<1 of the limit left for other software using the same token. */
  reserveShare: number;
  /**
   * The longest wait a 429 can impose, in seconds: a longer `Retry-After` is cut to this, then
   * one probe request goes out alone (default 300).
   */
  maxRetryAfterSeconds: number;
}

export const DEFAULT_RATE_LIMIT: Readonly<RateLimitOptions> = Object.freeze({
  requests: 200,
  windowSeconds: 30,
  reserveShare: 0,
  maxRetryAfterSeconds: 300,
});

export type { RateLimitReason } from './budget-store.js';

/** The platform's rate limiting as the budget lives it, for the status page, metrics and health. */
export interface RateLimitState {
  /** Epoch ms of the first 429 since the platform last answered anything else. */
  since: number;
  /** Epoch ms of the latest 429. */
  lastAt: number;
  /** 429 answers in a row. */
  count: number;
  /** What the latest 429 asked for (`Retry-After`), in ms; absent when it gave none. */
  askedMs?: number;
  /** How long the agent waits after it: `askedMs` capped, or its own backoff. */
  waitMs: number;
  /** `retry-after-capped` when the platform asked for longer than `maxRetryAfterSeconds`. */
  reason: RateLimitReason;
  /** Epoch ms until which nothing is sent; after a capped wait one probe then goes alone. */
  blockedUntil: number;
  /** True while that probe is out. */
  probing: boolean;
}

export interface RateBudgetOptions extends Partial<RateLimitOptions> {
  clock?: Clock;
  random?: RandomSource;
  /** Backoff after a 429 without `Retry-After` (default 1 s doubling to 60 s, with jitter). */
  penalty?: BackoffRange;
  /**
   * Keeps the window's slots and a running block across restarts (the journal): the budget
   * starts from what the last process left (see `RateBudgetStore`).
   */
  store?: RateBudgetStore;
}

const RANK: Record<RequestPriority, number> = { result: 0, normal: 1, discovery: 2 };

/** A granted request's place in the window; `probe` marks the one request after a capped wait. */
interface Slot {
  at: number;
  probe?: boolean;
  /** Its key in the store, when there is one. */
  key?: number;
}

interface Waiter {
  rank: number;
  seq: number;
  /** A discovery request that may spend only the surplus over known work … */
  surplusOnly: boolean;
  /** … until this time (epoch ms): then it goes as any other. */
  until: number;
  resolve: (settle: () => void) => void;
  detach: () => void;
}

export interface AcquireOptions {
  /**
   * A further page of a listing already begun: it is not held back for the known work's
   * reservation (the listing's first page was).
   */
  continuation?: boolean;
}

/**
 * Client-side sliding-window budget for one access token, shared by every caller using that
 * token, so the agent never sends a request it knows would earn a 429.
 *
 * - A request counts from the moment `acquire` grants it; when the caller settles it (its answer
 *   came back), it counts again from that moment until `windowMs` later. The platform counts a
 *   request when it arrives, which is never after the answer left: counting from the answer keeps
 *   the client's window at least as full as the platform's, so a saturated client earns no 429.
 * - This agent's share is `floor(requests × (1 − reserveShare))` (at least 1).
 * - Waiters are served strictly by priority (`result` > `normal` > `discovery`), FIFO within one
 *   priority: a later `result` overtakes an earlier `discovery`, never the other way round.
 * - **Known work is reserved for.** Whoever knows of work still to send (the engine: the updates
 *   every queued or running command still needs) declares it with `reserve(demand)`. A
 *   `discovery` request (a poll, a catch-up, a fetch of announced commands) spends only the
 *   surplus: it goes when the window's requests plus that demand leave room under the limit, or
 *   once it has waited one window (so under a long backlog discovery slows to about one request
 *   per window instead of stopping). A slot a poll takes now is a slot the backlog lacks for a
 *   whole window; this keeps polls from pushing the known work into a later window. The further
 *   pages of a listing already begun (`continuation`) are not held back.
 * - `blockFor(ms)` holds every waiter until the block has passed.
 * - A 429 (`noteRateLimited`) blocks for its `Retry-After`, never longer than
 *   `maxRetryAfterSeconds` (one `Retry-After: 86400` must not silence the agent for a day). When
 *   the wait was cut short that way, exactly one request goes out after it, the probe, and the
 *   others wait for its answer: any answer but a 429 (`noteAccepted`) lets them go; another 429
 *   blocks again (capped); a probe that got no answer at all (a network failure) hands the probe
 *   to the next waiter. A wait the agent did not cut short ends as before, everyone at once. The
 *   caller reports the answer (`noteAccepted` / `noteRateLimited`) right after settling the slot,
 *   in the same synchronous step, as `exchange.ts` does.
 *
 * - **It survives a restart** (issue 26.1). With a `store` (the journal), every granted slot is
 *   committed before its request may leave, and its answer's time when it comes; a 429's block
 *   too. A new process starts from them (`RateBudgetStore.load`): the slots still in the window
 *   count (one the old process never saw answered counts from the start), a running
 *   `Retry-After` still blocks, a capped wait still ends with one probe. So a crash loop of any
 *   speed never sends more than the window allows, and nothing inside a `Retry-After`; the new
 *   process's catch-ups wait their turn in that window like any discovery.
 *
 * Time comes only from the injected Clock, so the budget runs on a ManualClock in tests.
 */
export class RateBudget {
  readonly limit: number;
  readonly windowMs: number;
  private readonly clock: Clock;
  private readonly random: RandomSource;
  private readonly penalty: BackoffRange;
  readonly maxBlockMs: number;
  /** Slots inside the window, by the time they count from, oldest first. */
  private stamps: Slot[] = [];
  private waiters: Waiter[] = [];
  private blockedUntil = 0;
  private consecutiveLimited = 0;
  private limited: Omit<RateLimitState, 'blockedUntil' | 'probing'> | undefined;
  /** After a capped wait: `due` until the probe is granted, `out` while it is in flight. */
  private probe: 'off' | 'due' | 'out' = 'off';
  private seq = 0;
  private timer: { at: number; cancel: AbortController } | undefined;
  private readonly demands = new Set<() => number>();
  private readonly store: RateBudgetStore | undefined;

  constructor(options: RateBudgetOptions = {}) {
    const requests = options.requests ?? DEFAULT_RATE_LIMIT.requests;
    const windowSeconds = options.windowSeconds ?? DEFAULT_RATE_LIMIT.windowSeconds;
    const reserveShare = options.reserveShare ?? DEFAULT_RATE_LIMIT.reserveShare;
    const maxRetryAfterSeconds = options.maxRetryAfterSeconds ?? DEFAULT_RATE_LIMIT.maxRetryAfterSeconds;
    if (!Number.isInteger(requests) || requests < 1) {
      throw new AgentError(
        'CONFIG_INVALID',
        `rateLimit.requests must be a positive integer, got ${requests}`,
      );
    }
    if (!(windowSeconds > 0)) {
      throw new AgentError(
        'CONFIG_INVALID',
        `rateLimit.windowSeconds must be positive, got ${windowSeconds}`,
      );
    }
    if (!(reserveShare >= 0 && reserveShare < 1)) {
      throw new AgentError('CONFIG_INVALID', `rateLimit.reserveShare must be in [0, 1), got ${reserveShare}`);
    }
    if (!(maxRetryAfterSeconds > 0 && Number.isFinite(maxRetryAfterSeconds))) {
      throw new AgentError(
        'CONFIG_INVALID',
        `rateLimit.maxRetryAfterSeconds must be positive, got ${maxRetryAfterSeconds}`,
      );
    }
    this.maxBlockMs = Math.round(maxRetryAfterSeconds * 1000);
    // The epsilon keeps 200 × 0.9 = 179.99999999999997 from flooring to 179.
    this.limit = Math.max(1, Math.floor(requests * (1 - reserveShare) + 1e-9));
    this.windowMs = Math.round(windowSeconds * 1000);
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.penalty = options.penalty ?? { minMs: 1000, maxMs: 60_000 };
    this.store = options.store;
    this.restore();
  }

  /** Starts from what the last process left in the store (see `RateBudgetStore.load`). */
  private restore(): void {
    const saved = this.persist(() => this.store?.load(this.clock.now(), this.windowMs));
    if (!saved) return;
    this.stamps = saved.slots.map((at) => ({ at }));
    const block = saved.block;
    // A wait that ended while no process ran is over, unless its probe is still to go.
    if (!block || (block.until <= this.clock.now() && !block.probe)) return;
    this.blockedUntil = block.until;
    this.consecutiveLimited = block.count;
    this.probe = block.probe ? 'due' : 'off';
    this.limited = {
      since: block.since,
      lastAt: block.lastAt,
      count: block.count,
      ...(block.askedMs !== undefined ? { askedMs: block.askedMs } : {}),
      waitMs: block.waitMs,
      reason: block.reason,
    };
  }

  /** A store call: its failure leaves the budget working in memory. */
  private persist<T>(fn: () => T): T | undefined {
    if (!this.store) return undefined;
    try {
      return fn();
    } catch {
      // The journal reports its own failures (the page's journal health); the budget goes on.
      return undefined;
    }
  }

  /** Saves the current block (after a 429) or its end. */
  private saveBlock(): void {
    const limited = this.limited;
    const block: SavedRateBlock | undefined = limited
      ? { ...limited, until: this.blockedUntil, probe: this.probe !== 'off' }
      : undefined;
    this.persist(() => this.store?.blocked(block));
  }

  /**
   * Resolves once one request may be sent, counting it in the window, to a function the caller
   * calls when the request's answer (or failure) came back: the slot then counts from that moment.
   * Resolves at once when nobody waits and the window has room. Rejects with the signal's reason if
   * `signal` aborts first; an aborted waiter consumes nothing.
   */
  acquire(
    priority: RequestPriority = 'normal',
    signal?: AbortSignal,
    options: AcquireOptions = {},
  ): Promise<() => void> {
    return new Promise<() => void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal?.reason);
        this.pump();
      };
      const waiter: Waiter = {
        rank: RANK[priority],
        seq: this.seq++,
        surplusOnly: priority === 'discovery' && options.continuation !== true,
        until: this.clock.now() + this.windowMs,
        resolve,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const at = this.waiters.findIndex((w) => w.rank > waiter.rank);
      if (at === -1) this.waiters.push(waiter);
      else this.waiters.splice(at, 0, waiter);
      this.pump();
    });
  }

  /**
   * Declares known work: `demand()` is how many requests it still needs (read when a discovery
   * request waits; must be cheap and must not throw). Returns a function that withdraws it.
   */
  reserve(demand: () => number): () => void {
    this.demands.add(demand);
    return () => {
      this.demands.delete(demand);
      this.pump();
    };
  }

  /** Requests the declared known work still needs. */
  reserved(): number {
    let total = 0;
    for (const demand of this.demands) {
      const n = demand();
      if (Number.isFinite(n) && n > 0) total += n;
    }
    return total;
  }

  /** Sends nothing on this budget for `ms` from now (extends, never shortens, a current block). */
  blockFor(ms: number): void {
    const until = this.clock.now() + Math.max(0, ms);
    if (until > this.blockedUntil) this.blockedUntil = until;
    this.pump();
  }

  /**
   * Records a 429. With `retryAfterMs` (the platform's `Retry-After`) the budget blocks that long
   * but at most `maxRetryAfterSeconds`; without it, for an exponentially growing, jittered delay
   * (also capped) that resets on the next accepted request. After a wait cut short by the cap one
   * probe goes first (see the class comment). Returns the block length in ms.
   */
  noteRateLimited(retryAfterMs?: number): number {
    const now = this.clock.now();
    const asked =
      retryAfterMs === undefined || Number.isNaN(retryAfterMs) ? undefined : Math.max(0, retryAfterMs);
    const wanted = asked ?? equalJitterDelay(this.consecutiveLimited, this.penalty, this.random);
    const ms = Math.min(wanted, this.maxBlockMs);
    this.consecutiveLimited++;
    this.limited = {
      since: this.limited?.since ?? now,
      lastAt: now,
      count: this.consecutiveLimited,
      ...(asked !== undefined ? { askedMs: asked } : {}),
      waitMs: ms,
      reason: asked === undefined ? 'backoff' : asked > ms ? 'retry-after-capped' : 'retry-after',
    };
    this.probe = ms < wanted ? 'due' : 'off';
    const until = now + ms;
    if (until > this.blockedUntil) this.blockedUntil = until;
    this.saveBlock();
    this.pump();
    return ms;
  }

  /**
   * Records a response that was not a 429: the next 429 backoff starts small again, and after a
   * 429 the waiters held behind the probe go. `sentAt` is when its request left: an answer to a
   * request that left before the last 429 arrived was on the wire then, and says nothing about
   * the wait: it changes nothing (it used to end the journaled block, so a restart inside a
   * `Retry-After` sent at once; bench/crash-loop.ts found it).
   */
  noteAccepted(sentAt?: number): void {
    if (this.limited && sentAt !== undefined && sentAt <= this.limited.lastAt) return;
    this.consecutiveLimited = 0;
    if (this.limited) {
      this.limited = undefined;
      this.saveBlock();
    }
    if (this.probe !== 'off') {
      this.probe = 'off';
      this.pump();
    }
  }

  /** The current rate limiting: since the first 429 until the platform accepts a request again. */
  rateLimitState(): RateLimitState | undefined {
    if (!this.limited) return undefined;
    return { ...this.limited, blockedUntil: this.blockedUntil, probing: this.probe === 'out' };
  }

  snapshot(): BudgetSnapshot {
    const now = this.clock.now();
    this.prune(now);
    const out: BudgetSnapshot = {
      used: this.stamps.length,
      limit: this.limit,
      windowMs: this.windowMs,
      waiting: this.waiters.length,
    };
    if (this.blockedUntil > now) out.blockedUntil = this.blockedUntil;
    return out;
  }

  /** The answer came back: the slot counts from now (it moves to the young end of the window). */
  private settle(slot: Slot): void {
    if (slot.probe) {
      slot.probe = false;
      if (this.probe === 'out') {
        // Unless the caller reports a 429 or another answer right now (same synchronous step),
        // the probe got no answer: the next waiter probes.
        this.probe = 'due';
        queueMicrotask(() => this.pump());
      }
    }
    const index = this.stamps.indexOf(slot);
    if (index === -1) return;
    this.stamps.splice(index, 1);
    slot.at = Math.max(slot.at, this.clock.now());
    this.stamps.push(slot);
    const { key } = slot;
    if (key !== undefined) this.persist(() => this.store?.settled(key, slot.at));
  }

  private prune(now: number): void {
    let drop = 0;
    while (drop < this.stamps.length && (this.stamps[drop] as Slot).at + this.windowMs <= now) drop++;
    if (drop > 0) this.stamps.splice(0, drop);
  }

  /** Grants as many head waiters as the window allows, then sleeps until the next chance. */
  private pump(): void {
    const now = this.clock.now();
    this.prune(now);
    while (this.waiters.length > 0) {
      if (now < this.blockedUntil) {
        this.wakeAt(this.blockedUntil);
        return;
      }
      // The probe after a capped wait is out: everyone else waits for its answer (noteAccepted).
      if (this.probe === 'out') break;
      if (this.stamps.length >= this.limit) {
        const oldest = this.stamps[this.stamps.length - this.limit] as Slot;
        this.wakeAt(oldest.at + this.windowMs);
        return;
      }
      const index = this.eligible(now);
      if (index === -1) {
        // Only discovery waits, and known work needs every slot: try again when one frees or
        // when the first waiter has waited a window.
        const head = this.waiters[0] as Waiter;
        const frees = (this.stamps[0] as Slot | undefined)?.at;
        this.wakeAt(Math.min(head.until, frees === undefined ? head.until : frees + this.windowMs));
        return;
      }
      const [waiter] = this.waiters.splice(index, 1) as [Waiter];
      waiter.detach();
      const slot: Slot = { at: now };
      // Committed before the request may leave: a process killed right after still counts it.
      const key = this.persist(() => this.store?.granted(now, this.windowMs));
      if (key !== undefined) slot.key = key;
      if (this.probe === 'due') {
        this.probe = 'out';
        slot.probe = true;
      }
      this.stamps.push(slot);
      waiter.resolve(() => this.settle(slot));
    }
    this.cancelTimer();
  }

  /**
   * The waiter to grant now: the first one, unless it is discovery held back for known work;
   * then a discovery waiter that is not (a continuation, or one that waited a window), or the
   * first one when the window leaves a surplus. -1 when none may go.
   */
  private eligible(now: number): number {
    const head = this.waiters[0] as Waiter;
    if (!head.surplusOnly || now >= head.until) return 0;
    // Waiters are ordered by priority: from here on every one is discovery.
    const free = this.waiters.findIndex((w) => !w.surplusOnly || now >= w.until);
    if (free !== -1) return free;
    return this.limit - this.stamps.length - this.reserved() > 0 ? 0 : -1;
  }

  private wakeAt(at: number): void {
    if (this.timer?.at === at) return;
    this.cancelTimer();
    const cancel = new AbortController();
    this.timer = { at, cancel };
    this.clock.sleep(at - this.clock.now(), cancel.signal).then(
      () => {
        if (this.timer?.cancel !== cancel) return;
        this.timer = undefined;
        this.pump();
      },
      () => {
        // Cancelled: a newer wake-up replaced this one.
      },
    );
  }

  private cancelTimer(): void {
    this.timer?.cancel.abort();
    this.timer = undefined;
  }
}
