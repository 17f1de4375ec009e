import { backoffCeiling } from '../../backoff.js';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../log.js';

/**
 * Commands held back before their start because the platform showed them in a state this agent
 * does not know (the read's `hold` verdict): such a command is never started on that read. It
 * leaves its device's queue, so the commands behind it run, and goes back to the end of the queue
 * after the wait the machine decided (its `hold` effect), where it is read again; while its device
 * still runs it, the wait doubles up to `maxMs`. The first hold of a command is logged; the
 * repeats are not. `release` forgets a command once a read answered something known (or it
 * ended).
 */

export interface StartHoldOptions {
  clock: Clock;
  log: Logger;
  maxMs: number;
  /** Puts the command back at the end of its device's queue; false when it cannot go there now. */
  requeue: (deviceId: string, commandId: string) => boolean;
}

export class StartHolds {
  private readonly holds = new Map<string, number>();
  private stopper = new AbortController();

  constructor(private readonly options: StartHoldOptions) {}

  /** Whether the command is held (its next turn goes straight to the read). */
  has(commandId: string): boolean {
    return this.holds.has(commandId);
  }

  /** How many times the command was held so far (the machine's count for its next wait). */
  count(commandId: string): number {
    return this.holds.get(commandId) ?? 0;
  }

  /** Holds the command back: logs the first time, then requeues it after `delayMs`. */
  hold(deviceId: string, commandId: string, platformState: string, delayMs: number): void {
    const times = this.count(commandId);
    this.holds.set(commandId, times + 1);
    if (times === 0) {
      this.options.log.warn(
        'the platform shows a state this agent does not know; the command is not started and is read again later',
        { commandId, device: deviceId, platformState: platformState.slice(0, 60) },
      );
    }
    void this.requeueAfter(deviceId, commandId, Math.max(1, delayMs));
  }

  release(commandId: string): void {
    this.holds.delete(commandId);
  }

  /** Cancels every pending requeue (shutdown); held commands are recovered at the next start. */
  stop(): void {
    this.stopper.abort();
    this.stopper = new AbortController();
  }

  private async requeueAfter(deviceId: string, commandId: string, ms: number): Promise<void> {
    const signal = this.stopper.signal;
    const waits = { minMs: ms, maxMs: Math.max(ms, this.options.maxMs) };
    for (let tries = 0; ; tries++) {
      try {
        await this.options.clock.sleep(backoffCeiling(tries, waits), signal);
      } catch {
        return;
      }
      if (!this.holds.has(commandId) || this.options.requeue(deviceId, commandId)) return;
    }
  }
}
