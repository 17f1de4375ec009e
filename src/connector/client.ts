import { z } from 'zod';
import type { BackoffRange, RandomSource } from '../backoff.js';
import { type Clock, systemClock } from '../clock.js';
import { AgentError } from '../errors.js';
import { type Logger, silentLogger } from '../log.js';
import {
  type ConnectorApi,
  type PagedOptions,
  progressToWire,
  type RefusedItems,
  type RequestOptions,
  type RequestRecord,
} from './api.js';
import type { RateBudgetStore } from './budget-store.js';
import { DocumentSpool } from './document-spool.js';
import { type ExchangeContext, exchange } from './exchange.js';
import { createHttpFetch, type FetchLike } from './http-transport.js';
import { type NormalizedItem, normalizeCommand, normalizeFiscalMachineCommand } from './model.js';
import {
  DEFAULT_PAGE_SIZE,
  limitation,
  MAX_IDS_PER_REQUEST,
  OPERATIONS,
  type OperationSpec,
  retryAllowed,
  validateRequest,
} from './operations.js';
import { type Page, type PageSize, paginate } from './paging.js';
import { RateBudget, type RateLimitOptions } from './rate-budget.js';
import { type RetryPolicy, withRetries } from './retry.js';
import {
  AddCommandResponseSchema,
  type AddKeyCutterRequest,
  AddKeyCutterRequestSchema,
  CommandListResponseSchema,
  CommandsByIdsRequestSchema,
  type CommandUpdateRequest,
  CommandUpdateRequestSchema,
  DevicesResponseSchema,
  EmptyResponseSchema,
  FiscalCommandListResponseSchema,
  FiscalCommandsByDevicesSchema,
  FiscalCommandsByIdsSchema,
  type OrderItemsFilter,
  OrderItemsRequestSchema,
  OrderItemsResponseSchema,
  type PaymentsFilter,
  PaymentsRequestSchema,
  PaymentsResponseSchema,
  type WireDevice,
  type WireOrderItem,
  type WirePayment,
} from './wire.js';

export interface ConnectorClientOptions {
  /** Platform address, e.g. `https://api.mews-demo.com` (a trailing slash is ignored). */
  baseUrl: string;
  clientToken: string;
  accessToken: string;
  /** "name version" sent as `Client`, e.g. `frontdesk-agent 0.1.0`. */
  client: string;
  /** The HTTP transport; default `createHttpFetch()` (node:http with keep-alive). */
  fetch?: FetchLike;
  clock?: Clock;
  log?: Logger;
  /** A budget shared with other clients of the same access token; built from `rateLimit` otherwise. */
  budget?: RateBudget;
  rateLimit?: Partial<RateLimitOptions>;
  /** Keeps the budget built from `rateLimit` across restarts (the journal's `rateBudget`). */
  budgetStore?: RateBudgetStore;
  /** Per HTTP exchange (default 15000). */
  requestTimeoutMs?: number;
  /** Retries of a retryable failure (default 4). */
  retries?: number;
  /** Backoff between retries of platform faults (default 500 ms doubling to 30 s, jittered). */
  retryDelay?: BackoffRange;
  random?: RandomSource;
  /** Sent as `EnterpriseIds` on `fiscalMachineCommands/getAll` (`null` when empty). */
  enterpriseIds?: readonly string[];
  /** Called after every HTTP exchange, success or not (metrics). Must not throw. */
  onRequest?: (record: RequestRecord) => void;
  /** Told of items refused: pages over their bound, malformed items (metrics). Must not throw. */
  onRefusedItems?: (refused: RefusedItems) => void;
}

/**
 * The most items one `commands/getAllActive` answer may hold. The operation takes no `Limitation`
 * (../shared/docs/connector-api.md); the agent bounds it at five times the largest page the
 * platform serves elsewhere (`Limitation.Count` ≤ 1000, connector-api/guidelines/pagination.md):
 * a desk's devices never have that many commands waiting, and 5,000 malformed items cost a few
 * MiB of records. A longer answer is refused unread, like a page longer than its Count.
 */
export const MAX_ACTIVE_COMMANDS = 5000;

/** The Connector API client; `budget` is exposed for the status page and for sharing. */
export interface ConnectorClient extends ConnectorApi {
  readonly budget: RateBudget;
}

type FiscalFilter = Parameters<ConnectorApi['fiscalCommands']>[0];

const IdListSchema = z.array(z.string().min(1));

/**
 * The accounting reads (`orderItems/getAll`, `payments/getAll`): the request each filter is
 * validated by, the response read, and the key of its list.
 */
const ACCOUNTING_LISTS = {
  orderItems: { request: OrderItemsRequestSchema, response: OrderItemsResponseSchema, items: 'OrderItems' },
  payments: { request: PaymentsRequestSchema, response: PaymentsResponseSchema, items: 'Payments' },
} as const;
interface AccountingItem {
  orderItems: WireOrderItem;
  payments: WirePayment;
}

/**
 * Builds the client. Throws CONFIG_INVALID synchronously for an unusable address, empty tokens
 * or an invalid rate limit. Every method follows the contract of `ConnectorApi`.
 */
