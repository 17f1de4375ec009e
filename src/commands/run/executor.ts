import type { Clock } from '../../clock.js';
import { AgentError, toAgentError } from '../../errors.js';
import { errorFields, type Logger } from '../../log.js';
import type { AgentEvent } from '../../status-model.js';
import type { Journal } from '../journal/index.js';
import type { Effect, MachineEvent, Phase } from '../rules/index.js';
import { type ActiveJob, DeviceCalls, newJob } from './device-calls.js';
import { DeviceQueues } from './device-queues.js';
import type { Applied, ApplyOptions, Lifecycle } from './lifecycle.js';
import type { RereadDeps, RereadResult } from './reread.js';
import { StartCheck } from './start-check.js';
import { StartHolds } from './start-hold.js';
import type { DeviceQueueState, EngineDevice, OutboxWriter, RunTuning } from './types.js';

/**
 * The second half of every event: carries out what the lifecycle decided and wrote. Owns the
 * per-device queues and the device turns: a queue's worker is `turn`, which re-reads the command
 * (the start check), executes or reconciles it through `DeviceCalls`, and feeds each outcome back
 * through `apply` until the machine asks nothing more of the device. Effects that need no device
 * are performed at once: enqueue/dequeue (queues), abort (the running job's signal), and a wake-up
 * of the outbox delivery when the transition wrote updates. Then the transition's AgentEvents go
 * out.
 */

/** Effects that need the device; performed inside the command's turn, one at a time. */
export type DeviceEffect = Extract<Effect, { type: 'reread' | 'hold' | 'execute' | 'retry' | 'reconcile' }>;

/** Where a command stands after an event, and what it asks of its device next. */
export interface DeviceStep {
  phase: Phase;
  effects: DeviceEffect[];
}

const DEVICE_EFFECTS: ReadonlySet<Effect['type']> = new Set([
  'reread',
  'hold',
  'execute',
  'retry',
  'reconcile',
]);
const isDeviceEffect = (e: Effect): e is DeviceEffect => DEVICE_EFFECTS.has(e.type);

export interface ExecutorDeps {
  lifecycle: Lifecycle;
  journal: Journal;
  outbox: OutboxWriter;
  devices: ReadonlyMap<string, EngineDevice>;
  /** Reads for the start check. */
  reread: RereadDeps;
  clock: Clock;
  log: Logger;
  tuning: RunTuning;
  /** How long an unbroken WebSocket keeps a sighting good (the safety-net poll period). */
  socketTrustMs: number;
  /** Aborts the start checks' shared reads at shutdown. */
  checksSignal: AbortSignal;
  emit: (event: AgentEvent) => void;
}

export class EffectExecutor {
  readonly queues: DeviceQueues;
  /** The check before a command's first side effect; discovery feeds it what it saw. */
  readonly startCheck: StartCheck;
  /** Commands holding their device's turn. */
  readonly jobs = new Map<string, ActiveJob>();
  private readonly calls: DeviceCalls;
  /** Commands held back for a state the agent does not know, waiting to be queued again. */
  private readonly holds: StartHolds;
  private batch: Applied[] | undefined;

  constructor(private readonly deps: ExecutorDeps) {
    const { journal, outbox, clock, log, tuning, emit } = deps;
    this.queues = new DeviceQueues(this.turn, log);
    this.startCheck = new StartCheck({
      reread: deps.reread,
      clock,
      freshMs: tuning.startCheckFreshMs,
      socketTrustMs: deps.socketTrustMs,
      waiting: () => this.queues.waiting(),
      signal: deps.checksSignal,
    });
    this.calls = new DeviceCalls({
      journal,
      outbox,
      clock,
      log,
      emit,
      progressIntervalMs: tuning.progressIntervalMs,
    });
    this.holds = new StartHolds({
      clock,
      log,
      maxMs: tuning.rereadRetryMaxMs,
      requeue: (deviceId, commandId) => {
        if (this.queues.running(deviceId) === commandId) return false;
        this.queues.add(deviceId, commandId);
        return true;
      },
    });
  }

  /**
   * Applies `event` (see `Lifecycle.apply`) and carries out its effects — after the enclosing
   * `applyMany` commits, inside one. Returns what the command now asks of its device, or
   * undefined when the event did not apply.
   */
  apply(commandId: string, event: MachineEvent, options?: ApplyOptions): DeviceStep | undefined {
    const applied = this.deps.lifecycle.apply(commandId, event, options);
    if (!applied) return undefined;
    if (this.batch) this.batch.push(applied);
    else {
      this.carryOut(applied);
      this.announce(applied);
    }
    return { phase: applied.after.phase, effects: applied.effects.filter(isDeviceEffect) };
  }

