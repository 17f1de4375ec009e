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
import type { Message } from '../../src/messages/message.js';
import { httpTlsOptions } from '../../src/transport/tls-config.js';
import { ClosureScheduler } from '../fiscal-it/rt/closure-scheduler.js';
import { FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import { PrinterLine } from '../fiscal-it/rt/printer-line.js';
import { departmentTable } from '../fiscal-it/rules.js';
import { type ActionHost, epsonActions } from './actions.js';
import { printerAddress } from './address.js';
import { type EpsonFpmateOptions, FROM_PLATFORM } from './config.js';
import { fiscalStatus } from './fiscal-status.js';
import { printPlanned, type WorkDeps } from './fiscal-work.js';
import { fpmateEndpoint } from './http.js';
import { PrinterLink } from './link.js';
import { epsonPrinterWords } from './messages-printer.js';
import { epsonRefusals } from './messages-refusals.js';
import { epsonClosure, epsonResults, oneAfterAnother } from './messages-results.js';
import { fiscalData, PrinterMemory, planJob } from './plan.js';
import { compareProgramming, mismatchWarning, type Programming, readProgramming } from './programming.js';
import { reconcileJob } from './reconcile.js';
import { closeDay, printXReport, type ReportDeps, settleClosure } from './reports.js';
import { reprintReceipt } from './reprint.js';
import { parseRtState, StatusBoard } from './status.js';
import { settlePendingAction, type VoidDeps, voidReceipt } from './void-receipt.js';

const REFRESH_AFTER = new Set([
  'DEVICE_UNAVAILABLE',
  'DEVICE_BUSY',
  'DEVICE_ERROR',
  'PAPER_OUT',
  'COVER_OPEN',
  'STATE_UNKNOWN',
]);

function shown(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return 'invalid address';
  }
}

/** A printed receipt's result with the fiscal core's sentences after its own Notes. */
function withFiscalNotes(result: JobResult, notes: readonly Message[] | undefined): JobResult {
  const more = oneAfterAnother(notes ?? []);
  return more ? { ...result, notes: epsonResults.withFiscalNotes({ notes: result.notes, more }) } : result;
}

/**
 * The Epson RT (fpmate) driver. Every exchange with the printer runs under one mutex, so a status
 * poll, the scheduled daily closure and a staff action never interleave with a receipt. See
 * README.md for the exactly-once rules and the fiscal day.
 */
export class EpsonFpmateDriver implements Driver {
  private readonly line: PrinterLine<PrinterLink>;
  private readonly board: StatusBoard;
  private readonly memory: PrinterMemory;
  private readonly state: FiscalState;
  private readonly scheduler: ClosureScheduler | undefined;
  private readonly actionList: readonly DeviceAction[];
  private opened = false;
  /** The printer's department programming, read at the first answer (programming.ts). */
  private programming: Programming | undefined;

