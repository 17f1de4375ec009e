import type { Job } from '../../src/drivers-api/types.js';
import type { HttpClient } from '../../src/transport/http.js';
import type { DepartmentUse } from '../fiscal-it/model.js';
import { printerAddress } from '../fiscal-it/rt/address.js';
import { type PrinterCredentials, readPrinterCredentials } from '../fiscal-it/rt/credentials.js';
import {
  afterConfirmedClosure,
  closureOf,
  familyDeps,
  planContextOf,
  type RtClosure,
  type RtFamily,
  type RtHost,
  type RtParts,
  serialOf,
} from '../fiscal-it/rt/family.js';
import type { CloseDay } from '../fiscal-it/rt/fiscal-state.js';
import { rtKitWords } from '../fiscal-it/rt/messages.js';
import { ProgrammingCheck } from '../fiscal-it/rt/programming-check.js';
import { reconcileContextOf, rtReconcileWords, type SendingRecord } from '../fiscal-it/rt/reconcile.js';
import { type ActionHost, customActions } from './actions.js';
import { type Checkpoint, readCheckpoint } from './checkpoint.js';
import { type CustomRtOptions, vatSlotTable } from './config.js';
import { customDocument, type DocumentDeps } from './document.js';
import { readFilesWaiting } from './files.js';
import { basicAuth, customEndpoint } from './http.js';
import { CustomLink } from './link.js';
import { customRefusals, customResults } from './messages.js';
import { customVatWords } from './messages-vat.js';
import { type CustomPlan, fiscalData, planJob } from './plan.js';
import { closeDay, printXReport, type ReportDeps, settleClosure, zReportResult } from './reports.js';
import { printedResult } from './results.js';
import { StatusBoard } from './status.js';
import {
  compareSlots,
  readVatSlots,
  type SlotProgramming,
  slotRefusal,
  slotsFact,
  slotWarning,
} from './vat-slots.js';
import type { PrintedDocument } from './witnesses.js';
import { printPlanned, reprintLast, settlePendingVoid, staffVoid } from './work.js';

/**
 * The Custom RT family on the kit (`drivers/fiscal-it/rt/family.ts`): the XML protocol over
 * HTTP (README.md) — its link, its document, its witnesses, its codes and its words. The turn,
 * the checkpoint, the decision, the polls and the closure schedule are the kit's.
 */
export const customFamily: RtFamily<CustomRtOptions, CustomLink, CustomPlan> = {
  parts: (host) => new CustomParts(host),
};

/** The printer's account from the options: `credentials`, else `credentialsFile` (read once). */
export function accountOf(options: CustomRtOptions): PrinterCredentials | undefined {
  if (options.credentials) return options.credentials;
  return options.credentialsFile ? readPrinterCredentials(options.credentialsFile) : undefined;
}

class CustomParts implements RtParts<CustomLink, CustomPlan> {
  readonly board: StatusBoard;
  readonly refreshAfter: ReadonlySet<string> = new Set();
  readonly closure: RtClosure<CustomLink>;
  /**
   * The printer's VAT slots (vat-slots.ts, the kit's check): read at its first answer, again after
   * every Z report it confirms and once more before a line is refused.
   */
  private readonly check: ProgrammingCheck<CustomLink, SlotProgramming, DepartmentUse>;
  /** Every Z report of this printer — scheduled or staff — then the VAT slots read. */
  private readonly closeDay: CloseDay<ReportDeps>;
  readonly words = {
    addressUnknown: () => customRefusals.addressUnknown(),
    notAnswering: () => customRefusals.notAnswering(),
    busySettling: () => rtKitWords.busySettling(),
    closure: customResults,
  };

  /** The Basic account: configured, from `credentialsFile`, or undefined (the serial). */
  private readonly account: PrinterCredentials | undefined;

  constructor(private readonly host: RtHost<CustomRtOptions>) {
    this.account = accountOf(host.options);
    this.board = new StatusBoard(host.ctx.clock, {
      state: host.state,
      closure: host.options.dailyClosure,
      timeZone: host.ctx.timezone,
    });
    const table = () => vatSlotTable(host.options);
    this.check = new ProgrammingCheck({
      read: (link, signal) => readVatSlots(link, table(), signal),
      answered: (read) => read.kind !== 'unreachable',
      refusal: (lines, read) => slotRefusal(table(), lines, read),
      report: (read) => {
        const findings = read.kind === 'read' ? compareSlots(table(), read.slots) : [];
        if (findings.length > 0) {
          host.ctx.log.warn('the printer’s VAT slots differ from the driver’s vatSlots', {
            slots: findings.map((f) => f.slot),
          });
        }
        this.board.vatSlotsRead(slotsFact(read, findings), findings.map(slotWarning));
      },
      unanswered: () => customVatWords.recheckUnanswered(),
    });
    this.closeDay = afterConfirmedClosure(closeDay, async (d, signal) => {
      await this.check.read(d.link, signal);
    });
    this.closure = closureOf((link: CustomLink) => this.deps(link), this.closeDay, settleClosure);
  }

