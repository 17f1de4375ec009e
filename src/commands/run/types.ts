import type { DeviceType, Driver } from '../../drivers-api/types.js';
import type { DeviceSnapshot } from '../../status-model.js';
import type { NewUpdate } from '../journal/index.js';

/**
 * What the run stage is given — the devices it drives, the outbox it writes to, its tuning — and
 * what it tells of a device.
 */

/** A configured device with its driver, as the engine drives it. */
export interface EngineDevice {
  /** The platform's Device id. */
  id: string;
  name: string;
  type: DeviceType;
  driverKind: string;
  /** The driver's `checkpointVersion` (its factory's); 1 when absent. */
  checkpointVersion?: number;
  driver: Driver;
}

/**
 * Where the run stage puts the platform's updates: the outbox's write side (`OutboxQueue` in
 * `outbox/queue.ts` implements it). Updates go in inside the transaction that writes the
 * command's state, so a state is journaled before anyone hears of it; the delivery sends them.
 */
export interface OutboxWriter {
  /** Appends an update (superseding unsent progress of the command); returns its seq. */
  add(update: NewUpdate, at: number): number;
  /** Drops every pending update of a command (the platform ended it), in the caller's transaction. */
  drop(commandId: string, at: number): void;
  /** New rows were committed: the delivery should look. Cheap; call after every write. */
  wake(): void;
}

/** The run stage's knobs (the engine's `EngineTuning` holds them with the others). */
export interface RunTuning {
  /** Minimum gap between two non-milestone progress updates of one command. */
  progressIntervalMs: number;
  /** Backoff ceiling of the re-read before start; also the longest a held command waits. */
  rereadRetryMaxMs: number;
  /**
   * What discovery or a read saw of a command answers the check before it starts for this long
   * (and, while the WebSocket stays open, for `poll.safetyNetMs`): see `StartCheck`.
   */
  startCheckFreshMs: number;
}

export interface DeviceQueueState {
  /** Jobs waiting, excluding the running one. */
  queued: number;
  running?: NonNullable<DeviceSnapshot['running']>;
}