  constructor(
    private readonly options: EpsonFpmateOptions,
    private readonly ctx: DriverContext,
  ) {
    const tls = httpTlsOptions(options.tls);
    if (options.tls?.insecure) {
      ctx.log.warn('TLS verification of the fiscal printer is off (tls.insecure: true)');
    }
    this.line = new PrinterLine({
      address: options.url === FROM_PLATFORM ? undefined : options.url,
      checkAddress: (address) => fpmateEndpoint(address, options.devid, options.printerTimeoutMs),
      http: () => ctx.http({ tls }),
      link: (address, http) => new PrinterLink(address, options, http, ctx.log),
      addressUnknown: () => epsonRefusals.addressUnknown(),
    });
    this.memory = new PrinterMemory(ctx.store, options.serialNumber);
    this.state = new FiscalState(ctx.store);
    this.board = new StatusBoard(
      ctx.clock,
      () => (this.line.address ? shown(this.line.address) : undefined),
      (rt) =>
        fiscalStatus({
          rt,
          state: this.state,
          closure: options.dailyClosure,
          timeZone: ctx.timezone,
          now: ctx.clock.now(),
        }),
    );
    const serial = this.memory.serial();
    if (serial) this.board.noteSerial(serial);
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
          words: epsonClosure,
        })
      : undefined;
    this.actionList = epsonActions(this.actionHost());
  }

  /**
   * Idempotent once it resolved. Starts the background work (status polls, the closure
   * schedule), then — with a configured address — checks that the printer answers and settles
   * what a kill left in flight (a Z report, a staff void). Rejects with DEVICE_UNAVAILABLE when
   * the printer does not answer (the background keeps polling).
   */
  async open(signal: AbortSignal): Promise<void> {
    if (this.opened) return;
    this.startBackground();
    const address = this.line.address;
    if (address) {
      const reachable = await this.line.mutex.run(() => this.refresh(signal));
      if (signal.aborted) throw new AgentError('ABORTED', 'Opening the printer was stopped');
      if (!reachable) {
        throw new AgentError('DEVICE_UNAVAILABLE', `Fiscal printer at ${shown(address)} does not answer`, {
          notes: epsonRefusals.notAnswering(),
        });
      }
      const link = this.line.currentLink();
      await this.line.mutex.run(async () => {
        await settlePendingAction(this.voidDeps(link), signal);
        // With a schedule, its first step settles a closure left in flight (and files the date).
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
    const fiscal = fiscalData(job);
    const link = this.line.linkFor(printerAddress(this.options, fiscal.apiUrl));
    return this.line.mutex.run(async () => {
      try {
        const doc = fiscal.document;
        if (doc.type === 'data' && doc.isRefund && !doc.printerSerialNumber && !this.memory.serial()) {
          // The refund's reference names this printer: learn its serial first (3217, else 1387).
          const status = await link.queryStatus(ectx.signal);
          await this.learnSerial(link, status?.addInfo.rtType, ectx.signal);
          const last = this.memory.serial() ? undefined : await link.readLastDocument(ectx.signal);
          if (last) {
            this.memory.observe(last);
            this.board.noteSerial(last.serial);
          }
        }
        const plan = await planJob(fiscal, this.options, {
          platform: this.ctx.platform,
          signal: ectx.signal,
          timeZone: this.ctx.timezone,
          now: this.ctx.clock.now(),
          ownSerial: this.memory.serial(),
        });
        for (const line of plan.log ?? []) this.ctx.log.info(line, { commandId: job.commandId });
        ectx.progress(0.2);
        return withFiscalNotes(await printPlanned(this.workDeps(link), plan, ectx), plan.notes);
      } catch (e) {
        const error = toAgentError(e);
        this.board.noteJobError(error);
        // The job's last exchange got no answer: status() says so now, not after the next poll.
        if (link.lastFailure) this.board.unreachable(link.lastFailure);
        if (REFRESH_AFTER.has(error.code)) this.scheduleRefresh();
        throw error;
      }
    });
  }

  reconcile(job: Job, signal: AbortSignal): Promise<Reconciliation> {
    return reconcileJob(
      {
        options: this.options,
        memory: this.memory,
        board: this.board,
        clock: this.ctx.clock,
        log: this.ctx.log,
        link: (j) => this.line.linkOrNone(() => printerAddress(this.options, fiscalData(j).apiUrl)),
        exclusive: (work) => this.line.mutex.run(work),
      },
      job,
      signal,
    );
  }

  status(): DeviceStatus {
    return statusOrUnavailable(() => this.board.snapshot());
  }

  /** Idempotent: stops the background work, waits for the exchange in progress, releases connections. */
  async close(): Promise<void> {
    this.opened = false;
    await this.line.close();
  }

  /** The fiscal work needs everything the reports need, and the reports themselves. */
  private workDeps(link: PrinterLink): WorkDeps {
    const reports = this.reportDeps(link);
    return { ...reports, reports, programming: this.programming };
  }

  private reportDeps(link: PrinterLink): ReportDeps {
    return {
      link,
      state: this.state,
      memory: this.memory,
      board: this.board,
      options: this.options,
      clock: this.ctx.clock,
      log: this.ctx.log,
    };
  }

  private voidDeps(link: PrinterLink): VoidDeps {
    return {
      ...this.workDeps(link),
      checkReferences: this.options.checkReferences,
      serial: async (signal) => {
        if (!this.memory.serial()) {
          const status = await link.queryStatus(signal);
          await this.learnSerial(link, status?.addInfo.rtType, signal);
        }
        return this.memory.serial();
      },
    };
  }

  private actionHost(): ActionHost {
    const guarded = <T>(work: (link: PrinterLink) => Promise<T>) => {
      // A document waits for the printer to come back (settle.ts): say so now, not in 15 minutes.
      if (this.board.isSettling()) {
        return Promise.reject(
          new AgentError('DEVICE_BUSY', 'A document waits for the printer to answer', {
            notes: epsonPrinterWords.busySettling(),
          }),
        );
      }
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
    };
    return {
      serial: () => this.memory.serial(),
      reprint: (params, signal) =>
        guarded((link) =>
          reprintReceipt(
            { link, state: this.state, operator: this.options.operator, serial: () => this.memory.serial() },
            params,
            signal,
          ),
        ),
      xReport: () => guarded((link) => printXReport(this.reportDeps(link))),
      zReport: (signal) => guarded((link) => closeDay(this.reportDeps(link), 'staff', signal)),
      voidReceipt: async (params, signal) => {
        try {
          const result = await guarded((link) => voidReceipt(this.voidDeps(link), params, signal));
          this.state.setLastAction({
            action: 'void',
            at: this.ctx.clock.now(),
            ok: true,
            notes: result.notes,
          });
          return result;
        } catch (e) {
          const error = toAgentError(e);
          if (error.code === 'STATE_UNKNOWN') {
            this.state.setLastAction({
              action: 'void',
              at: this.ctx.clock.now(),
              ok: false,
              notes: error.notes,
            });
          }
          throw error;
        }
      },
    };
  }

  /**
   * Learns the printer's serial: `directIO 3217` completed by the RT type of a status answer.
   * Best effort: without an RT type (an older fiscal memory) nothing is sent; the last-document
   * read carries the serial too.
   */
  private async learnSerial(
    link: PrinterLink,
    rtType: string | undefined,
    signal?: AbortSignal,
  ): Promise<void> {
    const serial = await link.readSerial(rtType, signal);
    if (!serial) return;
    this.memory.learnSerial(serial);
    this.board.noteSerial(serial);
  }

  /** One status poll (call under the mutex). Resolves false when the printer does not answer. */
  private async refresh(signal?: AbortSignal): Promise<boolean> {
    const address = this.line.address;
    if (!address) return false;
    const link = this.line.linkFor(address);
    const response = await link.queryStatus(signal);
    if (!response) {
      this.board.unreachable(link.lastFailure ?? 'no answer');
      return false;
    }
    this.board.answered(response);
    const rt = parseRtState(response);
    const now = this.ctx.clock.now();
    if (rt.dailyOpen === true) this.state.dayOpen(now, false);
    if (rt.dailyOpen === false) this.state.dayClosed();
    if (rt.filesToSend !== undefined || rt.oldFilesToSend !== undefined) {
      this.state.filesWaiting((rt.filesToSend ?? 0) + (rt.oldFilesToSend ?? 0), now);
    }
    if (!this.memory.serial()) await this.learnSerial(link, response.addInfo.rtType, signal);
    if (this.programming === undefined || this.programming.kind === 'unreachable') {
      await this.readProgramming(link, signal);
    }
    return true;
  }

  /** Reads the printer's department programming and puts what differs on the page (programming.ts). */
  private async readProgramming(link: PrinterLink, signal?: AbortSignal): Promise<void> {
    const table = departmentTable(this.options);
    const departments = Object.entries(table)
      .filter(([key]) => key !== '0')
      .map(([, department]) => department);
    this.programming = await readProgramming(link, departments, signal);
    const mismatches =
      this.programming.kind === 'read' ? compareProgramming(table, this.programming.departments) : [];
    if (mismatches.length > 0) {
      this.ctx.log.warn('the printer’s department programming differs from the driver’s departments', {
        departments: mismatches.map((m) => m.department),
      });
    }
    this.board.programmingRead(this.programming, mismatches.map(mismatchWarning));
  }

  private scheduleRefresh(): void {
    if (!this.line.address) return;
    void this.line.mutex.run(() => this.refresh()).catch(() => undefined);
  }

  private startBackground(): void {
    this.line.startBackground({
      clock: this.ctx.clock,
      scheduler: this.scheduler,
      intervalMs: this.options.statusIntervalMs,
      retryMs: this.options.statusRetryMs,
      connected: () => this.board.isConnected(),
      poll: (signal) => this.refresh(signal),
    });
  }
}
