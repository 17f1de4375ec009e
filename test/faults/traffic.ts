import type { CommandState } from '../../src/connector/wire.js';
import type { Rng } from '../../src/platform-simulator/rng.js';
import { eventually } from '../helpers/eventually.js';
import type { ChaosLog } from './chaos.js';
import { createPlanned, type PlannedCommand, type Spec } from './plan.js';
import { FAULT_DEVICES, type Rig } from './rig.js';

/**
 * The campaign's command stream, paced by the agent's progress instead of the wall clock: the
 * composition's commands are created one at a time whenever fewer than `window` owned commands
 * are unfinished, so a slow machine slows the stream instead of changing what happens. Acts that
 * need a device at work ask for one more command on it (`keepBusy`); those are planned and judged
 * like the others.
 */

const TERMINAL: readonly CommandState[] = ['Processed', 'Error', 'Cancelled'];
/** Safety net for a stream that stops moving (the agent wedged): a hung test, never a timing. */
const STALL_TIMEOUT_MS = 240_000;

export class Traffic {
  readonly planned: PlannedCommand[] = [];
  private readonly open = new Set<PlannedCommand>();
  private readonly busyFor = new Map<string, PlannedCommand>();
  private finished = 0;
  private fed = false;
  /** Set when the run is given up: feeding stops. */
  abandoned = false;

  constructor(
    private readonly rig: Pick<Rig, 'platform'>,
    private readonly rng: Rng,
    private readonly reservations: Array<{ id: string; number: string }>,
  ) {}

  /** True once every command of the composition was created. */
  get allCreated(): boolean {
    return this.fed;
  }

  /** Owned commands that reached a terminal state so far (checked lazily, cheaply). */
  finishedCount(): number {
    this.refresh();
    return this.finished;
  }

  /** Owned commands created and not terminal yet. */
  unfinished(): number {
    this.refresh();
    return this.open.size;
  }

  private refresh(): void {
    for (const c of this.open) {
      const state = this.rig.platform.command(c.id)?.state;
      if (state && TERMINAL.includes(state)) {
        this.open.delete(c);
        this.finished++;
      }
    }
  }

  private add(planned: PlannedCommand): PlannedCommand {
    this.planned.push(planned);
    if (planned.owned) this.open.add(planned);
    return planned;
  }

  /** Creates `specs` in order, each once fewer than `window` owned commands are unfinished. */
  async feed(specs: readonly Spec[], window: number, log: ChaosLog): Promise<void> {
    for (const spec of specs) {
      if (this.abandoned) return;
      await eventually(
        () => `room in the stream (${this.open.size} unfinished, window ${window})`,
        () => this.abandoned || this.unfinished() < window,
        { timeoutMs: STALL_TIMEOUT_MS, intervalMs: 20 },
      );
      this.add(createPlanned(this.rig.platform, spec, this.rng, this.reservations));
    }
    this.fed = true;
    log.note(`all ${specs.length} commands of the composition created`);
  }

  /**
   * Makes sure a well-formed command of ours is unfinished on `deviceId`, creating one when the
   * last one made for this purpose has ended: an act waiting for the device to meet its fault
   * never waits on an idle device.
   */
  keepBusy(deviceId: string, why: string): void {
    // Read the states afresh: once the composition is fed nothing else may (an act at the end).
    this.refresh();
    const current = this.busyFor.get(deviceId);
    if (current && this.open.has(current)) return;
    const keys: readonly string[] = [FAULT_DEVICES.simKeys, FAULT_DEVICES.salto, FAULT_DEVICES.fias];
    const kind = keys.includes(deviceId) ? 'keys' : 'fiscal-data';
    const planned = this.add(
      createPlanned(this.rig.platform, { kind, deviceId }, this.rng, this.reservations),
    );
    planned.label = `${planned.label} (for: ${why})`;
    this.busyFor.set(deviceId, planned);
  }

  /**
   * Waits until `check` holds, keeping `busy` (if given) at work meanwhile. The timeout is the
   * safety net of a stuck act; `what` names what the act was waiting for.
   */
  async until(what: string, check: () => boolean | Promise<boolean>, busy?: string): Promise<void> {
    await eventually(
      what,
      async () => {
        if (await check()) return true;
        if (busy) this.keepBusy(busy, what);
        return false;
      },
      { timeoutMs: STALL_TIMEOUT_MS, intervalMs: 25 },
    );
  }

  /** Waits until `n` more owned commands have finished (keeping `busy` at work meanwhile). */
  async progress(n: number, busy: string): Promise<void> {
    const target = this.finishedCount() + n;
    await this.until(`${n} more commands to finish`, () => this.finishedCount() >= target, busy);
  }
}
