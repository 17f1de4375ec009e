import { statusOrUnavailable } from '../../src/drivers-api/status.js';
import type {
  DeviceStatus,
  Driver,
  DriverContext,
  ExecuteContext,
  Job,
  JobResult,
  Reconciliation,
} from '../../src/drivers-api/types.js';
import { AgentError, toAgentError } from '../../src/errors.js';
import { errorFields } from '../../src/log.js';
import { runPeriodically } from '../../src/periodic.js';
import type { HttpClient, HttpTlsOptions } from '../../src/transport/http.js';
import { httpTlsOptions } from '../../src/transport/tls-config.js';
import { type PrintCheckpoint, readCheckpoint } from './checkpoint.js';
import { type IppPrinterOptions, MAX_ANSWER_BYTES } from './config.js';
import { prepareDocument, printData } from './document.js';
import { JobFollower } from './follow.js';
import { IppClient, IppTransportError } from './ipp-client.js';
import { ippMessages } from './messages.js';
import { IppOperations } from './operations.js';
import { hasLocalAccount, usesLocalCups } from './owner-account.js';
import { configuredTargets, type PrinterTarget, resolvePrinter } from './printers.js';
import { Sender, stopped } from './send.js';
import { StatusBoard } from './status.js';

/**
 * The office printer driver: the platform's Printer commands (PDF and other documents in Base64)
 * as IPP jobs on CUPS queues or IPP Everywhere printers. See README.md for the exactly-once rules,
 * the size limit and the timeout policy.
 */
export class IppPrinterDriver implements Driver {
  private readonly board: StatusBoard;
  private readonly tls: HttpTlsOptions;
  private http: HttpClient | undefined;
  private ops: IppOperations | undefined;
  private poller: AbortController | undefined;

  constructor(
    private readonly options: IppPrinterOptions,
    private readonly ctx: DriverContext,
  ) {
    this.tls = httpTlsOptions(options.tls);
    if (options.tls?.insecure) ctx.log.warn('TLS verification of the printers is off (tls.insecure: true)');
    this.board = new StatusBoard(ctx.clock);
    for (const t of configuredTargets(options)) this.board.track(t.label, t.uri);
  }

  private operations(): IppOperations {
    if (!this.ops) {
      this.http = this.ctx.http({ tls: this.tls });
      this.ops = new IppOperations(new IppClient(this.http, MAX_ANSWER_BYTES));
    }
    return this.ops;
  }

  private parts() {
    const ops = this.operations();
    const deps = { ops, options: this.options, clock: this.ctx.clock, log: this.ctx.log, board: this.board };
    const follower = new JobFollower(deps);
    const sender = new Sender({ ...deps, follower, cupsQueueNames: () => this.cupsQueueNames() });
    return { follower, sender };
  }

  /**
   * Idempotent. Asks every configured printer for its state; rejects with DEVICE_UNAVAILABLE when
   * none answers (with no configured printer, only same-name CUPS queues, it asks nothing).
   */
  async open(signal: AbortSignal): Promise<void> {
    if (this.poller) return;
    await this.checkOwnerAccount();
    const targets = configuredTargets(this.options);
    if (targets.length > 0) {
      const { follower } = this.parts();
      const answers = await Promise.all(
        targets.map((t) => follower.refreshPrinter(t, signal).catch(() => undefined)),
      );
      if (signal.aborted) throw new AgentError('ABORTED', 'Opening the printers was stopped');
      if (answers.every((a) => a === undefined)) {
        const labels = targets.map((t) => t.label);
        throw new AgentError('DEVICE_UNAVAILABLE', `No printer answers (${labels.join(', ')})`, {
          notes:
            labels.length === 1
              ? ippMessages.doesNotAnswer({ printer: labels[0] as string })
              : ippMessages.noneAnswers({ printers: { list: labels } }),
          details: { nothingSent: true },
        });
      }
    }
    this.startPolling();
  }

  /** Warns (status and log, never a refusal) when a local CUPS would see an owner with no account. */
  private async checkOwnerAccount(): Promise<void> {
    if (!usesLocalCups(this.options) || (await hasLocalAccount(this.options.user)) !== false) return;
    const user = this.options.user;
    this.board.configurationProblem(ippMessages.ownerWithoutAccount({ user }));
    this.ctx.log.warn(
      'the jobs’ owner is not an account of this PC; a cancellation can stop a local CUPS 2.4.17',
      {
        user,
      },
    );
  }

  async execute(job: Job, ectx: ExecuteContext): Promise<JobResult> {
    const doc = prepareDocument(printData(job), this.options);
    const target = resolvePrinter(this.options, doc.printerName);
    this.board.track(target.label, target.uri);
    const { follower, sender } = this.parts();
    try {
      if (job.checkpoint !== undefined) {
        const resumed = await this.resume(job, ectx, target, sender, follower);
        if (resumed) return resumed;
      }
      const info = await sender.readyPrinter(target, ectx.signal);
      sender.checkCapabilities(target, info, doc);
      ectx.progress(0.1);
      const result = await sender.send(job, ectx, target, info, doc);
      const done: PrintCheckpoint = {
        ...(readCheckpoint(job.checkpoint) ?? {
          v: 1,
          printer: target.label,
          uri: target.uri,
          jobName: job.commandId,
          user: this.options.user,
          copies: doc.copies,
        }),
        phase: 'done',
        result,
      };
      await ectx.checkpoint(done, { final: true });
      return result;
    } catch (e) {
      const error = toAgentError(e);
      if (error.code !== 'COMMAND_INVALID' && error.code !== 'ABORTED') this.scheduleRefresh();
      throw error;
    }
  }

