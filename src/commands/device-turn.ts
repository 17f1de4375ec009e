import type { AgentEvent } from '../agent-api.js';
import type { Clock } from '../clock.js';
import type { Job, Reconciliation } from '../drivers-api/types.js';
import { AgentError, toAgentError } from '../errors.js';
import type { Logger } from '../log.js';
import type { CommandRecord, Journal } from './journal.js';
import type { MachineEvent } from './machine.js';
import type { Outbox } from './outbox.js';
import type { RereadResult } from './reread.js';
import type { DeviceEffect, Runner } from './runner.js';
import type { StartCheck } from './start-check.js';
import { StartHolds } from './start-hold.js';
import type { EngineDevice, EngineTuning } from './types.js';

/**
 * One command's turn on its device (the per-device queue's worker): re-read → execute (with
 * device retries) or reconcile, feeding each outcome back to the machine. At most one turn runs
 * per device, so a driver never sees `execute` and `reconcile` concurrently.
 */

export interface ActiveJob {
  commandId: string;
  deviceId: string;
  controller: AbortController;
  stage: 'reread' | 'execute' | 'retry-wait' | 'reconcile';
  startedAt?: number;
  progress: number;
  lastSentAt: number;
  retries: number;
  /** The platform cancelled it: no more progress updates. */
  cancelled: boolean;
}

export interface TurnDeps {
  runner: Runner;
  journal: Journal;
  outbox: Outbox;
  startCheck: StartCheck;
  devices: ReadonlyMap<string, EngineDevice>;
  clock: Clock;
  log: Logger;
  tuning: EngineTuning;
  emit: (event: AgentEvent) => void;
  /** Puts a held command back at the end of its device's queue; false while it still runs there. */
  requeue: (deviceId: string, commandId: string) => boolean;
}

export class DeviceTurns {
  readonly jobs = new Map<string, ActiveJob>();
  private readonly holds: StartHolds;

  constructor(private readonly deps: TurnDeps) {
    this.holds = new StartHolds({
      clock: deps.clock,
      log: deps.log,
      baseMs: deps.tuning.rereadRetryBaseMs,
      maxMs: deps.tuning.rereadRetryMaxMs,
      requeue: deps.requeue,
    });
  }

  /** The queue's worker. Never rejects. */
  readonly run = async (deviceId: string, commandId: string): Promise<void> => {
    const device = this.deps.devices.get(deviceId);
    if (!device) return;
    const job: ActiveJob = {
      commandId,
      deviceId,
      controller: new AbortController(),
      stage: 'reread',
      progress: 0,
      lastSentAt: 0,
      retries: 0,
      cancelled: false,
    };
    this.jobs.set(commandId, job);
    try {
      let effects = this.deps.runner.apply(commandId, { type: 'turn' }) ?? this.heldTurn(commandId);
      for (let effect = effects[0]; effect; effect = effects[0]) {
        effects = (await this.perform(device, job, effect)) ?? [];
      }
    } catch (e) {
      this.deps.log.warn('turn interrupted', { commandId, device: deviceId, error: toAgentError(e).message });
    } finally {
      this.jobs.delete(commandId);
    }
  };

  /** A held command's turn goes straight to the read (it is still `starting`). */
  private heldTurn(commandId: string): DeviceEffect[] {
    if (!this.holds.has(commandId)) return [];
    if (this.deps.journal.machineState(commandId)?.phase === 'starting') return [{ type: 'reread' }];
    this.holds.release(commandId);
    return [];
  }

  /** Fires a job's signal (the `abort` effect, or shutdown). */
  abort(commandId: string, reason: AgentError, cancelled: boolean): void {
    const job = this.jobs.get(commandId);
    if (!job) return;
    if (cancelled) job.cancelled = true;
    job.controller.abort(reason);
  }

  /** Aborts the jobs whose stage matches (all when omitted). */
  abortAll(reason: AgentError, stages?: ReadonlyArray<ActiveJob['stage']>): void {
    this.holds.stop();
    for (const job of this.jobs.values()) {
      if (!stages || stages.includes(job.stage)) job.controller.abort(reason);
    }
  }

  private async perform(device: EngineDevice, job: ActiveJob, effect: DeviceEffect) {
    const { runner, journal } = this.deps;
    const record = journal.get(job.commandId);
    if (!record) return undefined;
    switch (effect.type) {
      case 'reread': {
        job.stage = 'reread';
        const result = await this.rereadWithRetry(record, job.controller.signal);
        if (!result) return undefined;
        if (result.verdict === 'hold') {
          // Never a reason to start: out of the queue for a while, then read again.
          this.holds.hold(device.id, job.commandId, result.platformState);
          return undefined;
        }
        this.holds.release(job.commandId);
        const event: MachineEvent =
          result.verdict === 'proceed'
            ? { type: 'reread', verdict: 'proceed' }
            : result.platformState
              ? { type: 'reread', verdict: 'skip', platformState: result.platformState }
              : { type: 'reread', verdict: 'skip' };
        return runner.apply(
          job.commandId,
          event,
          result.verdict === 'proceed' && result.command ? { command: result.command } : {},
        );
      }
      case 'execute':
        return this.execute(device, job, record, effect.attempt);
      case 'retry': {
        job.stage = 'retry-wait';
        job.retries = effect.retry;
        try {
          await this.deps.clock.sleep(
            this.deps.tuning.deviceRetryBaseMs * 2 ** (effect.retry - 1),
            job.controller.signal,
          );
        } catch (e) {
          return runner.apply(job.commandId, this.failedEvent(job, e, false));
        }
        return [{ type: 'execute', attempt: effect.attempt }] satisfies DeviceEffect[];
      }
      case 'reconcile':
        return this.reconcile(device, job, record);
    }
  }

