import type { Clock } from '../../clock.js';
import type { PlatformCommand } from '../../connector/model.js';
import type { Job, JobResult, Reconciliation } from '../../drivers-api/types.js';
import { AgentError, toAgentError } from '../../errors.js';
import { errorFields, type Logger } from '../../log.js';
import { type Message, readMessage } from '../../messages/message.js';
import { english } from '../../messages/render.js';
import type { AgentEvent } from '../../status-model.js';
import type { Journal } from '../journal/index.js';
import type { CommandRecord, MachineEvent, ReportedResult } from '../rules/index.js';
import { openCheckpoint, sealCheckpoint } from '../rules/index.js';
import type { EngineDevice, OutboxWriter } from './types.js';

/**
 * The calls a device turn makes to a driver — execute (with its progress and checkpoints) and
 * reconcile — each ending in the machine event that reports how it went. They decide nothing:
 * the machine decides what an outcome means, whether to retry and when.
 */

/** A command holding its device's turn. */
export interface ActiveJob {
  commandId: string;
  deviceId: string;
  controller: AbortController;
  stage: 'reread' | 'execute' | 'retry-wait' | 'reconcile';
  startedAt?: number;
  progress: number;
  lastSentAt: number;
  /** Device retries in this run (echoed back to the machine in a failure). */
  retries: number;
  /** The code of the last failure the machine chose to retry (for the retry's log line). */
  lastFailure?: string;
  /** The platform cancelled it: no more progress updates. */
  cancelled: boolean;
}

export function newJob(commandId: string, deviceId: string): ActiveJob {
  return {
    commandId,
    deviceId,
    controller: new AbortController(),
    stage: 'reread',
    progress: 0,
    lastSentAt: 0,
    retries: 0,
    cancelled: false,
  };
}

export interface DeviceCallsDeps {
  journal: Journal;
  outbox: OutboxWriter;
  clock: Clock;
  log: Logger;
  /** Minimum gap between two non-milestone progress updates of one command. */
  progressIntervalMs: number;
  emit: (event: AgentEvent) => void;
}

export class DeviceCalls {
  constructor(private readonly deps: DeviceCallsDeps) {}

  /** Runs the job on its driver: `executed`, or `failed` (never rejects). */
  async execute(device: EngineDevice, job: ActiveJob, record: CommandRecord, attempt: number) {
    const { journal, clock } = this.deps;
    const signal = job.controller.signal;
    job.stage = 'execute';
    job.startedAt ??= clock.now();
    job.progress = 0;
    job.lastSentAt = clock.now();
    let checkpointed = false;
    let settled = false;
    try {
      const input = jobFor(device, record, journal.commandForDriver(record), attempt);
      if ('unknown' in input) {
        // The device may have acted in an earlier run that this driver cannot read about.
        checkpointed = true;
        throw new AgentError('STATE_UNKNOWN', english(input.unknown));
      }
      await device.driver.open(signal);
      // The start (Processing, the attempt) is committed, not yet flushed: a driver acts only after
      // awaiting a checkpoint (the driver contract), and that checkpoint's flush puts the start on
      // disk with it. A power cut before it loses the start of a job that has not acted, which
      // then simply runs after the restart.
      const result = await device.driver.execute(input, {
        signal,
        progress: (fraction, options) => {
          if (!settled) this.progress(job, fraction, options?.milestone === true);
        },
        checkpoint: (value, options) => {
          if (settled) throw new AgentError('INTERNAL', 'checkpoint after the job ended');
          journal.setCheckpoint(job.commandId, sealCheckpoint(device, value));
          checkpointed = true;
          // A final checkpoint reaches the disk with the result (the outbox flushes before the
          // platform hears it, the next job's checkpoint before its device acts).
          return options?.final === true ? Promise.resolve() : journal.flush();
        },
      });
      settled = true;
      return { type: 'executed', result: reported(result) } satisfies MachineEvent;
    } catch (e) {
      settled = true;
      return this.failedEvent(job, e, checkpointed);
    }
  }

