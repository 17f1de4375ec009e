import { AgentError } from '../errors.js';
import { errorFields } from '../log.js';
import { messageRenderer } from '../messages/render.js';
import { drainMicrotasks } from '../microtasks.js';
import { runPeriodically } from '../periodic.js';
import type { AgentEvent, AgentSnapshot, CommandSummary, CutKeysRequest } from '../status-model.js';
import { CreatedCommands, Intake } from './intake/index.js';
import {
  DeliveredUpdates,
  OutboxDelivery,
  OutboxQueue,
  RefusedUpdates,
  RestoreConfirmation,
} from './outbox/index.js';
import { EffectExecutor, Lifecycle, Ownership, type RereadDeps } from './run/index.js';
import {
  commandRetryPolicyOf,
  DEFAULT_TUNING,
  type DeviceQueueState,
  type Engine,
  type EngineOptions,
  type EngineTuning,
  type PlatformActivity,
} from './types.js';

const DAY = 86_400_000;

/**
 * Builds the command engine over a journal, the Connector API, an optional WebSocket and the
 * configured devices. The engine starts and stops the socket; it calls each driver's `open()`
 * (idempotent) before every execute/reconcile and never closes drivers: their owner does.
 * How one command flows through the stages (`intake/`, `rules/`, `journal/`, `run/`, `outbox/`):
 * `src/commands/README.md`. The engine composes them through their front files and their named
 * ports; it holds no logic of theirs.
 */
export function createEngine(options: EngineOptions): Engine {
  return new CommandEngine(options);
}

class CommandEngine implements Engine {
  private readonly tuning: EngineTuning;
  private readonly outbox: OutboxQueue;
  private readonly lifecycle: Lifecycle;
  private readonly executor: EffectExecutor;
  private readonly ownership: Ownership;
  private readonly delivery: OutboxDelivery;
  private readonly intake: Intake;
  private readonly created: CreatedCommands;
  /** Aborts the start checks' shared reads at shutdown. */
  private readonly checks = new AbortController();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly hardStop = new AbortController();
  private readonly background = new AbortController();
  private started = false;
  private stopping: Promise<void> | undefined;
  private unreserve: (() => void) | undefined;

  /** The object graph, in dependency order: every part gets parts that exist already. */
  constructor(private readonly options: EngineOptions) {
    const { journal, connector, clock, log } = options;
    const tuning = { ...DEFAULT_TUNING, ...options.tuning };
    this.tuning = tuning;
    const devices = new Map(options.devices.map((d) => [d.id, d]));
    const reread: RereadDeps = {
      connector,
      journal,
      ...(options.enterpriseIds ? { enterpriseIds: options.enterpriseIds } : {}),
    };
    const emit = (event: AgentEvent) => {
      try {
        options.onEvent?.(event);
      } catch (e) {
        log.warn('event listener failed', errorFields(e));
      }
    };
    const notesIn = options.notesIn ?? messageRenderer('en');
    this.outbox = new OutboxQueue(journal, notesIn);
    this.lifecycle = new Lifecycle({
      journal,
      outbox: this.outbox,
      clock,
      log,
      policy: commandRetryPolicyOf(tuning),
      notesIn,
    });
    const executor = new EffectExecutor({
      lifecycle: this.lifecycle,
      journal,
      outbox: this.outbox,
      devices,
      reread,
      clock,
      log,
      tuning,
      socketTrustMs: options.poll.safetyNetMs,
      checksSignal: this.checks.signal,
      emit,
    });
    this.executor = executor;
    const { startCheck } = executor;
    this.ownership = new Ownership({ journal, executor, startCheck, devices, clock, log });
    this.delivery = new OutboxDelivery({
      journal,
      queue: this.outbox,
      connector,
      clock,
      log: log.child({ component: 'outbox' }),
      tuning: tuning.outbox,
      events: new DeliveredUpdates({ executor, restore: { journal, notesIn, outbox: this.outbox }, clock }),
      restores: new RestoreConfirmation(reread),
      judge: new RefusedUpdates({ journal, reread, executor }),
    });
    this.intake = new Intake({
      connector,
      ...(options.socket ? { socket: options.socket } : {}),
      clock,
      log: log.child({ component: 'intake' }),
      poll: options.poll,
      ...(options.enterpriseIds ? { enterpriseIds: options.enterpriseIds } : {}),
      fiscalDeviceIds: options.devices.filter((d) => d.type === 'FiscalMachine').map((d) => d.id),
      otherDeviceIds: options.devices.filter((d) => d.type !== 'FiscalMachine').map((d) => d.id),
      debounceMs: tuning.debounceMs,
      authPauseMs: tuning.authPauseMs,
      sink: this.ownership,
      observer: this.delivery,
    });
    this.created = new CreatedCommands({
      connector,
      enterpriseIds: options.enterpriseIds,
      keyCutterIds: options.devices.filter((d) => d.type === 'KeyCutter').map((d) => d.id),
      intake: this.intake,
      log,
    });
    // The fiscal poll's window vouches for every waiting fiscal command at once (issue 26).
    startCheck.vouchedBy('fiscalMachineCommands', (onlyIfDue) => this.intake.vouchFiscal(onlyIfDue));
  }

