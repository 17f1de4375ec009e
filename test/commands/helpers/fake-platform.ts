import type {
  ConnectorApi,
  FiscalPagedOptions,
  RequestOptions,
  RequestPriority,
} from '../../../src/connector/api.js';
import {
  type NormalizedItem,
  normalizeCommand,
  normalizeFiscalMachineCommand,
} from '../../../src/connector/model.js';
import type {
  AddKeyCutterRequest,
  CommandState,
  CommandUpdateRequest,
  WireDevice,
  WireOrderItem,
  WirePayment,
} from '../../../src/connector/wire.js';
import { ACTIVE_STATES } from '../../../src/connector/wire.js';
import { AgentError } from '../../../src/errors.js';
import { isTerminal, updateAllowed } from '../../helpers/command-states.js';
import { wireKeyCommand } from './commands.js';

/**
 * An in-memory platform behind the `ConnectorApi` interface, for the engine's tests (on a
 * ManualClock, every request recorded): it keeps each command's state, applies `commands/update`
 * with the platform's rules (`updateAllowed`: never backwards, terminal is final → 400; or, with
 * `updateRule: 'any'`, as the interface document states it: any state to the state given), and
 * records every accepted update. Faults are scripted per operation; `hold` keeps an operation's
 * requests on the wire until released. What it answers is proved equal to the platform
 * simulator's in `fake-platform.contract.test.ts`.
 */

type Operation = 'fiscalCommands' | 'activeCommands' | 'commandsByIds' | 'updateCommand' | 'addKeyCutter';

interface Stored {
  /** The `commands/*` wire shape, when the command is visible there. */
  wire?: Record<string, unknown>;
  /** The `fiscalMachineCommands/getAll` wire shape, for fiscal commands. */
  fiscalWire?: Record<string, unknown>;
  deviceId: string;
  state: CommandState;
  updatedAt: number;
}

export interface UpdateRecord extends CommandUpdateRequest {
  priority?: RequestPriority;
  /** Clock time the platform took it. */
  at: number;
}

export interface RequestRecord {
  operation: Operation;
  /** Clock time of the request. */
  at?: number;
  priority?: RequestPriority;
  ids?: readonly string[];
  filter?: unknown;
}

function aborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AgentError('ABORTED', 'request aborted');
}

export class FakePlatform implements ConnectorApi {
  readonly commands = new Map<string, Stored>();
  /** Every update the platform accepted, in order. */
  readonly updates: UpdateRecord[] = [];
  readonly requests: RequestRecord[] = [];
  /** Fiscal command items the fake platform has sent (known ones included). */
  fiscalItemsSent = 0;
  /** Return an error to make the operation fail this time. */
  fault: Partial<
    Record<Operation, (request: RequestRecord & { update?: CommandUpdateRequest }) => AgentError | undefined>
  > = {};
  private nextId = 1;
  /** How `commands/update` treats the state given (see the class comment). */
  updateRule: 'forward' | 'any' = 'forward';
  private readonly gates = new Map<
    Operation | `${Operation}:answer`,
    { open: Promise<void>; release: () => void; waiting: number }
  >();

  constructor(private readonly now: () => number = () => 0) {}

  /**
   * Holds the requests of `operation` on the wire (recorded as sent, not yet arrived) until the
   * returned `release` is called; with `answers`, holds their answers instead (the platform has
   * applied the request, the answer is on its way back). `waiting()` counts those held.
   */
  hold(
    operation: Operation,
    options: { answers?: boolean } = {},
  ): { release: () => void; waiting: () => number } {
    const key = options.answers ? (`${operation}:answer` as const) : operation;
    let release: () => void = () => {};
    const open = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gate = { open, release: () => {}, waiting: 0 };
    gate.release = () => {
      if (this.gates.get(key) === gate) this.gates.delete(key);
      release();
    };
    this.gates.set(key, gate);
    return { release: gate.release, waiting: () => gate.waiting };
  }

  private async arrive(operation: Operation | `${Operation}:answer`): Promise<void> {
    const gate = this.gates.get(operation);
    if (!gate) return;
    gate.waiting++;
    await gate.open;
    gate.waiting--;
  }

