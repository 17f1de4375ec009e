import type { NormalizedItem } from './model.js';
import type {
  AddKeyCutterRequest,
  CommandUpdateRequest,
  FiscalCommandsFilter,
  OrderItemsFilter,
  PaymentsFilter,
  WireDevice,
  WireOrderItem,
  WirePayment,
} from './wire.js';

/**
 * The Connector API as the rest of the agent sees it. Implemented by `ConnectorClient`
 * (`client.ts`); the core depends on this interface only, so tests can hand it a double.
 *
 * Every method: validates its request against the documented limits first (a violation rejects
 * with `REQUEST_INVALID` and nothing is sent); waits for the shared rate budget; retries
 * retryable failures; rejects with an `AgentError` (codes in `errors.ts`) otherwise.
 */
export interface ConnectorApi {
  /**
   * `fiscalMachineCommands/getAll`, following the cursor: yields one page of normalised items at
   * a time, newest first. `Limitation` is added by the client (`pageSize`, default 100).
   */
  fiscalCommands(
    filter: DistributiveOmit<FiscalCommandsFilter, 'Limitation'>,
    options?: FiscalPagedOptions,
  ): AsyncIterable<NormalizedItem[]>;
  /** `commands/getAllActive`: Pending and Received commands, each normalised. */
  activeCommands(options?: RequestOptions): Promise<NormalizedItem[]>;
  /** `commands/getAllByIds`, batched by 1000 ids. Only active commands come back. */
  commandsByIds(ids: readonly string[], options?: RequestOptions): Promise<NormalizedItem[]>;
  /** `commands/addKeyCutter`; resolves to the new command id. */
  addKeyCutter(request: AddKeyCutterRequest, options?: RequestOptions): Promise<string>;
  /** `commands/update`. Progress is a fraction 0..1 (see `progressToWire`). */
  updateCommand(update: CommandUpdateRequest, options?: RequestOptions): Promise<void>;
  /** `devices/getAll`. */
  devices(options?: RequestOptions): Promise<WireDevice[]>;
  /**
   * Declares known work to the rate budget: `demand()` requests still to send. Discovery requests
   * then spend only the surplus over it (see `RateBudget`). Returns a function that withdraws it.
   * Optional: a client without a budget of its own ignores it.
   */
  reserve?(demand: () => number): () => void;
  /** `orderItems/getAll`, every page. */
  orderItems(filter: OrderItemsFilter, options?: PagedOptions): AsyncIterable<WireOrderItem[]>;
  /** `payments/getAll`, every page. */
  payments(filter: PaymentsFilter, options?: PagedOptions): AsyncIterable<WirePayment[]>;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Who goes first when the rate budget is scarce: `result` (updates that deliver an outcome, and
 * the read before a start, which unblocks a device), then `normal`, then `discovery` (polls,
 * catch-ups, fetches of announced commands), which also spends only the surplus over known work.
 */
export type RequestPriority = 'result' | 'normal' | 'discovery';

export interface RequestOptions {
  signal?: AbortSignal;
  priority?: RequestPriority;
}

export interface PagedOptions extends RequestOptions {
  /** `Limitation.Count` per page, 1..1000. */
  pageSize?: number;
  /** Stop after this many pages (a safety net); unlimited by default. */
  maxPages?: number;
}

export interface FiscalPagedOptions extends PagedOptions {
  /**
   * Recognises a command the caller already knows at this state from its `Id` and `State` alone
   * (issue 26.2): an item for which it returns true is neither bounds-checked nor normalised nor
   * yielded. Called once per item that has a string `Id` and `State`; must be cheap and must not
   * throw. Paging still follows the cursor to its end.
   */
  known?: (id: string, state: string) => boolean;
}

/** One finished HTTP exchange, for metrics and the status page. Carries no secrets. */
export interface RequestRecord {
  operation: string;
  /** HTTP status, or 0 for a network failure or timeout. */
  status: number;
  durationMs: number;
  requestId?: string;
  /** The answer's `Date` header as sent (HTTP-date), when there was an answer: clock-skew checks. */
  date?: string;
  errorCode?: string;
  /** Milliseconds spent waiting for the rate budget before sending. */
  budgetWaitMs: number;
}

/**
 * Items of a platform answer the agent refused (issue 40, M4), for `/metrics`: a whole page over
 * its bound (`over-bound`, refused unread), or one item that cannot be read (`malformed`: the
 * command, when it names one of ours, ends in Error as COMMAND_INVALID).
 */
export interface RefusedItems {
  operation: string;
  reason: 'over-bound' | 'malformed';
  items: number;
}

/** What the rate budget can tell about itself at one moment. */
export interface BudgetSnapshot {
  /** Requests counted in the current window. */
  used: number;
  /** Requests this agent may send per window (its share of the token's limit). */
  limit: number;
  windowMs: number;
  /** Callers waiting for budget. */
  waiting: number;
  /** Epoch ms until which nothing may be sent after a 429, if any. */
  blockedUntil?: number;
}

/** Progress is sent as a fraction 0..1; the one place to change if the platform wants percent. */
export function progressToWire(fraction: number): number {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  return Math.round(clamped * 1000) / 1000;
}