  async start(): Promise<void> {
    if (this.started) throw new AgentError('INTERNAL', 'The command engine was already started');
    this.started = true;
    const { journal, log, clock } = this.options;
    const pruned = journal.stats.prune(clock.now() - this.tuning.retentionDays * DAY);
    const recovered = this.ownership.recover();
    log.info('command engine started', { ...recovered, pruned, outbox: journal.outbox.state().pending });
    this.delivery.start();
    // Known work first: polls and fetches spend only what it leaves of the rate budget.
    this.unreserve = this.options.connector.reserve?.(() => this.knownWork());
    const socket = this.options.socket;
    if (socket) {
      this.unsubscribe.push(
        socket.onConnected(() => this.executor.startCheck.socketOpened()),
        socket.onDisconnected(() => this.executor.startCheck.socketClosed()),
      );
    }
    socket?.start();
    this.intake.start();
    void this.pruneLoop();
    void this.walLoop();
  }

  stop(deadlineMs: number): Promise<void> {
    this.stopping ??= this.shutdown(deadlineMs);
    return this.stopping;
  }

  abortNow(): void {
    const reason = new AgentError('ABORTED', 'The agent stopped at once');
    this.hardStop.abort(reason);
    this.executor.abortAll(reason);
    void this.stop(0);
  }

  cutKeys(order: CutKeysRequest): Promise<string> {
    return this.created.cutKeys(order);
  }

  deviceState(deviceId: string): DeviceQueueState {
    return this.executor.deviceState(deviceId);
  }

  outboxState(): AgentSnapshot['outbox'] {
    const state: AgentSnapshot['outbox'] = this.read(() => this.options.journal.outbox.state(), {
      pending: 0,
    });
    const trouble = state.pending > 0 ? this.delivery.trouble : undefined;
    if (trouble) state.trouble = trouble;
    return state;
  }

  deliverNow(): { pending: number; lifted: boolean } {
    const pending = this.outboxState().pending;
    return { pending, lifted: this.delivery.deliverNow() };
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
    const activity: PlatformActivity = this.intake.activity;
    const outboxError = this.delivery.lastError;
    if (outboxError && (!activity.lastError || outboxError.at >= activity.lastError.at)) {
      activity.lastError = outboxError;
      if (outboxError.code === 'PLATFORM_AUTH') activity.authRejected = true;
    }
    const success = Math.max(activity.lastSuccessAt ?? 0, this.delivery.lastSuccessAt ?? 0);
    if (success > 0) activity.lastSuccessAt = success;
    const paused = this.delivery.pausedUntilMs;
    if (paused !== undefined) activity.outboxPausedUntil = paused;
    return activity;
  }

  /**
   * Platform requests the work the engine knows of still needs: the updates waiting in the
   * outbox (not those already on their way) and those the queued and running commands will write.
   */
  private knownWork(): number {
    const { journal } = this.options;
    const waiting = this.read(() => journal.outbox.state().pending, 0) - this.outbox.sending.size;
    return Math.max(0, waiting) + this.executor.unwrittenUpdates();
  }

  /** Reads for the page never throw: a closed or failing journal reads as empty. */
  private read<T>(fn: () => T, fallback: T): T {
    if (this.options.journal.closed) return fallback;
    try {
      return fn();
    } catch (e) {
      this.options.log.repeated('journal read failed', 'journal', errorFields(e));
      return fallback;
    }
  }

  private pruneLoop(): Promise<void> {
    const { clock, journal, log } = this.options;
    return runPeriodically(
      () => {
        const pruned = this.read(() => journal.stats.prune(clock.now() - this.tuning.retentionDays * DAY), 0);
        if (pruned > 0) log.info('journal pruned', { commands: pruned });
      },
      {
        clock,
        signal: this.background.signal,
        intervalMs: this.tuning.pruneEveryMs,
        firstRun: 'after-interval',
        onError: (e) => log.warn('journal prune failed', errorFields(e)),
      },
    );
  }

  /** Empties the WAL now and then, so what closing a command deleted leaves the disk (issue 27). */
  private walLoop(): Promise<void> {
    const { clock, journal, log } = this.options;
    return runPeriodically(() => this.read(() => journal.truncateWal(), false), {
      clock,
      signal: this.background.signal,
      intervalMs: this.tuning.walTruncateEveryMs,
      firstRun: 'after-interval',
      onError: (e) => log.warn('journal checkpoint failed', errorFields(e)),
    });
  }

  /** Resolves true when `work` settled first, false when `ms` passed or a hard stop came. */
  private async within(work: Promise<unknown>, ms: number): Promise<boolean> {
    if (this.hardStop.signal.aborted) return false;
    if (ms <= 0) {
      const settledNow = await Promise.race([work.then(() => true), drainMicrotasks().then(() => false)]);
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
    await this.options.socket?.stop().catch((e: unknown) => log.warn('socket stop failed', errorFields(e)));
    const { queues, jobs } = this.executor;
    queues.pause();
    // Re-reads have touched nothing yet: stop them now.
    this.executor.abortAll(new AgentError('ABORTED', 'The agent is shutting down'), ['reread']);
    this.checks.abort(new AgentError('ABORTED', 'The agent is shutting down'));
    for (const off of this.unsubscribe.splice(0)) off();
    let idle = await this.within(queues.idle(), Math.max(0, deadlineMs));
    if (!idle) {
      const running = [...jobs.keys()];
      if (running.length > 0)
        log.warn('shutdown deadline passed; aborting running jobs', { commands: running });
      this.executor.abortAll(new AgentError('ABORTED', 'The agent stopped before the job finished'));
      idle = await this.within(queues.idle(), this.tuning.abortGraceMs);
    }
    if (!this.hardStop.signal.aborted)
      await this.within(this.delivery.settled(), this.tuning.shutdownFlushMs);
    await this.delivery.stop();
    this.unreserve?.();
    try {
      journal.close();
    } catch (e) {
      log.error('journal did not close cleanly', errorFields(e));
    }
    log.info('command engine stopped', { jobsLeftRunning: idle ? 0 : jobs.size });
  }
}
