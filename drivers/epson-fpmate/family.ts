import type { ExecuteContext, Job, JobResult } from '../../src/drivers-api/types.js';
import type { Message } from '../../src/messages/message.js';
import type { HttpClient } from '../../src/transport/http.js';
import { lawNotes } from '../fiscal-it/messages.js';
import {
  afterConfirmedClosure,
  closureOf,
  planContextOf,
  type RtClosure,
  type RtFamily,
  type RtHost,
  type RtParts,
  type Turn,
} from '../fiscal-it/rt/family.js';
import type { CloseDay } from '../fiscal-it/rt/fiscal-state.js';
import { rtKitWords } from '../fiscal-it/rt/messages.js';
import { reconcileContextOf, type SendingRecord } from '../fiscal-it/rt/reconcile.js';
import { departmentTable } from '../fiscal-it/rules.js';
import { epsonActions } from './actions.js';
import { printerAddress } from './address.js';
import { type Checkpoint, readCheckpoint } from './checkpoint.js';
import type { EpsonFpmateOptions } from './config.js';
import { fiscalStatus } from './fiscal-status.js';
import { printPlanned } from './fiscal-work.js';
import { fpmateEndpoint } from './http.js';
import { PrinterLink } from './link.js';
import { epsonPrinterWords } from './messages-printer.js';
import { epsonRefusals } from './messages-refusals.js';
import { epsonClosure, epsonResults, oneAfterAnother } from './messages-results.js';
import { fiscalData, type Plan, PrinterMemory, planJob } from './plan.js';
import { ProgrammingCheck } from './programming-check.js';
import { closeDay, printXReport, type ReportDeps, settleClosure } from './reports.js';
import { reprintReceipt } from './reprint.js';
import { recoveredResult } from './results.js';
import { epsonDocument, type SendDeps } from './send.js';
import { parseRtState, StatusBoard } from './status.js';
import { settlePendingAction, type VoidDeps, voidReceipt } from './void-receipt.js';

/**
 * The Epson RT family on the kit (`drivers/fiscal-it/rt/family.ts`): Fiscal ePOS-Print XML over
 * `fpmate.cgi` — its link, its document, its one witness (the last document, `directIO 1387`), its
 * codes and its words. The turn, the checkpoint, the decision, the polls and the closure
 * schedule are the kit's.
 */
export const epsonFamily: RtFamily<EpsonFpmateOptions, PrinterLink, Plan> = {
  parts: (host) => new EpsonParts(host),
};

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

class EpsonParts implements RtParts<PrinterLink, Plan> {
  readonly board: StatusBoard;
  readonly refreshAfter: ReadonlySet<string> = REFRESH_AFTER;
  /**
   * The printer's department programming (programming-check.ts): read at its first answer, again
   * after every Z report it confirms and once more before a line is refused.
   */
  private readonly check: ProgrammingCheck;
  /** Every Z report of this printer — scheduled, staff, day too long — then the programming read. */
  private readonly closeDay: CloseDay<ReportDeps>;
  readonly closure: RtClosure<PrinterLink>;
  readonly words = {
    addressUnknown: () => epsonRefusals.addressUnknown(),
    notAnswering: () => epsonRefusals.notAnswering(),
    busySettling: () => rtKitWords.busySettling(),
    closure: epsonClosure,
  };
  private readonly memory: PrinterMemory;
  /** The address of the last link made, for the status card. */
  private linkAddress: string | undefined;

  constructor(private readonly host: RtHost<EpsonFpmateOptions>) {
    const { ctx, options, state } = host;
    this.memory = new PrinterMemory(ctx.store, options.serialNumber);
    this.board = new StatusBoard(
      ctx.clock,
      () => {
        return this.linkAddress ? shown(this.linkAddress) : undefined;
      },
      (rt) =>
        fiscalStatus({
          rt,
          state,
          closure: options.dailyClosure,
          timeZone: ctx.timezone,
          now: ctx.clock.now(),
        }),
    );
    const serial = this.memory.serial();
    if (serial) this.board.noteSerial(serial);
    this.check = new ProgrammingCheck(
      () => departmentTable(options),
      (read) => {
        if (read.findings.length > 0) {
          ctx.log.warn('the printer’s department programming differs from the driver’s departments', {
            departments: read.findings.map((m) => m.department),
          });
        }
        this.board.programmingRead(read.programming, read.warnings);
      },
    );
    this.closeDay = afterConfirmedClosure(closeDay, async (d, signal) => {
      await this.check.read(d.link, signal);
    });
    this.closure = closureOf((link: PrinterLink) => this.reportDeps(link), this.closeDay, settleClosure);
  }

  checkAddress(address: string): void {
    fpmateEndpoint(address, this.host.options.devid, this.host.options.printerTimeoutMs);
  }

  link(address: string, http: HttpClient): PrinterLink {
    this.linkAddress = address;
    return new PrinterLink(address, this.host.options, http, this.host.ctx.log);
  }

  address(job: Job): string {
    return printerAddress(this.host.options, fiscalData(job).apiUrl);
  }

  /** A refund's reference names this printer: its serial is learnt first (3217, else 1387). */
  async beforePlan(job: Job, link: PrinterLink, signal: AbortSignal): Promise<void> {
    const doc = fiscalData(job).document;
    if (doc.type !== 'data' || !doc.isRefund || doc.printerSerialNumber || this.memory.serial()) return;
    const status = await link.queryStatus(signal);
    await this.learnSerial(link, status?.addInfo.rtType, signal);
    const last = this.memory.serial() ? undefined : await link.readLastDocument(signal);
    if (last) {
      this.memory.observe(last);
      this.board.noteSerial(last.serial);
    }
  }

