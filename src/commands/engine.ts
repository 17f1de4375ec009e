import type { AgentEvent, AgentSnapshot, CommandSummary } from '../agent-api.js';
import { TERMINAL_STATES } from '../connector/wire.js';
import { AgentError } from '../errors.js';
import { DeviceTurns } from './device-turn.js';
import { Intake } from './intake.js';
import type { OutboxItem } from './journal-outbox.js';
import { Outbox } from './outbox.js';
import { DeviceQueues } from './queue.js';
import { type RereadDeps, rereadCommand } from './reread.js';
import { Runner } from './runner.js';
import { StartCheck } from './start-check.js';
import {
  DEFAULT_TUNING,
  type DeviceQueueState,
  type Engine,
  type EngineDevice,
  type EngineOptions,
  type EngineTuning,
  type PlatformActivity,
} from './types.js';

const DAY = 86_400_000;

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/**
 * Builds the command engine over a journal, the Connector API, an optional WebSocket and the
 * configured devices. The engine starts and stops the socket; it calls each driver's `open()`
 * (idempotent) before every execute/reconcile and never closes drivers: their owner does.
 */
export function createEngine(options: EngineOptions): Engine {
  return new CommandEngine(options);
}

class CommandEngine implements Engine {
  private readonly tuning: EngineTuning;
  private readonly devices: ReadonlyMap<string, EngineDevice>;
  private readonly outbox: Outbox;
  private readonly queues: DeviceQueues;
  private readonly runner: Runner;
  private readonly turns: DeviceTurns;
  private readonly intake: Intake;
  private readonly rereadDeps: RereadDeps;
  private readonly startCheck: StartCheck;
  /** Aborts the start checks' shared reads at shutdown. */
  private readonly checks = new AbortController();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly hardStop = new AbortController();
  private readonly background = new AbortController();
  private started = false;
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: EngineOptions) {
    const { journal, connector, clock, log } = options;
    this.tuning = { ...DEFAULT_TUNING, ...options.tuning };
    this.devices = new Map(options.devices.map((d) => [d.id, d]));
    this.rereadDeps = {
      connector,
      journal,
      ...(options.enterpriseIds ? { enterpriseIds: options.enterpriseIds } : {}),
    };
    const emit = (event: AgentEvent) => {
      try {
        options.onEvent?.(event);
      } catch (e) {
        log.warn('event listener failed', { error: e });
      }
    };
    this.outbox = new Outbox({
      journal,
      connector,
      clock,
      log: log.child({ component: 'outbox' }),
      tuning: this.tuning.outbox,
      onDelivered: (item) => this.runner.apply(item.commandId, { type: 'delivered', state: item.state }),
      verify: (item, error, signal) => this.verify(item, error, signal),
    });
    this.queues = new DeviceQueues((deviceId, commandId) => this.turns.run(deviceId, commandId), log);
    this.runner = new Runner({
      journal,
      outbox: this.outbox,
      queues: this.queues,
      devices: this.devices,
      clock,
      log,
      emit,
      abortJob: (id) => this.turns.abort(id, new AgentError('ABORTED', 'Cancelled on the platform'), true),
      sighted: (item) => this.startCheck.saw(item),
    });
    this.startCheck = new StartCheck({
      reread: this.rereadDeps,
      clock,
      freshMs: this.tuning.startCheckFreshMs,
      socketTrustMs: options.poll.safetyNetMs,
      waiting: () => this.queues.waiting(),
      signal: this.checks.signal,
    });
    this.turns = new DeviceTurns({
      runner: this.runner,
      journal,
      outbox: this.outbox,
      startCheck: this.startCheck,
      devices: this.devices,
      clock,
      log,
      tuning: this.tuning,
      emit,
      requeue: (deviceId, commandId) => {
        if (this.queues.running(deviceId) === commandId) return false;
        this.queues.add(deviceId, commandId);
        return true;
      },
    });
    const fiscal = options.devices.filter((d) => d.type === 'FiscalMachine').map((d) => d.id);
    const other = options.devices.filter((d) => d.type !== 'FiscalMachine').map((d) => d.id);
    this.intake = new Intake({
      connector,
      ...(options.socket ? { socket: options.socket } : {}),
      clock,
      log: log.child({ component: 'intake' }),
      poll: options.poll,
      ...(options.enterpriseIds ? { enterpriseIds: options.enterpriseIds } : {}),
      fiscalDeviceIds: fiscal,
      otherDeviceIds: other,
      debounceMs: this.tuning.debounceMs,
      authPauseMs: this.tuning.authPauseMs,
      sink: {
        ingest: (items, via) => this.runner.ingest(items, via),
        platformSays: (id, state) => this.runner.platformSays(id, state),
        platformMoved: (id) => this.startCheck.forget(id),
        listedActive: (source, present, since) => this.startCheck.absent(source, present, since),
        isKnown: (id) => journal.has(id),
      },
      onPlatformAnswered: () => this.outbox.platformAnswered(),
      onPlatformFailed: () => this.outbox.platformFailed(),
    });
  }

  async start(): Promise<void> {
    if (this.started) throw new AgentError('INTERNAL', 'The command engine was already started');
    this.started = true;
    const { journal, log, clock } = this.options;
    const pruned = journal.stats.prune(clock.now() - this.tuning.retentionDays * DAY);
    const recovered = this.runner.recover();
    log.info('command engine started', { ...recovered, pruned, outbox: journal.outbox.state().pending });
    this.outbox.start();
    const socket = this.options.socket;
    if (socket) {
      this.unsubscribe.push(
        socket.onConnected(() => this.startCheck.socketOpened()),
        socket.onDisconnected(() => this.startCheck.socketClosed()),
      );
    }
    socket?.start();
    this.intake.start();
    void this.pruneLoop();
  }

  stop(deadlineMs: number): Promise<void> {
    this.stopping ??= this.shutdown(deadlineMs);
    return this.stopping;
  }

  abortNow(): void {
    const reason = new AgentError('ABORTED', 'The agent stopped at once');
    this.hardStop.abort(reason);
    this.turns.abortAll(reason);
    void this.stop(0);
  }

  acceptCreated(commandId: string): Promise<void> {
    return this.intake.fetchByIds([commandId], 'created', 'normal');
  }

  deviceState(deviceId: string): DeviceQueueState {
    const queued = this.queues.queued(deviceId);
    const runningId = this.queues.running(deviceId);
    const job = runningId === undefined ? undefined : this.turns.jobs.get(runningId);
    if (!job || job.stage === 'reread' || job.startedAt === undefined) {
      return { queued: queued + (runningId === undefined ? 0 : 1) };
    }
    return {
      queued,
      running: { commandId: job.commandId, progress: job.progress, startedAt: job.startedAt },
    };
  }

  outboxState(): AgentSnapshot['outbox'] {
    return this.read(() => this.options.journal.outbox.state(), { pending: 0 });
  }

  recent(limit: number): CommandSummary[] {
    return this.read(() => this.options.journal.stats.recent(limit), []);
  }

  totals(): AgentSnapshot['totals'] {
    return this.read(() => this.options.journal.stats.totals(), {
      processed: 0,
      failed: 0,
      cancelled: 0,
      inFlight: 0,
    });
  }

  perMinute(): AgentSnapshot['perMinute'] {
    return this.read(() => this.options.journal.stats.perMinute(this.options.clock.now()), []);
  }

  platformActivity(): PlatformActivity {
    const activity = this.intake.activity;
    const outboxError = this.outbox.lastError;
    if (outboxError && (!activity.lastError || outboxError.at >= activity.lastError.at)) {
      activity.lastError = outboxError;
      if (outboxError.code === 'PLATFORM_AUTH') activity.authRejected = true;
    }
    const success = Math.max(activity.lastSuccessAt ?? 0, this.outbox.lastSuccessAt ?? 0);
    if (success > 0) activity.lastSuccessAt = success;
    const paused = this.outbox.pausedUntilMs;
    if (paused !== undefined) activity.outboxPausedUntil = paused;
    return activity;
  }

  /** Reads for the page never throw: a closed or failing journal reads as empty. */
  private read<T>(fn: () => T, fallback: T): T {
    if (this.options.journal.closed) return fallback;
    try {
      return fn();
    } catch (e) {
      this.options.log.warn('journal read failed', { error: e });
      return fallback;
    }
  }

  /**
   * The platform refused an update. `ours` when a re-read shows the command still active (or, for
   * a 409, merely not visible); `gone` otherwise — including a refused result of a command that
   * `commands/getAllByIds` no longer lists: nothing we send about it can be delivered.
   */
  private async verify(item: OutboxItem, error: AgentError, signal: AbortSignal): Promise<'gone' | 'ours'> {
    const { journal } = this.options;
    const record = journal.get(item.commandId);
    if (!record) {
      journal.outbox.dropCommand(item.commandId);
      return 'gone';
    }
    const result = await rereadCommand(this.rereadDeps, record, signal);
    // A state this agent does not know tells nothing about the refusal: keep the update.
    if (result.verdict === 'hold') return 'ours';
    const refusedResult = TERMINAL_STATES.includes(item.state) && error.code !== 'PLATFORM_CONFLICT';
    if (result.verdict === 'proceed' && (result.visible || !refusedResult)) return 'ours';
    const platformState = result.verdict === 'skip' ? result.platformState : undefined;
    this.runner.apply(record.id, { type: 'platformTerminal', platformState: platformState ?? 'Cancelled' });
    journal.outbox.dropCommand(record.id);
    return 'gone';
  }

  private async pruneLoop(): Promise<void> {
    const { clock, journal, log } = this.options;
    for (;;) {
      try {
        await clock.sleep(this.tuning.pruneEveryMs, this.background.signal);
      } catch {
        return;
      }
      const pruned = this.read(() => journal.stats.prune(clock.now() - this.tuning.retentionDays * DAY), 0);
      if (pruned > 0) log.info('journal pruned', { commands: pruned });
    }
  }

  /** Resolves true when `work` settled first, false when `ms` passed or a hard stop came. */
  private async within(work: Promise<unknown>, ms: number): Promise<boolean> {
    if (this.hardStop.signal.aborted) return false;
    if (ms <= 0) {
      const settledNow = await Promise.race([work.then(() => true), flushMicrotasks().then(() => false)]);
      return settledNow;
    }
    const timer = new AbortController();
    const onHard = () => timer.abort();
    this.hardStop.signal.addEventListener('abort', onHard, { once: true });
    try {
      return await Promise.race([
        work.then(() => true),
        this.options.clock.sleep(ms, timer.signal).then(
          () => false,
          () => false,
        ),
      ]);
    } finally {
      timer.abort();
      this.hardStop.signal.removeEventListener('abort', onHard);
    }
  }

  private async shutdown(deadlineMs: number): Promise<void> {
    const { log, journal } = this.options;
    this.background.abort();
    await this.intake.stop();
    await this.options.socket?.stop().catch((e: unknown) => log.warn('socket stop failed', { error: e }));
    this.queues.pause();
    // Re-reads have touched nothing yet: stop them now.
    this.turns.abortAll(new AgentError('ABORTED', 'The agent is shutting down'), ['reread']);
    this.checks.abort(new AgentError('ABORTED', 'The agent is shutting down'));
    for (const off of this.unsubscribe.splice(0)) off();
    let idle = await this.within(this.queues.idle(), Math.max(0, deadlineMs));
    if (!idle) {
      const running = [...this.turns.jobs.keys()];
      if (running.length > 0)
        log.warn('shutdown deadline passed; aborting running jobs', { commands: running });
      this.turns.abortAll(new AgentError('ABORTED', 'The agent stopped before the job finished'));
      idle = await this.within(this.queues.idle(), this.tuning.abortGraceMs);
    }
    if (!this.hardStop.signal.aborted) await this.within(this.outbox.settled(), this.tuning.shutdownFlushMs);
    await this.outbox.stop();
    try {
      journal.close();
    } catch (e) {
      log.error('journal did not close cleanly', { error: e });
    }
    log.info('command engine stopped', { jobsLeftRunning: idle ? 0 : this.turns.jobs.size });
  }
}