  /**
   * Adds a command in `commands/*` shape, in `fiscalMachineCommands` shape, or both; `updatedAt`
   * stamps it earlier than now (a commit that becomes visible late, or a platform clock behind ours).
   */
  add(command: {
    wire?: Record<string, unknown>;
    fiscalWire?: Record<string, unknown>;
    updatedAt?: number;
  }): string {
    const raw = (command.wire ?? command.fiscalWire) as Record<string, unknown>;
    const id = String(raw.Id);
    const device = raw.Device as { Id: string };
    const stored: Stored = {
      deviceId: device.Id,
      state: raw.State as CommandState,
      updatedAt: command.updatedAt ?? this.now(),
    };
    if (command.wire) stored.wire = command.wire;
    if (command.fiscalWire) stored.fiscalWire = command.fiscalWire;
    this.commands.set(id, stored);
    return id;
  }

  /** The platform changes a command on its own (staff cancels it …). */
  setState(id: string, state: CommandState): void {
    const c = this.commands.get(id);
    if (!c) throw new Error(`no command ${id}`);
    c.state = state;
    c.updatedAt = this.now();
  }

  state(id: string): CommandState | undefined {
    return this.commands.get(id)?.state;
  }

  /** The updates of one command, as `State` or `State:progress` / `State:notes`. */
  historyOf(id: string): string[] {
    return this.updates
      .filter((u) => u.CommandId === id)
      .map((u) => (u.Progress !== undefined ? `${u.State}:${u.Progress}` : u.State));
  }

  countOf(operation: Operation): number {
    return this.requests.filter((r) => r.operation === operation).length;
  }

  /** `fiscalMachineCommands/getAll` requests, without the deep catch-up's (`isDeepCatchUp`). */
  regularFiscal(): RequestRecord[] {
    return this.requests.filter(
      (r) => r.operation === 'fiscalCommands' && !this.isDeepCatchUp(r) && !this.isSettling(r),
    );
  }

  /** The fiscal poll's settling windows (a second listing with some polls, ending in the past). */
  settlingFiscal(): RequestRecord[] {
    return this.requests.filter((r) => r.operation === 'fiscalCommands' && this.isSettling(r));
  }

  private isSettling(request: RequestRecord): boolean {
    const filter = request.filter as { UpdatedUtc?: { EndUtc: string }; States?: string[] } | undefined;
    return (
      filter?.UpdatedUtc !== undefined &&
      Date.parse(filter.UpdatedUtc.EndUtc) < (request.at ?? 0) &&
      filter.States?.includes('Received') === false
    );
  }

  /** The deep catch-up's requests. */
  deepFiscal(): RequestRecord[] {
    return this.requests.filter((r) => r.operation === 'fiscalCommands' && this.isDeepCatchUp(r));
  }

  /**
   * A deep catch-up request: by devices, Pending and Received, over a window that ends in the past
   * (where the regular poll's begins); the regular poll's window always ends a minute ahead, and
   * its settling window, which ends in the past too, asks for Pending and Cancelled.
   */
  isDeepCatchUp(request: RequestRecord): boolean {
    const filter = request.filter as { UpdatedUtc?: { EndUtc: string }; States?: string[] } | undefined;
    return (
      filter?.UpdatedUtc !== undefined &&
      Date.parse(filter.UpdatedUtc.EndUtc) < (request.at ?? 0) &&
      filter.States?.includes('Received') === true
    );
  }

  private record(
    request: RequestRecord,
    options?: RequestOptions,
    extra?: { update?: CommandUpdateRequest },
  ) {
    aborted(options?.signal);
    this.requests.push(request);
    const error = this.fault[request.operation]?.({ ...request, ...extra });
    if (error) throw error;
  }

  private view(stored: Stored, shape: 'wire' | 'fiscalWire'): NormalizedItem | undefined {
    const raw = stored[shape];
    if (!raw) return undefined;
    const item = { ...raw, State: stored.state };
    return shape === 'wire' ? normalizeCommand(item) : normalizeFiscalMachineCommand(item);
  }