  checkAddress(address: string): void {
    customEndpoint(address);
  }

  link(address: string, http: HttpClient): CustomLink {
    return new CustomLink(address, this.host.options, http, this.host.ctx.log, () => this.authorization());
  }

  address(job: Job): string {
    return printerAddress(this.host.options, fiscalData(job).apiUrl, customRefusals);
  }

  async beforePlan(_job: Job, link: CustomLink, signal: AbortSignal): Promise<void> {
    if (!this.serial()) await this.learnSerial(link, signal);
  }

  plan(job: Job, signal: AbortSignal): Promise<CustomPlan> {
    const { ctx } = this.host;
    return planJob(job, this.host.options, planContextOf(this.host, signal, this.serial())).then((plan) => {
      for (const line of plan.log ?? []) ctx.log.info(line, { commandId: job.commandId });
      return plan;
    });
  }

  print(link: CustomLink, plan: CustomPlan, ectx: Parameters<RtParts<CustomLink, CustomPlan>['print']>[2]) {
    return printPlanned({ ...this.deps(link), check: this.check }, plan, ectx);
  }

  async refresh(link: CustomLink, signal?: AbortSignal): Promise<boolean> {
    if (!this.serial()) await this.learnSerial(link, signal);
    const response = await link.queryStatus(signal);
    if (!response) {
      this.board.unreachable(link.lastFailure ?? 'no answer');
      return false;
    }
    this.board.noteStatus(response);
    if (this.check.needsRead()) await this.check.read(link, signal);
    const files = await readFilesWaiting(link, signal);
    if (files) {
      this.board.noteFilesWaiting(files.waiting);
      this.host.state.filesWaiting(files.waiting, this.host.ctx.clock.now());
    }
    return true;
  }

  settleOnOpen(link: CustomLink, signal: AbortSignal): Promise<void> {
    return settlePendingVoid(this.deps(link), signal);
  }

  reconcile(job: Job, link: CustomLink | undefined) {
    const { ctx, options } = this.host;
    const deps = { clock: ctx.clock, log: ctx.log, board: this.board, options };
    return reconcileContextOf<Checkpoint>(
      deps,
      readCheckpoint(job.checkpoint),
      (c) => {
        if (!link) return 'no-address';
        const sent = { label: c.label, xml: '', ids: c.ids };
        const document = customDocument(this.deps(link), {
          ...sent,
          ...(c.expectedCents === undefined ? {} : { expectedCents: c.expectedCents }),
        });
        const result = (doc: PrintedDocument | undefined) =>
          printedResult({
            kind: c.label,
            z: doc?.z,
            doc: doc?.doc,
            dateTime: doc?.dateTime,
            serial: this.serial(),
            reference: c.reference,
            recovered: true,
          });
        return { document, baseline: c.baseline, sentAt: c.sentAt, result } as SendingRecord<
          unknown,
          unknown,
          unknown
        >;
      },
      rtReconcileWords(customResults),
    ) as ReturnType<RtParts<CustomLink, CustomPlan>['reconcile']>;
  }

  actions(turn: Parameters<RtParts<CustomLink, CustomPlan>['actions']>[0]) {
    const host: ActionHost = {
      xReport: () => turn((link) => printXReport(this.deps(link))),
      zReport: (signal) => turn((link) => zReportResult(this.deps(link), signal, this.closeDay)),
      voidReceipt: (params, signal) => turn((link) => staffVoid(this.deps(link), params, signal)),
      reprint: (params) => turn((link) => reprintLast(this.deps(link), params.receipt, this.lastReceipt())),
    };
    return customActions(host);
  }

  /** The serial: configured, else learnt from `getInfo` (XML p.69) and kept in the store. */
  private serial(): string | undefined {
    return serialOf(this.host);
  }

  /**
   * `getInfo` answers without authentication on the printers fiskaltrust met
   * (`CustomRTPrinterSCU.GetRTInfoAsync` asks it so before switching to serial:serial).
   */
  private async learnSerial(link: CustomLink, signal?: AbortSignal): Promise<void> {
    const info = await link.getInfo(signal);
    const serial = info?.success ? info.addInfo.serialNumber?.trim() : undefined;
    if (info?.success) this.board.noteInfo(info);
    if (serial && /^[0-9A-Za-z]{8,16}$/.test(serial)) this.host.ctx.store.set('serial', serial.toUpperCase());
  }

  private authorization(): string | undefined {
    const c = this.account;
    if (c) return basicAuth(c.user, c.password);
    const serial = this.serial();
    return serial ? basicAuth(serial, serial) : undefined;
  }

  private deps(link: CustomLink): DocumentDeps {
    return familyDeps(this.host, this.board, link);
  }

  private lastReceipt(): string | undefined {
    const facts = this.board.snapshot().facts;
    return typeof facts.lastReceipt === 'string' ? facts.lastReceipt : undefined;
  }
}