  private jobOf(record: CommandRecord, attempt: number): Job {
    if (!record.command)
      throw new AgentError('INTERNAL', `Command ${record.id} has no journaled data to run`);
    const job: Job = {
      commandId: record.id,
      deviceId: record.deviceId,
      command: record.command,
      data: record.command.data,
      attempt,
    };
    if (record.checkpoint !== undefined) job.checkpoint = record.checkpoint;
    return job;
  }

  private failedEvent(job: ActiveJob, e: unknown, checkpointed: boolean): MachineEvent {
    const error = toAgentError(e);
    return {
      type: 'failed',
      error: error.toJSON(),
      // A checkpoint means the device may have acted, unless the driver says it provably did not.
      sideEffectPossible: checkpointed && error.details.nothingSent !== true,
      retriesUsed: job.retries,
      maxRetries: this.deps.tuning.maxDeviceRetries,
    };
  }

  private async execute(device: EngineDevice, job: ActiveJob, record: CommandRecord, attempt: number) {
    const { runner, journal, clock } = this.deps;
    const signal = job.controller.signal;
    job.stage = 'execute';
    job.startedAt ??= clock.now();
    job.progress = 0;
    job.lastSentAt = clock.now();
    let checkpointed = false;
    let settled = false;
    try {
      const input = this.jobOf(record, attempt);
      await device.driver.open(signal);
      const result = await device.driver.execute(input, {
        signal,
        progress: (fraction, options) => {
          if (!settled) this.progress(job, fraction, options?.milestone === true);
        },
        checkpoint: (value) => {
          if (settled) throw new AgentError('INTERNAL', 'checkpoint after the job ended');
          journal.setCheckpoint(job.commandId, value);
          checkpointed = true;
        },
      });
      settled = true;
      return runner.apply(job.commandId, { type: 'executed', result });
    } catch (e) {
      settled = true;
      return runner.apply(job.commandId, this.failedEvent(job, e, checkpointed));
    }
  }

  private progress(job: ActiveJob, fraction: number, milestone: boolean): void {
    const { journal, outbox, clock, tuning } = this.deps;
    if (job.cancelled || job.stage !== 'execute') return;
    const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
    job.progress = f;
    const now = clock.now();
    if (!milestone && now - job.lastSentAt < tuning.progressIntervalMs) return;
    job.lastSentAt = now;
    try {
      journal.transaction(() => {
        journal.setProgress(job.commandId, f);
        journal.outbox.add(
          { commandId: job.commandId, state: 'Processing', progress: f, progressOnly: true, milestone },
          now,
          outbox.inFlight,
        );
      });
      outbox.wake();
      this.deps.emit({
        type: 'progress',
        at: now,
        commandId: job.commandId,
        deviceId: job.deviceId,
        fraction: f,
      });
    } catch (e) {
      this.deps.log.warn('progress not recorded', {
        commandId: job.commandId,
        error: toAgentError(e).message,
      });
    }
  }

  private async reconcile(device: EngineDevice, job: ActiveJob, record: CommandRecord) {
    const { clock, tuning, log, runner } = this.deps;
    const signal = job.controller.signal;
    job.stage = 'reconcile';
    job.startedAt ??= clock.now();
    let outcome: Reconciliation;
    for (let tries = 0; ; tries++) {
      try {
        const input = this.jobOf(record, record.attempt);
        await device.driver.open(signal);
        outcome = await device.driver.reconcile(input, signal);
        break;
      } catch (e) {
        const error = toAgentError(e);
        // Shutdown: leave it for the next start to reconcile.
        if (signal.aborted) return undefined;
        if (error.retryable && tries < tuning.maxDeviceRetries) {
          log.warn('reconcile failed; retrying', { commandId: job.commandId, code: error.code });
          try {
            await clock.sleep(tuning.deviceRetryBaseMs * 2 ** tries, signal);
          } catch {
            return undefined;
          }
          continue;
        }
        outcome = {
          outcome: 'unknown',
          reason: `the device could not be asked (${error.code}: ${error.message})`,
        };
        break;
      }
    }
    log.info('reconciled', { commandId: job.commandId, device: job.deviceId, outcome: outcome.outcome });
    const event: MachineEvent =
      outcome.outcome === 'failed'
        ? { type: 'reconciled', outcome: 'failed', error: toAgentError(outcome.error).toJSON() }
        : outcome.outcome === 'done'
          ? { type: 'reconciled', outcome: 'done', result: outcome.result }
          : outcome.outcome === 'unknown'
            ? { type: 'reconciled', outcome: 'unknown', reason: outcome.reason }
            : { type: 'reconciled', outcome: 'not-done' };
    return runner.apply(job.commandId, event);
  }

  /**
   * Re-reads until the platform answers. Resolves undefined when the command left `starting`
   * meanwhile (cancelled by a WebSocket event); rejects when the job's signal fires.
   */
  private async rereadWithRetry(
    record: CommandRecord,
    signal: AbortSignal,
  ): Promise<RereadResult | undefined> {
    const { clock, tuning, log, journal } = this.deps;
    for (let failures = 0; ; failures++) {
      try {
        return await this.deps.startCheck.check(record, signal);
      } catch (e) {
        if (signal.aborted) throw e;
        const error = toAgentError(e);
        const wait =
          error.code === 'PLATFORM_AUTH'
            ? tuning.authPauseMs
            : Math.min(tuning.rereadRetryMaxMs, tuning.rereadRetryBaseMs * 2 ** failures);
        log.warn('re-read before start failed; retrying', {
          commandId: record.id,
          code: error.code,
          waitMs: wait,
        });
        await clock.sleep(wait, signal);
        if (journal.machineState(record.id)?.phase !== 'starting') return undefined;
      }
    }
  }
}