  async *fiscalCommands(
    filter: Parameters<ConnectorApi['fiscalCommands']>[0],
    options: FiscalPagedOptions = {},
  ): AsyncIterable<NormalizedItem[]> {
    const ids = 'CommandIds' in filter ? filter.CommandIds : undefined;
    this.record(
      {
        operation: 'fiscalCommands',
        at: this.now(),
        ...(ids ? { ids } : {}),
        filter,
        priority: options.priority,
      },
      options,
    );
    const items: NormalizedItem[] = [];
    for (const [id, stored] of this.commands) {
      if (!stored.fiscalWire) continue;
      if (ids) {
        if (!ids.includes(id)) continue;
      } else if ('DeviceIds' in filter) {
        if (!filter.DeviceIds.includes(stored.deviceId) || !filter.States.includes(stored.state)) continue;
        const start = Date.parse(filter.UpdatedUtc.StartUtc);
        const end = Date.parse(filter.UpdatedUtc.EndUtc);
        if (stored.updatedAt < start || stored.updatedAt >= end) continue;
      }
      // The platform sends it; the client recognises a known one before parsing (as client.ts does).
      this.fiscalItemsSent++;
      if (options.known?.(id, stored.state)) continue;
      const item = this.view(stored, 'fiscalWire');
      if (item) items.push(item);
    }
    const size = options.pageSize ?? 100;
    for (let i = 0; i < items.length || i === 0; i += size) {
      aborted(options.signal);
      yield items.slice(i, i + size);
      if (items.length === 0) break;
    }
  }

  async activeCommands(options: RequestOptions = {}): Promise<NormalizedItem[]> {
    this.record({ operation: 'activeCommands', priority: options.priority }, options);
    await this.arrive('activeCommands');
    return [...this.commands]
      .filter(([, c]) => ACTIVE_STATES.includes(c.state))
      .flatMap(([, c]) => this.view(c, 'wire') ?? []);
  }

  /** Like the client: no request for no ids, one request per 1000 distinct ids. */
  async commandsByIds(ids: readonly string[], options: RequestOptions = {}): Promise<NormalizedItem[]> {
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 1000) {
      this.record(
        { operation: 'commandsByIds', ids: unique.slice(i, i + 1000), priority: options.priority },
        options,
      );
    }
    if (unique.length > 0) await this.arrive('commandsByIds');
    return unique.flatMap((id) => {
      const c = this.commands.get(id);
      return c && !isTerminal(c.state) ? (this.view(c, 'wire') ?? []) : [];
    });
  }

  async updateCommand(update: CommandUpdateRequest, options: RequestOptions = {}): Promise<void> {
    this.record(
      { operation: 'updateCommand', ids: [update.CommandId], priority: options.priority },
      options,
      {
        update,
      },
    );
    await this.arrive('updateCommand');
    const c = this.commands.get(update.CommandId);
    if (!c) throw new AgentError('PLATFORM_REJECTED', 'Invalid CommandId', { details: { status: 400 } });
    if (this.updateRule === 'forward' && !updateAllowed(c.state, update.State)) {
      throw new AgentError('PLATFORM_REJECTED', `Invalid State: ${c.state} → ${update.State}`, {
        details: { status: 400 },
      });
    }
    c.state = update.State;
    c.updatedAt = this.now();
    this.updates.push({
      ...update,
      at: this.now(),
      ...(options.priority ? { priority: options.priority } : {}),
    });
    await this.arrive('updateCommand:answer');
  }

  async addKeyCutter(request: AddKeyCutterRequest, options: RequestOptions = {}): Promise<string> {
    this.record({ operation: 'addKeyCutter', priority: options.priority }, options);
    const id = `created-${this.nextId++}`;
    this.add({
      wire: wireKeyCommand({
        id,
        keyCount: request.KeyCount,
        device: { Id: request.KeyCutterId, Type: 'KeyCutter', Name: 'Encoder' },
        createdUtc: new Date(this.now()).toISOString(),
      }),
    });
    return id;
  }

  /** The known work declared to the budget (`reserve`), summed; 0 when none is. */
  readonly demands = new Set<() => number>();
  demand(): number {
    let n = 0;
    for (const d of this.demands) n += d();
    return n;
  }

  reserve(demand: () => number): () => void {
    this.demands.add(demand);
    return () => this.demands.delete(demand);
  }

  async devices(): Promise<WireDevice[]> {
    return [];
  }

  async *orderItems(): AsyncIterable<WireOrderItem[]> {
    yield [];
  }

  async *payments(): AsyncIterable<WirePayment[]> {
    yield [];
  }
}
