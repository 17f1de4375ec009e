import type { Job } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { HttpClient } from '../../src/transport/http.js';
import { rtActions } from '../fiscal-it/rt/actions.js';
import { printerAddress } from '../fiscal-it/rt/address.js';
import type { RtFamily, RtHost, RtParts } from '../fiscal-it/rt/family.js';
import { closureOf, familyDeps, planContextOf, serialOf } from '../fiscal-it/rt/family.js';
import { rtAddressWords, rtKitWords } from '../fiscal-it/rt/messages.js';
import { reconcileContextOf, rtReconcileWords, type SendingRecord } from '../fiscal-it/rt/reconcile.js';
import { type Checkpoint, readCheckpoint } from './checkpoint.js';
import { QUERY } from './commands.js';
import type { RchRtOptions } from './config.js';
import { type DocumentDeps, printedResult, rchDocument } from './document.js';
import { RchLink } from './link.js';
import { rchResults } from './messages.js';
import { fiscalData, planJob, type RchPlan } from './plan.js';
import { closeDay, printXReport, settleClosure, zReportResult } from './reports.js';
import { StatusBoard } from './status.js';
import type { PrintedDocument } from './witnesses.js';
import { printPlanned, settlePendingVoid, staffVoid } from './work.js';

/**
 * The RCH family on the kit (`drivers/fiscal-it/rt/family.ts`): RCH's web service (README.md) — its
 * link, its document, its witnesses and its words. The turn, the checkpoint, the decision, the
 * polls and the closure schedule are the kit's.
 */
export const rchFamily: RtFamily<RchRtOptions, RchLink, RchPlan> = {
  parts: (host) => new RchParts(host),
};

/** `<</?i/*5`: inactive flag, files pending / their maximum (rch-driver-js `src/printer/InactivityAndPendings.ts`). */
export function pendingFiles(value: string | undefined): number | undefined {
  const m = /^[01]\s*(\d{1,2})\/(?:11|25)\b/.exec(value?.trim() ?? '');
  return m ? Number(m[1]) : undefined;
}

class RchParts implements RtParts<RchLink, RchPlan> {
  readonly board: StatusBoard;
  readonly refreshAfter: ReadonlySet<string> = new Set(['PAPER_OUT', 'COVER_OPEN', 'DEVICE_ERROR']);
  readonly closure = closureOf((link: RchLink) => this.deps(link), closeDay, settleClosure);
  readonly words = {
    addressUnknown: () => rtAddressWords.addressUnknown(),
    notAnswering: () => rtAddressWords.notAnswering(),
    busySettling: () => rtKitWords.busySettling(),
    closure: rchResults,
  };
  /** The serial, firmware and RT state are read once. */
  private identified = false;

  constructor(private readonly host: RtHost<RchRtOptions>) {
    this.board = new StatusBoard(host.ctx.clock, {
      state: host.state,
      closure: host.options.dailyClosure,
      timeZone: host.ctx.timezone,
    });
  }

  checkAddress(address: string): void {
    let url: URL | undefined;
    try {
      url = new URL(address);
    } catch {
      url = undefined;
    }
    if (url?.protocol === 'http:' || url?.protocol === 'https:') return;
    const what = url ? rtAddressWords.addressNotHttp() : rtAddressWords.addressNotUrl();
    throw new AgentError('COMMAND_INVALID', 'The printer address is not an http(s) URL', {
      notes: rtAddressWords.addressRefused({ what }),
    });
  }

  link(address: string, http: HttpClient): RchLink {
    return new RchLink(address, this.host.options, http, this.host.ctx.log);
  }

  address(job: Job): string {
    return printerAddress(this.host.options, fiscalData(job).apiUrl, rtAddressWords);
  }

  async beforePlan(_job: Job, link: RchLink, signal: AbortSignal): Promise<void> {
    if (!this.serial()) await this.identify(link, signal);
  }

  async plan(job: Job, signal: AbortSignal): Promise<RchPlan> {
    const { ctx } = this.host;
    const serial = this.serial();
    const plan = await planJob(job, this.host.options, planContextOf(this.host, signal, serial));
    for (const line of plan.log ?? []) ctx.log.info(line, { commandId: job.commandId });
    return plan;
  }

  print(link: RchLink, plan: RchPlan, ectx: Parameters<RtParts<RchLink, RchPlan>['print']>[2]) {
    return printPlanned(this.deps(link), plan, ectx);
  }

  async refresh(link: RchLink, signal?: AbortSignal): Promise<boolean> {
    const read = await link.readState(signal);
    if (read.kind !== 'read') {
      if (read.kind === 'away') this.board.unreachable(read.reason);
      return read.kind !== 'away';
    }
    this.board.noteState(read.evidence);
    if (!this.identified) await this.identify(link, signal);
    const files = pendingFiles(await link.query(QUERY.pending, signal));
    if (files !== undefined) {
      this.board.noteInfo({ filesToSend: files });
      this.host.state.filesWaiting(files, this.host.ctx.clock.now());
    }
    return true;
  }

  settleOnOpen(link: RchLink, signal: AbortSignal): Promise<void> {
    return settlePendingVoid(this.deps(link), signal);
  }

  reconcile(job: Job, link: RchLink | undefined) {
    const { ctx, options } = this.host;
    return reconcileContextOf<Checkpoint>(
      { clock: ctx.clock, log: ctx.log, board: this.board, options },
      readCheckpoint(job.checkpoint),
      (c) => {
        if (!link) return 'no-address';
        const d = this.deps(link);
        const result = (document: PrintedDocument | undefined) =>
          printedResult(d, c, { document, recovered: true });
        const record: SendingRecord<unknown, unknown, unknown> = {
          document: rchDocument(d, c) as SendingRecord<unknown, unknown, unknown>['document'],
          baseline: c.baseline,
          sentAt: c.sentAt,
          result: result as (document: unknown) => ReturnType<typeof result>,
        };
        return record;
      },
      rtReconcileWords(rchResults),
    ) as ReturnType<RtParts<RchLink, RchPlan>['reconcile']>;
  }

  actions(turn: Parameters<RtParts<RchLink, RchPlan>['actions']>[0]) {
    return rtActions({
      xReport: (signal) => turn((link) => printXReport(this.deps(link), signal)),
      zReport: (signal) => turn((link) => zReportResult(this.deps(link), signal)),
      voidReceipt: (params, signal) => turn((link) => staffVoid(this.deps(link), params, signal)),
    });
  }

  /** The serial: configured, else read with `<</?m` (`identify`) and kept in the store. */
  serial(): string | undefined {
    return serialOf(this.host);
  }

  /** The serial (`<</?m`), the firmware (`<</?f`) and the RT state (`<</?i/*3`), once they answer. */
  private async identify(link: RchLink, signal?: AbortSignal): Promise<void> {
    const serial = (await link.query(QUERY.serial, signal))?.toUpperCase();
    if (serial && /^[0-9A-Z]{8,16}$/.test(serial)) this.host.ctx.store.set('serial', serial);
    const firmware = await link.query(QUERY.firmware, signal);
    const rtState = await link.query(QUERY.rtState, signal);
    this.board.noteInfo({
      ...(this.serial() ? { serial: this.serial() as string } : {}),
      ...(firmware ? { firmware } : {}),
      ...(rtState ? { rtState } : {}),
    });
    this.identified = serial !== undefined;
  }

  private deps(link: RchLink): DocumentDeps {
    return familyDeps(this.host, this.board, link);
  }
}