  /**
   * Runs `fn` (which applies events that need no device) in one journal transaction, then
   * carries out the collected effects. A failure rolls every write back and performs nothing.
   */
  applyMany(fn: () => void): void {
    const batch: Applied[] = [];
    this.batch = batch;
    try {
      this.deps.lifecycle.transaction(fn);
    } finally {
      this.batch = undefined;
    }
    for (const applied of batch) this.carryOut(applied);
    for (const applied of batch) this.announce(applied);
  }

  /** Fires a job's signal (the `abort` effect, or shutdown). */
  abort(commandId: string, reason: AgentError, cancelled: boolean): void {
    const job = this.jobs.get(commandId);
    if (!job) return;
    if (cancelled) job.cancelled = true;
    job.controller.abort(reason);
  }

  /** Aborts the jobs whose stage matches (all when omitted), and stops requeueing held ones. */
  abortAll(reason: AgentError, stages?: ReadonlyArray<ActiveJob['stage']>): void {
    this.holds.stop();
    for (const job of this.jobs.values()) {
      if (!stages || stages.includes(job.stage)) job.controller.abort(reason);
    }
  }

  /**
   * Updates the commands in the device queues and turns still have to write: Processing and the
   * result for a command waiting or being read before its start, the result for one that runs or
   * is reconciled. (What is written already is in the outbox.) For the rate budget's reservation.
   */
  unwrittenUpdates(): number {
    let n = 2 * this.queues.waitingCount;
    for (const job of this.jobs.values()) n += job.stage === 'reread' ? 2 : 1;
    return n;
  }

  /** The device's queue and running job, for the page. */
  deviceState(deviceId: string): DeviceQueueState {
    const queued = this.queues.queued(deviceId);
    const runningId = this.queues.running(deviceId);
    const job = runningId === undefined ? undefined : this.jobs.get(runningId);
    if (!job || job.stage === 'reread' || job.startedAt === undefined) {
      return { queued: queued + (runningId === undefined ? 0 : 1) };
    }
    return {
      queued,
      running: { commandId: job.commandId, progress: job.progress, startedAt: job.startedAt },
    };
  }

  private carryOut(applied: Applied): void {
    const { commandId, deviceId, before, after } = applied;
    if (before.phase !== after.phase) {
      const level = QUIET_PHASES.has(after.phase) ? 'debug' : 'info';
      this.deps.log[level]('command transition', {
        commandId,
        device: deviceId,
        ...deviceNameField(this.deps.devices, deviceId),
        from: before.phase,
        to: after.phase,
        state: after.state,
      });
    }
    for (const effect of applied.effects) {
      if (effect.type === 'enqueue')
        this.queues.add(deviceId, commandId, effect.front ? { front: true } : {});
      else if (effect.type === 'dequeue') this.queues.remove(commandId);
      else if (effect.type === 'abort')
        this.abort(commandId, new AgentError('ABORTED', 'Cancelled on the platform'), true);
    }
    // `report` and `dropReports` were written with the transition: the delivery reads them.
    if (applied.wrote) this.deps.outbox.wake();
  }

  private announce(applied: Applied): void {
    for (const event of applied.events) this.deps.emit(event);
  }

  /** The queues' worker: one command's turn on its device. Never rejects. */
  private readonly turn = async (deviceId: string, commandId: string): Promise<void> => {
    const device = this.deps.devices.get(deviceId);
    if (!device) return;
    const job = newJob(commandId, deviceId);
    this.jobs.set(commandId, job);
    try {
      let step = this.startTurn(commandId) ?? this.heldTurn(commandId);
      for (let effect = step?.effects[0]; step && effect; effect = step?.effects[0]) {
        step = await this.perform(device, job, step.phase, effect);
      }
    } catch (e) {
      this.deps.log.warn('turn interrupted', {
        commandId,
        device: deviceId,
        deviceName: device.name,
        ...errorFields(e),
      });
    } finally {
      this.jobs.delete(commandId);
    }
  };

  /**
   * The `turn` event; when the start check can answer at once (a fresh sighting), its verdict is
   * applied in the same journal transaction, so a job's start costs one write and no wait.
   */
  private startTurn(commandId: string): DeviceStep | undefined {
    let step: DeviceStep | undefined;
    this.applyMany(() => {
      step = this.apply(commandId, { type: 'turn' });
      const effect = step?.effects[0];
      if (effect?.type !== 'reread' || effect.delayMs !== undefined) return;
      const record = this.deps.journal.get(commandId);
      const known = record && this.startCheck.answerNow(record);
      if (known) step = this.applyVerdict(commandId, known);
    });
    return step;
  }

