import type { Clock } from '../../clock.js';
import type { ConnectorApi } from '../../connector/api.js';
import type { NormalizedItem } from '../../connector/model.js';
import type { CommandSocket } from '../../connector/socket-api.js';
import { type AgentError, toAgentError } from '../../errors.js';
import { errorFields, type Logger } from '../../log.js';
import type { IntakeSink, PlatformObserver } from './ports.js';

/**
 * What every discovery request shares (the intake's and the fiscal poll's): the platform activity
 * they record for the page and health, the observer's hint that the platform answered or failed,
 * and one way of logging a failed request.
 */

export interface PollOptions {
  /** Fiscal poll period; also the catch-up period while the WebSocket is down or absent. */
  intervalMs: number;
  /** Catch-up period (`commands/getAllActive`) while the WebSocket is up. */
  safetyNetMs: number;
  /** How far back `fiscalMachineCommands/getAll` looks (capped below the 3-month limit). */
  fiscalLookbackHours: number;
  /** Period of the deep fiscal catch-up over the whole 3-month window (default 6). */
  deepCatchUpHours?: number;
}

/** What discovery knows about the platform, for the page and health (the engine adds the outbox's). */
export interface DiscoveryActivity {
  lastSuccessAt?: number;
  lastError?: { code: string; message: string; at: number };
  /** True while the last platform answer was a PLATFORM_AUTH refusal. */
  authRejected: boolean;
  /**
   * The intake round (`catch-up`, `fiscal poll`) that has failed every time since `since` (the
   * oldest such), with how often and its last error: new commands of its devices are not taken in.
   */
  intakeFailing?: { round: string; since: number; failures: number; code: string; message: string };
}

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
  /** Where every item found goes (step 2: `Ownership`). */
  sink: IntakeSink;
  /** Hears after every discovery request whether the platform answered (the outbox delivery). */
  observer?: PlatformObserver;
}

export type DiscoveryRequestsOptions = Pick<IntakeOptions, 'clock' | 'log' | 'observer'> & {
  /** Fires when discovery stops: failures after it are not worth a line. */
  signal: AbortSignal;
};

/**
 * The rounds that run every poll interval (or safety-net period) and take new commands in: while
 * one of them fails every time, new commands are not taken in (`DiscoveryActivity.intakeFailing`).
 */
export const INTAKE_ROUNDS = ['catch-up', 'fiscal poll'] as const;
export type IntakeRound = (typeof INTAKE_ROUNDS)[number];
const isIntakeRound = (what: string): what is IntakeRound =>
  (INTAKE_ROUNDS as readonly string[]).includes(what);

export class DiscoveryRequests {
  private readonly state: DiscoveryActivity = { authRejected: false };
  /** Rounds failing since their last completion. */
  private readonly failing = new Map<IntakeRound, NonNullable<DiscoveryActivity['intakeFailing']>>();

  constructor(private readonly options: DiscoveryRequestsOptions) {}

  /** A copy of what discovery knows about the platform. */
  get activity(): DiscoveryActivity {
    const activity = { ...this.state };
    let oldest: DiscoveryActivity['intakeFailing'];
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
    this.options.observer?.platformAnswered();
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
    if (error.retryable) this.options.observer?.platformFailed();
    // An outage or a full disk fails every round again: one line per minute per round and cause.
    this.options.log.repeated(`${what} failed`, error.code, errorFields(error));
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
