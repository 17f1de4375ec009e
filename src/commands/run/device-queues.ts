import { errorFields, type Logger } from '../../log.js';

/**
 * Per-device FIFO queues of command ids: one job at a time per device, devices in parallel. The
 * queues hold ids only (the job itself is loaded from the journal when its turn comes), so a
 * backlog of thousands of commands costs little memory.
 */

/** Runs one command's turn on its device. Must not reject; a rejection is logged and dropped. */
export type TurnWorker = (deviceId: string, commandId: string) => Promise<void>;

interface Lane {
  ids: string[];
  head: number;
  running?: string;
}

export class DeviceQueues {
  private readonly lanes = new Map<string, Lane>();
  private readonly members = new Set<string>();
  private readonly turns = new Set<Promise<void>>();
  private paused = false;

  constructor(
    private readonly work: TurnWorker,
    private readonly log: Logger,
  ) {}

  /**
   * Queues `commandId` for `deviceId` (at the front with `front`). Idempotent: returns false when
   * the id is already waiting or running.
   */
  add(deviceId: string, commandId: string, options: { front?: boolean } = {}): boolean {
    if (this.members.has(commandId)) return false;
    const lane = this.lane(deviceId);
    if (lane.running === commandId) return false;
    if (options.front) {
      if (lane.head > 0) lane.ids[--lane.head] = commandId;
      else lane.ids.unshift(commandId);
    } else {
      lane.ids.push(commandId);
    }
    this.members.add(commandId);
    this.pump(deviceId, lane);
    return true;
  }

  /** Takes a waiting id out of its queue; false when it is not waiting (absent or running). */
  remove(commandId: string): boolean {
    if (!this.members.has(commandId)) return false;
    for (const lane of this.lanes.values()) {
      const index = lane.ids.indexOf(commandId, lane.head);
      if (index >= 0) {
        lane.ids.splice(index, 1);
        this.members.delete(commandId);
        return true;
      }
    }
    return false;
  }

  /** Waiting (not running) ids of every device. */
  get waitingCount(): number {
    return this.members.size;
  }

  /** Waiting (not running) ids of a device. */
  queued(deviceId: string): number {
    const lane = this.lanes.get(deviceId);
    return lane ? lane.ids.length - lane.head : 0;
  }

  /**
   * Every waiting id, the fronts of all queues first (round robin over devices), so a bounded
   * consumer sees the ids that will start soonest.
   */
  *waiting(): Generator<string> {
    const lanes = [...this.lanes.values()].map((lane) => ({ ids: lane.ids, at: lane.head }));
    for (let left = lanes.length; left > 0; ) {
      left = 0;
      for (const lane of lanes) {
        const id = lane.ids[lane.at];
        if (id === undefined) continue;
        lane.at++;
        left++;
        yield id;
      }
    }
  }

  running(deviceId: string): string | undefined {
    return this.lanes.get(deviceId)?.running;
  }

  isQueuedOrRunning(commandId: string): boolean {
    if (this.members.has(commandId)) return true;
    for (const lane of this.lanes.values()) if (lane.running === commandId) return true;
    return false;
  }

  /** Stops starting new turns; running ones continue. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const [deviceId, lane] of this.lanes) this.pump(deviceId, lane);
  }

  /** Resolves when no turn is running. */
  async idle(): Promise<void> {
    while (this.turns.size > 0) await Promise.allSettled([...this.turns]);
  }

  get runningCount(): number {
    return this.turns.size;
  }

  private lane(deviceId: string): Lane {
    let lane = this.lanes.get(deviceId);
    if (!lane) {
      lane = { ids: [], head: 0 };
      this.lanes.set(deviceId, lane);
    }
    return lane;
  }

  private pump(deviceId: string, lane: Lane): void {
    if (this.paused || lane.running !== undefined || lane.head >= lane.ids.length) return;
    const commandId = lane.ids[lane.head] as string;
    lane.head++;
    if (lane.head >= lane.ids.length) {
      // Empty now: drop the ids already run rather than keep up to 1024 of them.
      lane.ids = [];
      lane.head = 0;
    } else if (lane.head > 1024 && lane.head * 2 > lane.ids.length) {
      lane.ids = lane.ids.slice(lane.head);
      lane.head = 0;
    }
    this.members.delete(commandId);
    lane.running = commandId;
    const turn = Promise.resolve()
      .then(() => this.work(deviceId, commandId))
      .catch((e: unknown) =>
        this.log.error('device turn failed', { commandId, device: deviceId, ...errorFields(e) }),
      )
      .finally(() => {
        this.turns.delete(turn);
        lane.running = undefined;
        this.pump(deviceId, lane);
      });
    this.turns.add(turn);
  }
}