  /**
   * Asks the driver what became of a started job: `reconciled`, or `reconcileFailed` when it could
   * not be asked. A checkpoint the driver cannot read is never shown to it: the outcome is then
   * unknown. Resolves undefined when the job's signal fired (shutdown: the next start asks again).
   */
  async reconcile(
    device: EngineDevice,
    job: ActiveJob,
    record: CommandRecord,
    retriesUsed: number,
  ): Promise<MachineEvent | undefined> {
    const { journal, log } = this.deps;
    const signal = job.controller.signal;
    let outcome: Reconciliation;
    try {
      const input = jobFor(device, record, journal.commandForDriver(record), record.attempt);
      if ('unknown' in input) {
        log.warn('checkpoint not for this driver; the outcome is unknown', {
          commandId: job.commandId,
          device: job.deviceId,
          deviceName: device.name,
          reason: english(input.unknown),
        });
        outcome = { outcome: 'unknown', reason: input.unknown };
      } else {
        await this.openForReconcile(device, job);
        outcome = await device.driver.reconcile(input, signal);
      }
    } catch (e) {
      if (signal.aborted) return undefined;
      const error = toAgentError(e);
      job.lastFailure = error.code;
      return { type: 'reconcileFailed', error: error.toJSON(), retriesUsed };
    }
    log.info('reconciled', {
      commandId: job.commandId,
      device: job.deviceId,
      deviceName: device.name,
      outcome: outcome.outcome,
    });
    switch (outcome.outcome) {
      case 'failed':
        return { type: 'reconciled', outcome: 'failed', error: toAgentError(outcome.error).toJSON() };
      case 'done':
        return { type: 'reconciled', outcome: 'done', result: reported(outcome.result) };
      case 'unknown':
        return { type: 'reconciled', outcome: 'unknown', reason: readMessage(outcome.reason) };
      default:
        return { type: 'reconciled', outcome: 'not-done' };
    }
  }

  /**
   * Opens the device before a reconcile, but a device that cannot be opened does not stop it: the
   * driver answers from its checkpoint alone where that decides (drivers-api `reconcile`), and
   * rejects DEVICE_UNAVAILABLE itself where it needs the device, which the machine retries.
   */
  private async openForReconcile(device: EngineDevice, job: ActiveJob): Promise<void> {
    const signal = job.controller.signal;
    try {
      await device.driver.open(signal);
    } catch (e) {
      if (signal.aborted) throw e;
      this.deps.log.info('device not open; asking the driver from its checkpoint', {
        commandId: job.commandId,
        device: job.deviceId,
        ...errorFields(e),
      });
    }
  }

  failedEvent(job: ActiveJob, e: unknown, checkpointed: boolean): MachineEvent {
    const error = toAgentError(e);
    job.lastFailure = error.code;
    return {
      type: 'failed',
      error: error.toJSON(),
      // A checkpoint means the device may have acted, unless the driver says it provably did not.
      sideEffectPossible: checkpointed && error.details.nothingSent !== true,
      retriesUsed: job.retries,
    };
  }

  private progress(job: ActiveJob, fraction: number, milestone: boolean): void {
    const { journal, outbox, clock } = this.deps;
    if (job.cancelled || job.stage !== 'execute') return;
    const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
    job.progress = f;
    const now = clock.now();
    if (!milestone && now - job.lastSentAt < this.deps.progressIntervalMs) return;
    job.lastSentAt = now;
    try {
      journal.transaction(() => {
        journal.setProgress(job.commandId, f);
        outbox.add(
          { commandId: job.commandId, state: 'Processing', progress: f, progressOnly: true, milestone },
          now,
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
      this.deps.log.warn('progress not recorded', { commandId: job.commandId, ...errorFields(e) });
    }
  }
}

/** A driver's result with its Notes as a message (a driver may still say a plain sentence). */
function reported(result: JobResult): ReportedResult {
  return { ...result, notes: readMessage(result.notes) };
}

/**
 * The job the driver sees: the journaled command (with its document, `command`) and, opened from
 * its envelope, the checkpoint — or, when that checkpoint is not this driver's to read, why the
 * outcome is unknown.
 */
function jobFor(
  device: EngineDevice,
  record: CommandRecord,
  command: PlatformCommand | undefined,
  attempt: number,
): Job | { unknown: Message } {
  if (!command) throw new AgentError('INTERNAL', `Command ${record.id} has no journaled data to run`);
  const checkpoint = openCheckpoint(record, device);
  if (!checkpoint.ok) return { unknown: checkpoint.reason };
  const job: Job = {
    commandId: record.id,
    deviceId: record.deviceId,
    command,
    data: command.data,
    attempt,
  };
  if (checkpoint.data !== undefined) job.checkpoint = checkpoint.data;
  return job;
}