  async plan(job: Job, signal: AbortSignal): Promise<Plan> {
    const { ctx, options } = this.host;
    const plan = await planJob(
      fiscalData(job),
      options,
      planContextOf(this.host, signal, this.memory.serial()),
    );
    for (const line of plan.log ?? []) ctx.log.info(line, { commandId: job.commandId });
    return plan;
  }

  async print(link: PrinterLink, plan: Plan, ectx: ExecuteContext): Promise<JobResult> {
    const reports = this.reportDeps(link);
    const result = await printPlanned(
      { ...reports, reports, check: this.check, closeDay: this.closeDay },
      plan,
      ectx,
    );
    const refused = result.details?.lotteryRefused === true ? [lawNotes.lotteryRefused()] : [];
    return withFiscalNotes(result, [...(plan.notes ?? []), ...refused]);
  }

  /** One status poll: state, the fiscal day, files waiting, the serial and the programming. */
  async refresh(link: PrinterLink, signal?: AbortSignal): Promise<boolean> {
    const response = await link.queryStatus(signal);
    if (!response) {
      this.board.unreachable(link.lastFailure ?? 'no answer');
      return false;
    }
    this.board.answered(response);
    const rt = parseRtState(response);
    const { state, ctx } = this.host;
    const now = ctx.clock.now();
    if (rt.dailyOpen === true) state.dayOpen(now, false);
    if (rt.dailyOpen === false) state.dayClosed();
    if (rt.filesToSend !== undefined || rt.oldFilesToSend !== undefined) {
      state.filesWaiting((rt.filesToSend ?? 0) + (rt.oldFilesToSend ?? 0), now);
    }
    if (!this.memory.serial()) await this.learnSerial(link, response.addInfo.rtType, signal);
    if (this.check.needsRead()) await this.check.read(link, signal);
    return true;
  }

  settleOnOpen(link: PrinterLink, signal: AbortSignal): Promise<void> {
    return settlePendingAction(this.voidDeps(link), signal);
  }

  reconcile(job: Job, link: PrinterLink | undefined) {
    const { ctx, options } = this.host;
    const checkpoint = readCheckpoint(job.checkpoint);
    const c =
      checkpoint.kind === 'ok' && checkpoint.checkpoint.phase === 'sending'
        ? checkpoint.checkpoint
        : undefined;
    const what =
      c?.label === 'refund' || c?.label === 'void' ? c.label : c?.kind === 'receipt' ? 'receipt' : 'document';
    const deps = { clock: ctx.clock, log: ctx.log, board: this.board, options };
    return reconcileContextOf<Checkpoint>(deps, checkpoint, (cp) => this.sendingRecord(cp, link), {
      stopped: (reason: Message) => epsonResults.stopped({ what, reason }),
      stoppedUnreadable: () => epsonResults.stoppedUnreadable(),
      noAddress: () => epsonResults.noAddress(),
      awayReason: (args: { minutes: number }) => epsonPrinterWords.awayReason(args),
    }) as ReturnType<RtParts<PrinterLink, Plan>['reconcile']>;
  }

  actions(turn: Turn<PrinterLink>) {
    return epsonActions({
      serial: () => this.memory.serial(),
      reprint: (params, signal) =>
        turn((link) =>
          reprintReceipt(
            {
              link,
              state: this.host.state,
              operator: this.host.options.operator,
              serial: () => this.memory.serial(),
            },
            params,
            signal,
          ),
        ),
      xReport: () => turn((link) => printXReport(this.reportDeps(link))),
      zReport: (signal) => turn((link) => this.closeDay(this.reportDeps(link), 'staff', signal)),
      voidReceipt: (params, signal) => turn((link) => voidReceipt(this.voidDeps(link), params, signal)),
    });
  }

  private sendingRecord(
    cp: Checkpoint,
    link: PrinterLink | undefined,
  ): SendingRecord<unknown, unknown, unknown> | 'no-address' {
    if (cp.phase !== 'sending') return 'no-address';
    if (cp.kind !== 'receipt') {
      return {
        document: {} as SendingRecord<unknown, unknown, unknown>['document'],
        baseline: null,
        sentAt: cp.sentAt,
        cannotTell: epsonResults.cannotTell(),
        result: () => ({ notes: epsonResults.cannotTell() }),
      };
    }
    if (!link) return 'no-address';
    const label = cp.label === 'refund' ? 'refund' : cp.label === 'void' ? 'void' : 'sale';
    const plan: Plan = { kind: 'receipt', label, root: 'printerFiscalReceipt', xml: '' };
    if (cp.expectedCents !== undefined) plan.expectedCents = cp.expectedCents;
    const document = epsonDocument(this.sendDeps(link), plan);
    return {
      document: document as unknown as SendingRecord<unknown, unknown, unknown>['document'],
      baseline: cp.baseline,
      sentAt: cp.sentAt,
      result: (found) =>
        recoveredResult(
          found as Parameters<typeof recoveredResult>[0],
          { kind: label, reference: cp.reference },
          this.memory.serial(),
          this.host.options.currency,
        ),
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

  private sendDeps(link: PrinterLink): SendDeps {
    const { ctx, options, state } = this.host;
    return { link, memory: this.memory, state, board: this.board, options, clock: ctx.clock, log: ctx.log };
  }

  private reportDeps(link: PrinterLink): ReportDeps {
    return { ...this.sendDeps(link), state: this.host.state };
  }

  private voidDeps(link: PrinterLink): VoidDeps {
    return {
      ...this.reportDeps(link),
      checkReferences: this.host.options.checkReferences,
      serial: async (signal) => {
        if (!this.memory.serial()) {
          const status = await link.queryStatus(signal);
          await this.learnSerial(link, status?.addInfo.rtType, signal);
        }
        return this.memory.serial();
      },
    };
  }
}