  /**
   * A job run again with a checkpoint (after a retry the engine allowed, or a `not-done`
   * reconciliation): the printer's job list is asked first, so a document that did arrive is
   * followed rather than sent twice. Resolves undefined when it is certainly not there.
   */
  private async resume(
    job: Job,
    ectx: ExecuteContext,
    target: PrinterTarget,
    sender: Sender,
    follower: JobFollower,
  ) {
    const cp = readCheckpoint(job.checkpoint);
    if (!cp) {
      throw new AgentError('STATE_UNKNOWN', 'Unreadable checkpoint', {
        notes: ippMessages.unreadableCheckpoint(),
      });
    }
    if (cp.phase === 'done' && cp.result) return cp.result;
    const follow = (jobId: number) =>
      follower.follow(
        { target: { ...target, label: cp.printer, uri: cp.uri }, jobId, copies: cp.copies },
        { signal: ectx.signal, onAbort: 'cancel', progress: (f) => ectx.progress(f) },
      );
    if (cp.jobId !== undefined) return follow(cp.jobId);
    let own: Awaited<ReturnType<Sender['findOwnJob']>>;
    try {
      own = await sender.findOwnJob({ ...target, uri: cp.uri }, cp.jobName, cp.upTime, ectx.signal);
    } catch (e) {
      if (ectx.signal.aborted) throw stopped();
      if (e instanceof IppTransportError) {
        throw new AgentError('DEVICE_UNAVAILABLE', `Cannot ask ${cp.printer} for its jobs: ${e.message}`, {
          notes: ippMessages.doesNotAnswerNothingMore({ printer: cp.printer }),
          details: { nothingSent: true },
        });
      }
      throw e;
    }
    if ('found' in own) {
      await ectx.checkpoint({ ...cp, phase: 'accepted', jobId: own.found.id } satisfies PrintCheckpoint);
      return follow(own.found.id);
    }
    return undefined;
  }

  async reconcile(job: Job, signal: AbortSignal): Promise<Reconciliation> {
    if (job.checkpoint === undefined) return { outcome: 'not-done' };
    const cp = readCheckpoint(job.checkpoint);
    if (!cp) {
      return {
        outcome: 'unknown',
        reason: ippMessages.unreadableCheckpointReason(),
      };
    }
    if (cp.phase === 'done' && cp.result) return { outcome: 'done', result: cp.result };
    const target: PrinterTarget = { name: cp.printer, label: cp.printer, uri: cp.uri, configured: true };
    const { follower, sender } = this.parts();
    let jobId = cp.jobId;
    try {
      if (jobId === undefined) {
        const own = await sender.findOwnJob(target, cp.jobName, cp.upTime, signal);
        if ('found' in own) jobId = own.found.id;
        else if (own.conclusive) return { outcome: 'not-done' };
        else
          return {
            outcome: 'unknown',
            reason: ippMessages.sentBut({ printer: cp.printer, why: own.reason }),
          };
      }
      const result = await follower.follow(
        { target, jobId, copies: cp.copies },
        { signal, onAbort: 'leave' },
      );
      return {
        outcome: 'done',
        result: { ...result, notes: ippMessages.confirmedAfterRestart({ sentence: result.notes }) },
      };
    } catch (e) {
      if (signal.aborted) throw e;
      if (e instanceof IppTransportError) {
        throw new AgentError('DEVICE_UNAVAILABLE', `Cannot ask ${cp.printer} about the job: ${e.message}`);
      }
      const error = toAgentError(e);
      if (error.code === 'STATE_UNKNOWN') return { outcome: 'unknown', reason: error.notes };
      return { outcome: 'failed', error };
    }
  }

  status(): DeviceStatus {
    return statusOrUnavailable(() => this.board.snapshot());
  }

  /** Idempotent: stops polling and releases connections. */
  async close(): Promise<void> {
    this.poller?.abort();
    this.poller = undefined;
    this.http?.close();
    this.http = undefined;
    this.ops = undefined;
  }

  private async cupsQueueNames(): Promise<string[]> {
    try {
      const queues = await this.operations().cupsQueues(this.options.cupsUrl, {
        timeoutMs: this.options.requestTimeoutMs,
        user: this.options.user,
      });
      return queues.map((q) => q.name).filter((n): n is string => typeof n === 'string');
    } catch {
      return [];
    }
  }

  private scheduleRefresh(): void {
    const { follower } = this.parts();
    for (const t of configuredTargets(this.options)) void follower.refreshPrinter(t).catch(() => undefined);
  }

  private startPolling(): void {
    const controller = new AbortController();
    this.poller = controller;
    if (this.options.statusIntervalMs === 0) return;
    void runPeriodically(
      async () => {
        const { follower } = this.parts();
        await Promise.all(
          configuredTargets(this.options).map((t) =>
            follower.refreshPrinter(t, controller.signal).catch(() => undefined),
          ),
        );
      },
      {
        clock: this.ctx.clock,
        signal: controller.signal,
        intervalMs: () =>
          this.board.isHealthy() ? this.options.statusIntervalMs : this.options.statusRetryMs,
        firstRun: 'after-interval',
        // Each printer's failed refresh is on the status board already; anything else is logged.
        onError: (e) => this.ctx.log.warn('printer status poll failed', errorFields(e)),
      },
    );
  }
}
