import { statusOrUnavailable } from '../../src/drivers-api/status.js';
import type {
  DeviceAction,
  DeviceStatus,
  Driver,
  DriverContext,
  ExecuteContext,
  Job,
  JobResult,
  Reconciliation,
} from '../../src/drivers-api/types.js';
import { AgentError, toAgentError } from '../../src/errors.js';
import { httpTlsOptions } from '../../src/transport/tls-config.js';
import { printerAddress } from '../fiscal-it/rt/address.js';
import { ClosureScheduler } from '../fiscal-it/rt/closure-scheduler.js';
import { FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import { PrinterLine } from '../fiscal-it/rt/printer-line.js';
import { customActions } from './actions.js';
import { type CustomRtOptions, FROM_PLATFORM } from './config.js';
import { readFilesWaiting } from './files.js';
import { basicAuth, customEndpoint } from './http.js';
import { CustomLink } from './link.js';
import { customRefusals, customResults } from './messages.js';
import { fiscalData, planJob } from './plan.js';
import { reconcileJob } from './reconcile.js';
import { closeDay, printXReport, type ReportDeps, settleClosure, zReportResult } from './reports.js';
import type { SendDeps } from './send.js';
import { StatusBoard } from './status.js';
import { printPlanned, reprintLast, settlePendingVoid, staffVoid } from './work.js';

/**
 * The Custom RT driver (XML protocol over HTTP, README.md). Every exchange with the printer runs
 * under its line's one mutex (`../fiscal-it/rt/printer-line.ts`): the printer takes one request at
 * a time, and a status poll, the scheduled closure and a staff action never interleave with a
 * receipt.
 */
export class CustomRtDriver implements Driver {
  private readonly line: PrinterLine<CustomLink>;
  private readonly board: StatusBoard;
  private readonly state: FiscalState;
  private readonly scheduler: ClosureScheduler | undefined;
  private readonly actionList: readonly DeviceAction[];
  private opened = false;

  constructor(
    private readonly options: CustomRtOptions,
    private readonly ctx: DriverContext,
  ) {
    const tls = httpTlsOptions(options.tls);
    if (options.tls?.insecure)
      ctx.log.warn('TLS verification of the fiscal printer is off (tls.insecure: true)');
    this.line = new PrinterLine({
      address: options.url === FROM_PLATFORM ? undefined : options.url,
      checkAddress: (address) => customEndpoint(address),
      http: () => ctx.http({ tls }),
      link: (address, http) => new CustomLink(address, options, http, ctx.log, () => this.authorization()),
      addressUnknown: () => customRefusals.addressUnknown(),
    });
    this.state = new FiscalState(ctx.store);
    this.board = new StatusBoard(ctx.clock, {
      state: this.state,
      closure: options.dailyClosure,
      timeZone: ctx.timezone,
    });
    this.scheduler = options.dailyClosure.enabled
      ? new ClosureScheduler({
          clock: ctx.clock,
          timeZone: ctx.timezone,
          options: options.dailyClosure,
          state: this.state,
          log: ctx.log.child({ component: 'daily-closure' }),
          ready: () => this.line.address !== undefined,
          close: (date, signal) =>
            this.line.mutex.run(() =>
              closeDay(this.reportDeps(this.line.currentLink()), 'schedule', signal, date),
            ),
          settle: (signal) =>
            this.line.mutex.run(() => settleClosure(this.reportDeps(this.line.currentLink()), signal)),
          words: customResults,
        })
      : undefined;
    this.actionList = customActions({
      xReport: () => this.guarded((link) => printXReport(this.reportDeps(link))),
      zReport: (signal) => this.guarded((link) => zReportResult(this.reportDeps(link), signal)),
      voidReceipt: (params, signal) => this.guarded((link) => staffVoid(this.sendDeps(link), params, signal)),
      reprint: (params) =>
        this.guarded((link) => reprintLast(this.sendDeps(link), params.receipt, this.lastReceipt())),
    });
  }

  /** Starts polls and the schedule; with a known address checks the printer and settles what a kill left. */
  async open(signal: AbortSignal): Promise<void> {
    if (this.opened) return;
    this.startBackground();
    const address = this.line.address;
    if (address) {
      const reachable = await this.line.mutex.run(() => this.refresh(signal));
      if (signal.aborted) throw new AgentError('ABORTED', 'Opening the printer was stopped');
      if (!reachable) {
        throw new AgentError(
          'DEVICE_UNAVAILABLE',
          `Fiscal printer at ${new URL(address).origin} does not answer`,
          {
            notes: customRefusals.notAnswering(),
          },
        );
      }
      const link = this.line.currentLink();
      await this.line.mutex.run(async () => {
        await settlePendingVoid(this.sendDeps(link), signal);
        if (!this.scheduler && this.state.closureInFlight() !== undefined)
          await settleClosure(this.reportDeps(link), signal);
      });
    }
    this.opened = true;
  }

  actions(): readonly DeviceAction[] {
    return this.actionList;
  }

  async execute(job: Job, ectx: ExecuteContext): Promise<JobResult> {
    const link = this.line.linkFor(printerAddress(this.options, fiscalData(job).apiUrl, customRefusals));
    return this.line.mutex.run(async () => {
      try {
        if (ectx.signal.aborted) throw new AgentError('ABORTED', 'Stopped before anything was sent');
        if (!this.serial()) await this.learnSerial(link, ectx.signal);
        const plan = await planJob(
          job,
          this.options,
          {
            platform: this.ctx.platform,
            signal: ectx.signal,
            timeZone: this.ctx.timezone,
            now: this.ctx.clock.now(),
            ownSerial: this.serial(),
          },
          this.serial(),
        );
        for (const line of plan.log ?? []) this.ctx.log.info(line, { commandId: job.commandId });
        ectx.progress(0.2);
        return await printPlanned(this.sendDeps(link), plan, ectx);
      } catch (e) {
        const error = toAgentError(e);
        this.board.noteJobError(error);
        if (link.lastFailure) this.board.unreachable(link.lastFailure);
        throw error;
      }
    });
  }

  reconcile(job: Job, signal: AbortSignal): Promise<Reconciliation> {
    const base = this.sendDeps(undefined as unknown as CustomLink);
    return reconcileJob(
      {
        ...base,
        link: (j) =>
          this.line.linkOrNone(() => printerAddress(this.options, fiscalData(j).apiUrl, customRefusals)),
        exclusive: (work) => this.line.mutex.run(work),
      },
      job,
      signal,
    );
  }

  status(): DeviceStatus {
    return statusOrUnavailable(() => this.board.snapshot());
  }

  async close(): Promise<void> {
    this.opened = false;
    await this.line.close();
  }

  /** The serial: configured, else learnt from `getInfo` (XML p.69) and kept in the store. */
  private serial(): string | undefined {
    if (this.options.serialNumber) return this.options.serialNumber.toUpperCase();
    const stored = this.ctx.store.get('serial');
    return typeof stored === 'string' && stored ? stored : undefined;
  }

  /**
   * `getInfo` answers without authentication on the printers fiskaltrust met
   * (`CustomRTPrinterSCU.GetRTInfoAsync` asks it so before switching to serial:serial).
   */
  private async learnSerial(link: CustomLink, signal?: AbortSignal): Promise<void> {
    const info = await link.getInfo(signal);
    const serial = info?.success ? info.addInfo.serialNumber?.trim() : undefined;
    if (info?.success) this.board.noteInfo(info);
    if (serial && /^[0-9A-Za-z]{8,16}$/.test(serial)) this.ctx.store.set('serial', serial.toUpperCase());
  }

  private authorization(): string | undefined {
    const c = this.options.credentials;
    if (c) return basicAuth(c.user, c.password);
    const serial = this.serial();
    return serial ? basicAuth(serial, serial) : undefined;
  }

  private sendDeps(link: CustomLink): SendDeps {
    return {
      link,
      options: this.options,
      clock: this.ctx.clock,
      log: this.ctx.log,
      board: this.board,
      state: this.state,
      serial: () => this.serial(),
    };
  }

  private reportDeps(link: CustomLink): ReportDeps {
    return { ...this.sendDeps(link) };
  }

  private lastReceipt(): string | undefined {
    const facts = this.board.snapshot().facts;
    return typeof facts.lastReceipt === 'string' ? facts.lastReceipt : undefined;
  }

  private guarded<T>(work: (link: CustomLink) => Promise<T>): Promise<T> {
    return this.line.mutex.run(async () => {
      const link = this.line.currentLink();
      try {
        return await work(link);
      } catch (e) {
        const error = toAgentError(e);
        this.board.noteJobError(error);
        throw error;
      }
    });
  }

  /** One status poll (under the mutex); false when the printer does not answer. */
  private async refresh(signal?: AbortSignal): Promise<boolean> {
    const address = this.line.address;
    if (!address) return false;
    const link = this.line.linkFor(address);
    if (!this.serial()) await this.learnSerial(link, signal);
    const response = await link.queryStatus(signal);
    if (!response) {
      this.board.unreachable(link.lastFailure ?? 'no answer');
      return false;
    }
    this.board.noteStatus(response);
    const files = await readFilesWaiting(link, signal);
    if (files) {
      this.board.noteFilesWaiting(files.waiting);
      this.state.filesWaiting(files.waiting, this.ctx.clock.now());
    }
    return true;
  }

  private startBackground(): void {
    this.line.startBackground({
      clock: this.ctx.clock,
      scheduler: this.scheduler,
      intervalMs: this.options.statusIntervalMs,
      retryMs: this.options.statusRetryMs,
      connected: () => this.board.snapshot().connected,
      poll: (signal) => this.refresh(signal),
    });
  }
}
