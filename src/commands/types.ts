import type { Clock } from '../clock.js';
import type { ConnectorApi } from '../connector/api.js';
import type { CommandSocket } from '../connector/socket-api.js';
import type { Logger } from '../log.js';
import type { MessageRenderer } from '../messages/render.js';
import type { AgentEvent, AgentSnapshot, CommandSummary, CutKeysRequest } from '../status-model.js';
import type { DiscoveryActivity, PollOptions } from './intake/index.js';
import type { Journal } from './journal/index.js';
import type { OutboxTuning } from './outbox/index.js';
import { type CommandRetryPolicy, DEFAULT_COMMAND_RETRY_POLICY } from './rules/index.js';
import type { DeviceQueueState, EngineDevice, RunTuning } from './run/index.js';

/**
 * The engine's own types: its options, its tuning and its public interface. The stages' types it
 * shows (a device, a device's queue, the poll's options) are theirs and re-exported here.
 */

export type { PollOptions } from './intake/index.js';
export type { DeviceQueueState, EngineDevice } from './run/index.js';

/** Knobs with sensible defaults; tests shorten them. */
export interface EngineTuning extends RunTuning {
  /**
   * A fixed wait before fetching WebSocket-announced ids (0: none; ids arriving while a fetch is
   * under way are fetched together after it anyway).
   */
  debounceMs: number;
  /** Retries of DEVICE_BUSY / DEVICE_UNAVAILABLE while nothing reached the device. */
  maxDeviceRetries: number;
  deviceRetryBaseMs: number;
  /** Backoff of the re-read before start while the platform cannot be reached. */
  rereadRetryBaseMs: number;
  /** Pause of discovery (polls) after PLATFORM_AUTH. */
  authPauseMs: number;
  /** Terminal commands older than this are pruned from the journal. */
  retentionDays: number;
  pruneEveryMs: number;
  /**
   * How often the WAL is emptied when anything was written (`Journal.truncateWal`): the longest a
   * closed command's guest data stays in the WAL file after it closed, plus one checkpoint.
   */
  walTruncateEveryMs: number;
  /** After aborting jobs at the shutdown deadline, how long to wait for drivers to stop. */
  abortGraceMs: number;
  /** At shutdown, how long the outbox may keep delivering. */
  shutdownFlushMs: number;
  outbox: Partial<OutboxTuning>;
}

export const DEFAULT_TUNING: EngineTuning = {
  debounceMs: 0,
  progressIntervalMs: 1000,
  maxDeviceRetries: DEFAULT_COMMAND_RETRY_POLICY.device.maxRetries,
  deviceRetryBaseMs: DEFAULT_COMMAND_RETRY_POLICY.device.delay.minMs,
  rereadRetryBaseMs: DEFAULT_COMMAND_RETRY_POLICY.reread.delay.minMs,
  rereadRetryMaxMs: DEFAULT_COMMAND_RETRY_POLICY.reread.delay.maxMs,
  startCheckFreshMs: 1000,
  authPauseMs: DEFAULT_COMMAND_RETRY_POLICY.reread.authPauseMs,
  retentionDays: 30,
  pruneEveryMs: 3_600_000,
  walTruncateEveryMs: 60_000,
  abortGraceMs: 2000,
  shutdownFlushMs: 3000,
  outbox: {},
};

/** The machine's retry decisions, as the tuning sets them. */
export function commandRetryPolicyOf(tuning: EngineTuning): CommandRetryPolicy {
  return {
    device: {
      maxRetries: tuning.maxDeviceRetries,
      delay: { minMs: tuning.deviceRetryBaseMs, maxMs: DEFAULT_COMMAND_RETRY_POLICY.device.delay.maxMs },
    },
    reread: {
      delay: { minMs: tuning.rereadRetryBaseMs, maxMs: tuning.rereadRetryMaxMs },
      authPauseMs: tuning.authPauseMs,
    },
  };
}

export interface EngineOptions {
  journal: Journal;
  connector: ConnectorApi;
  /** The platform's WebSocket; without it the engine polls. */
  socket?: CommandSocket;
  devices: readonly EngineDevice[];
  clock: Clock;
  log: Logger;
  poll: PollOptions;
  /** `EnterpriseIds` for `fiscalMachineCommands/getAll` (omitted when empty). */
  enterpriseIds?: readonly string[];
  onEvent?: (event: AgentEvent) => void;
  tuning?: Partial<EngineTuning>;
  /** The language of the Notes sent to the platform (the config's `locale`); English by default. */
  notesIn?: MessageRenderer;
}

/** What discovery and delivery know about the platform, for the page and health. */
export interface PlatformActivity extends DiscoveryActivity {
  /** Epoch ms until which the outbox waits after a failure. */
  outboxPausedUntil?: number;
}

/**
 * The command engine. `start` recovers the journal and begins discovery; `stop` shuts down
 * gracefully; `abortNow` is the second signal. Everything else is a cheap read for the page.
 */
export interface Engine {
  /**
   * Recovers unfinished commands (reconcile, re-queue, redeliver), then starts discovery and
   * delivery. Rejects with JOURNAL_ERROR when the journal cannot be read. Call once.
   */
  start(): Promise<void>;
  /**
   * Stops discovery, lets running jobs finish until `deadlineMs` from now, then aborts them,
   * flushes what the outbox can and closes the journal. Never rejects. Idempotent.
   */
  stop(deadlineMs: number): Promise<void>;
  /**
   * Aborts every job and request at once (a second signal); a pending `stop()` then resolves
   * promptly. Jobs still running stay "started" in the journal and are reconciled next start.
   */
  abortNow(): void;
  /**
   * Staff's Cut keys (the page, the staff socket): creates the key-cutter command on the platform
   * and takes it in at once, without waiting for discovery (`intake/created.ts`). Resolves with the
   * new command's id; rejects with COMMAND_INVALID, nothing created, for a device that is not one
   * of this agent's encoders or an enterprise it does not serve, or with the platform's refusal.
   */
  cutKeys(order: CutKeysRequest): Promise<string>;
  deviceState(deviceId: string): DeviceQueueState;
  outboxState(): AgentSnapshot['outbox'];
  /**
   * Staff's "try delivery now": a pause of the outbox after failures ends and the waiting updates
   * go at once (through the rate budget, which still honours a `Retry-After`). `lifted` says
   * whether a pause was ended; `pending` counts the updates waiting when asked.
   */
  deliverNow(): { pending: number; lifted: boolean };
  recent(limit: number): CommandSummary[];
  totals(): AgentSnapshot['totals'];
  perMinute(): AgentSnapshot['perMinute'];
  platformActivity(): PlatformActivity;
}