  /** Applies what the start check found. */
  private applyVerdict(commandId: string, result: RereadResult): DeviceStep | undefined {
    if (result.verdict === 'hold') {
      const { platformState } = result;
      const holds = this.holds.count(commandId);
      return this.apply(commandId, { type: 'reread', verdict: 'hold', platformState, holds });
    }
    this.holds.release(commandId);
    if (result.verdict === 'skip') {
      const { platformState } = result;
      return this.apply(
        commandId,
        platformState
          ? { type: 'reread', verdict: 'skip', platformState }
          : { type: 'reread', verdict: 'skip' },
      );
    }
    return this.apply(
      commandId,
      { type: 'reread', verdict: 'proceed' },
      result.command ? { command: result.command } : {},
    );
  }

  /** A held command's turn goes straight to the read (it is still `starting`). */
  private heldTurn(commandId: string): DeviceStep | undefined {
    if (!this.holds.has(commandId)) return undefined;
    if (this.deps.journal.machineState(commandId)?.phase === 'starting') {
      return { phase: 'starting', effects: [{ type: 'reread' }] };
    }
    this.holds.release(commandId);
    return undefined;
  }

  private async perform(
    device: EngineDevice,
    job: ActiveJob,
    phase: Phase,
    effect: DeviceEffect,
  ): Promise<DeviceStep | undefined> {
    const { journal, clock, log } = this.deps;
    const { commandId } = job;
    const signal = job.controller.signal;
    const record = journal.get(commandId);
    if (!record) return undefined;
    switch (effect.type) {
      case 'reread': {
        job.stage = 'reread';
        if (effect.delayMs !== undefined) {
          const waitMs = effect.delayMs;
          log.warn('re-read before start failed; retrying', { commandId, code: job.lastFailure, waitMs });
          await clock.sleep(waitMs, signal);
          // A WebSocket event may have ended it meanwhile.
          if (journal.machineState(commandId)?.phase !== phase) return undefined;
        }
        let result: RereadResult;
        try {
          result = await this.startCheck.check(record, signal);
        } catch (e) {
          if (signal.aborted) throw e;
          const error = toAgentError(e);
          job.lastFailure = error.code;
          return this.apply(commandId, {
            type: 'rereadFailed',
            error: error.toJSON(),
            failures: effect.retry ?? 0,
          });
        }
        return this.applyVerdict(commandId, result);
      }
      case 'hold':
        // Never a reason to start: out of the queue for a while, then read again.
        this.holds.hold(device.id, commandId, effect.platformState, effect.delayMs);
        return undefined;
      case 'execute':
        return this.apply(commandId, await this.calls.execute(device, job, record, effect.attempt));
      case 'retry':
        job.stage = 'retry-wait';
        job.retries = effect.retry;
        try {
          await clock.sleep(effect.delayMs, signal);
        } catch (e) {
          return this.apply(commandId, this.calls.failedEvent(job, e, false));
        }
        return { phase, effects: [{ type: 'execute', attempt: effect.attempt }] };
      case 'reconcile': {
        job.stage = 'reconcile';
        job.startedAt ??= clock.now();
        if (effect.delayMs !== undefined) {
          log.warn('reconcile failed; retrying', { commandId, code: job.lastFailure });
          try {
            await clock.sleep(effect.delayMs, signal);
          } catch {
            return undefined;
          }
        }
        const event = await this.calls.reconcile(device, job, record, effect.retry ?? 0);
        return event && this.apply(commandId, event);
      }
    }
  }
}

/**
 * Phases a command passes through on its way in a few milliseconds, logged at debug: `received`
 * (the platform confirmed Received) and `starting` (its turn came, the start check reads it). A
 * receipt then logs four lines at info — taken in, sent to the device, its outcome, delivered —
 * instead of six, and the journal keeps every step in the command's timeline. Logging was a tenth
 * of the agent's CPU per receipt (issue 26, bench/RESULTS.md).
 */
const QUIET_PHASES: ReadonlySet<Phase> = new Set<Phase>(['received', 'starting']);

/** Log lines name a device beside its id (support reads names, tools read ids). */
function deviceNameField(
  devices: ReadonlyMap<string, EngineDevice>,
  deviceId: string,
): { deviceName?: string } {
  const name = devices.get(deviceId)?.name;
  return name ? { deviceName: name } : {};
}