export function createConnectorClient(options: ConnectorClientOptions): ConnectorClient {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new AgentError('CONFIG_INVALID', 'The platform address is not a valid URL');
  }
  if (!options.clientToken || !options.accessToken) {
    throw new AgentError('CONFIG_INVALID', 'The platform client token and access token must not be empty');
  }
  if (!options.client) throw new AgentError('CONFIG_INVALID', 'The Client name must not be empty');
  const clock = options.clock ?? systemClock;
  const log = (options.log ?? silentLogger).child({ component: 'connector' });
  const budget =
    options.budget ??
    new RateBudget({
      ...options.rateLimit,
      clock,
      ...(options.budgetStore ? { store: options.budgetStore } : {}),
    });
  const ctx: ExchangeContext = {
    baseUrl: base.href.replace(/\/+$/, ''),
    tokens: { ClientToken: options.clientToken, AccessToken: options.accessToken, Client: options.client },
    fetch: options.fetch ?? createHttpFetch(),
    clock,
    log,
    budget,
    requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.onRefusedItems ? { onRefusedItems: options.onRefusedItems } : {}),
  };
  /** Normalises a listing's items, counting the malformed ones for `/metrics`. */
  const counted = (operation: string, items: NormalizedItem[]): NormalizedItem[] => {
    let malformed = 0;
    for (const item of items) if (!item.ok) malformed++;
    if (malformed > 0) {
      try {
        options.onRefusedItems?.({ operation, reason: 'malformed', items: malformed });
      } catch {
        // A counter must not change what was read.
      }
    }
    return items;
  };
  const policy: RetryPolicy = {
    retries: options.retries ?? 4,
    delay: options.retryDelay ?? { minMs: 500, maxMs: 30_000 },
    random: options.random ?? Math.random,
    clock,
    log,
  };
  const enterpriseIds = [...(options.enterpriseIds ?? [])];

  /** One operation with retries; `build` runs (and validates) before every attempt. */
  function call<S extends z.ZodType>(
    spec: OperationSpec,
    build: () => Record<string, unknown>,
    response: S,
    requestOptions: RequestOptions,
    shrink?: () => boolean,
    continuation = false,
    spool?: DocumentSpool,
    itemBound?: () => { key: string; max: number },
  ): Promise<z.output<S>> {
    const { signal } = requestOptions;
    return withRetries(
      policy,
      {
        operation: spec.path,
        retryOn: (error) => retryAllowed(spec, error),
        ...(signal ? { signal } : {}),
        ...(shrink ? { shrink } : {}),
      },
      () =>
        exchange(ctx, {
          operation: spec.path,
          body: build(),
          response,
          priority: requestOptions.priority ?? 'normal',
          continuation,
          ...(signal ? { signal } : {}),
          ...(spool ? { spool } : {}),
          ...(itemBound ? { itemBound: itemBound() } : {}),
        }),
    );
  }

  /**
   * A cursor-paged read; `toPage` picks the items out of one validated response. A page whose
   * list (`listKey`) holds more items than the `Limitation.Count` it asked for is refused unread.
   */
  function paged<S extends z.ZodType, T>(
    spec: OperationSpec,
    body: (size: PageSize, cursor: string | undefined) => Record<string, unknown>,
    response: S,
    pagedOptions: PagedOptions,
    listKey: string,
    toPage: (response: z.output<S>) => Page<T>,
  ): AsyncIterable<T[]> {
    return paginate(
      {
        operation: spec.path,
        pageSize: pagedOptions.pageSize ?? DEFAULT_PAGE_SIZE,
        log,
        ...(pagedOptions.maxPages !== undefined ? { maxPages: pagedOptions.maxPages } : {}),
      },
      async (cursor, size): Promise<Page<T>> =>
        toPage(
          await call(
            spec,
            () => body(size, cursor),
            response,
            pagedOptions,
            () => size.shrink(),
            cursor !== undefined,
            undefined,
            () => ({ key: listKey, max: size.count }),
          ),
        ),
    );
  }

  /** A cursor-paged accounting read: `filter` plus the page's `Limitation`, validated before every attempt. */
  function accountingList<N extends keyof typeof ACCOUNTING_LISTS>(
    name: N,
    filter: object,
    pagedOptions: PagedOptions,
  ): AsyncIterable<AccountingItem[N][]> {
    const spec = OPERATIONS[name];
    const { request, response, items } = ACCOUNTING_LISTS[name];
    return paged(
      spec,
      (size, cursor) =>
        validateRequest(request, { ...filter, Limitation: limitation(size, cursor) }, spec.path),
      response,
      pagedOptions,
      items,
      // The response schema has already read the list under `items` as the item type.
      (r) => ({
        items: (r as unknown as Record<string, AccountingItem[N][]>)[items] ?? [],
        cursor: r.Cursor,
      }),
    );
  }

  /**
   * `EnterpriseIds` is required in both parameter sets (an array or null): the filter's, else the
   * configured ones, else null — never left out (platform-interfaces.md, Part B › Endpoints ›
   * fiscalMachineCommands/getAll parameter sets).
   */
  function fiscalBody(filter: FiscalFilter, size: PageSize, cursor: string | undefined) {
    const op = OPERATIONS.fiscalCommands.path;
    const given = filter.EnterpriseIds;
    const EnterpriseIds = given?.length
      ? given
      : given === undefined && enterpriseIds.length
        ? enterpriseIds
        : null;
    const request = { ...filter, EnterpriseIds, Limitation: limitation(size, cursor) };
    // Exactly one filter set: each branch is strict, so mixing the two sets is refused by name.
    const schema = 'CommandIds' in filter ? FiscalCommandsByIdsSchema : FiscalCommandsByDevicesSchema;
    return validateRequest(schema.strict(), request, op);
  }

  return {
    budget,

    reserve: (demand) => budget.reserve(demand),

    fiscalCommands(filter, pagedOptions = {}) {
      return paged(
        OPERATIONS.fiscalCommands,
        (size, cursor) => fiscalBody(filter, size, cursor),
        FiscalCommandListResponseSchema,
        pagedOptions,
        'Commands',
        (r) => ({
          items: counted(OPERATIONS.fiscalCommands.path, normalizeUnknown(r.Commands, pagedOptions.known)),
          cursor: r.Cursor,
        }),
      );
    },

    async activeCommands(requestOptions = {}) {
      // A listing may carry print documents: they are decoded as the answer arrives.
      const spool = new DocumentSpool();
      const r = await call(
        OPERATIONS.activeCommands,
        () => ({}),
        CommandListResponseSchema,
        requestOptions,
        undefined,
        false,
        spool,
        () => ({ key: 'Commands', max: MAX_ACTIVE_COMMANDS }),
      );
      return spool.attach(counted(OPERATIONS.activeCommands.path, r.Commands.map(normalizeCommand)));
    },

    async commandsByIds(ids, requestOptions = {}) {
      const op = OPERATIONS.commandsByIds;
      const unique = [...new Set(validateRequest(IdListSchema, ids, op.path))];
      const pending: string[][] = [];
      for (let i = 0; i < unique.length; i += MAX_IDS_PER_REQUEST) {
        pending.push(unique.slice(i, i + MAX_IDS_PER_REQUEST));
      }
      const out: NormalizedItem[] = [];
      for (let batch = pending.shift(); batch; batch = pending.shift()) {
        let current = batch;
        const spool = new DocumentSpool();
        const r = await call(
          op,
          () => validateRequest(CommandsByIdsRequestSchema, { CommandIds: current }, op.path),
          CommandListResponseSchema,
          requestOptions,
          () => {
            // Too heavy: send the first half now and queue the second half as its own batch.
            if (current.length < 2) return false;
            const half = Math.ceil(current.length / 2);
            pending.unshift(current.slice(half));
            current = current.slice(0, half);
            return true;
          },
          false,
          spool,
          // Each id comes back at most once: more items than ids asked is not an answer.
          () => ({ key: 'Commands', max: current.length }),
        );
        out.push(...spool.attach(counted(op.path, r.Commands.map(normalizeCommand))));
      }
      return out;
    },

    async addKeyCutter(request: AddKeyCutterRequest, requestOptions = {}) {
      const op = OPERATIONS.addKeyCutter;
      const body = validateRequest(AddKeyCutterRequestSchema, request, op.path);
      const r = await call(op, () => body, AddCommandResponseSchema, requestOptions);
      return r.CommandId;
    },

    async updateCommand(update: CommandUpdateRequest, requestOptions = {}) {
      const op = OPERATIONS.updateCommand;
      const body = validateRequest(CommandUpdateRequestSchema, update, op.path);
      if (body.Progress !== undefined) body.Progress = progressToWire(body.Progress);
      await call(op, () => body, EmptyResponseSchema, requestOptions);
    },

    async devices(requestOptions = {}): Promise<WireDevice[]> {
      const r = await call(OPERATIONS.devices, () => ({}), DevicesResponseSchema, requestOptions);
      return r.Devices;
    },

    orderItems(filter: OrderItemsFilter, pagedOptions = {}): AsyncIterable<WireOrderItem[]> {
      return accountingList('orderItems', filter, pagedOptions);
    },

    payments(filter: PaymentsFilter, pagedOptions = {}): AsyncIterable<WirePayment[]> {
      return accountingList('payments', filter, pagedOptions);
    },
  };
}

/**
 * The items of a fiscal page, normalised, but for those `known` recognises from `Id` and `State`:
 * they are left out before any bounds check or parsing (a backlog re-listed costs a lookup per
 * command, not a normalisation).
 */
function normalizeUnknown(
  commands: readonly unknown[],
  known: ((id: string, state: string) => boolean) | undefined,
): NormalizedItem[] {
  const out: NormalizedItem[] = [];
  for (const raw of commands) {
    if (known && typeof raw === 'object' && raw !== null) {
      const { Id, State } = raw as { Id?: unknown; State?: unknown };
      if (typeof Id === 'string' && typeof State === 'string' && known(Id, State)) continue;
    }
    out.push(normalizeFiscalMachineCommand(raw));
  }
  return out;
}
