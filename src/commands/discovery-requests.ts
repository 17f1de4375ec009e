import type { Clock } from '../clock.js';
import type { ConnectorApi } from '../connector/api.js';
import type { NormalizedItem, PlatformCommand } from '../connector/model.js';
import type { CommandSocket } from '../connector/socket-api.js';
import type { CommandState } from '../connector/wire.js';
import { type AgentError, toAgentError } from '../errors.js';
import { errorFields, type Logger } from '../log.js';
import type { PlatformActivity, PollOptions } from './types.js';

/**
 * What every discovery request shares (the intake's and the fiscal poll's): the platform activity
 * they record for the page and health, the outbox's hint that the platform answered or failed,
 * and one way of logging a failed request.
 */

/** How discovery is set up: the intake's options, which the fiscal poll and the requests share. */
export interface IntakeOptions {
  connector: ConnectorApi;
  socket?: CommandSocket;
  clock: Clock;
  log: Logger;
  poll: PollOptions;
  enterpriseIds?: readonly string[];
  fiscalDeviceIds: readonly string[];
  /** Non-fiscal devices: when empty, `commands/getAllActive` is not polled. */
  otherDeviceIds: readonly string[];
  debounceMs: number;
  authPauseMs: number;
  sink: IntakeSink;
  /** Called after every discovery request the platform answered. */
  onPlatformAnswered?: () => void;
  /** Called after a discovery request failed with a retryable platform error (an outage). */
  onPlatformFailed?: () => void;
}

export type DiscoveryRequestsOptions = Pick<
  IntakeOptions,
  'clock' | 'log' | 'onPlatformAnswered' | 'onPlatformFailed'
> & {
  /** Fires when discovery stops: failures after it are not worth a line. */
  signal: AbortSignal;
};

/** Where discovery hands what it found (the engine's ownership and start check). */
export interface IntakeSink {
  /** Takes discovered items; returns the ids it accepted as new commands of ours. */
  ingest(items: readonly NormalizedItem[], via: string): readonly string[];
  /** A state hint for a command; returns true when the command is known. */
  platformSays(commandId: string, state: CommandState): boolean;
  /**
   * A known command changed on the platform in a way the event does not spell out (no state, or
   * Processing before we started it): what was seen of it must be read again before it starts.
   */
  platformMoved?(commandId: string): void;
  /**
   * A complete listing of the active commands of one source, requested at `since`: the ids not in
   * `present` are no longer Pending or Received there.
   */
  listedActive?(source: PlatformCommand['source'], present: ReadonlySet<string>, since: number): void;
  isKnown(commandId: string): boolean;
}

/**
 * The rounds that run every poll interval (or safety-net period) and take new commands in: while
 * one of them fails every time, new commands are not taken in (`PlatformActivity.intakeFailing`).
 */
export const INTAKE_ROUNDS = ['catch-up', 'fiscal poll'] as const;
export type IntakeRound = (typeof INTAKE_ROUNDS)[number];
const isIntakeRound = (what: string): what is IntakeRound =>
  (INTAKE_ROUNDS as readonly string[]).includes(what);

export class DiscoveryRequests {
  private readonly state: PlatformActivity = { authRejected: false };
  /** Rounds failing since their last completion. */
  private readonly failing = new Map<IntakeRound, NonNullable<PlatformActivity['intakeFailing']>>();

  constructor(private readonly options: DiscoveryRequestsOptions) {}

  /** A copy of what discovery knows about the platform. */
  get activity(): PlatformActivity {
    const activity = { ...this.state };
    let oldest: PlatformActivity['intakeFailing'];
    for (const entry of this.failing.values()) if (!oldest || entry.since < oldest.since) oldest = entry;
    if (oldest) activity.intakeFailing = { ...oldest };
    return activity;
  }

  /** `round` completed: everything it found was taken in. */
  roundDone(round: IntakeRound): void {
    this.failing.delete(round);
  }

  /** True while the last answer was a PLATFORM_AUTH refusal. */
  get authRejected(): boolean {
    return this.state.authRejected;
  }

  /** Runs one request and records that the platform answered. Rejects as `fn` does. */
  async request<T>(fn: () => Promise<T>): Promise<T> {
    const result = await fn();
    this.state.lastSuccessAt = this.options.clock.now();
    this.state.authRejected = false;
    this.options.onPlatformAnswered?.();
    return result;
  }

  /** Records and logs a failed request (`what` names it), unless discovery is stopping. */
  failed(what: string, e: unknown): void {
    if (this.options.signal.aborted) return;
    const error: AgentError = toAgentError(e);
    const at = this.options.clock.now();
    this.state.lastError = { code: error.code, message: error.message, at };
    if (isIntakeRound(what)) {
      const entry = this.failing.get(what);
      this.failing.set(what, {
        round: what,
        since: entry?.since ?? at,
        failures: (entry?.failures ?? 0) + 1,
        code: error.code,
        message: error.message,
      });
    }
    if (error.code === 'PLATFORM_AUTH') this.state.authRejected = true;
    if (error.retryable) this.options.onPlatformFailed?.();
    this.options.log.warn(`${what} failed`, errorFields(error));
  }
}

/** The ids of the items (well-formed or not) that carry one. */
export function idsOf(items: readonly NormalizedItem[]): Set<string> {
  const ids = new Set<string>();
  for (const item of items) {
    const id = item.ok ? item.command.id : item.id;
    if (id !== undefined) ids.add(id);
  }
  return ids;
}

export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** The `EnterpriseIds` part of a `fiscalMachineCommands/getAll` filter (left out when empty). */
export function enterpriseFilter(enterpriseIds: readonly string[] | undefined): {
  EnterpriseIds?: string[];
} {
  return enterpriseIds?.length ? { EnterpriseIds: [...enterpriseIds] } : {};
}
