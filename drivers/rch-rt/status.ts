import type { Clock } from '../../src/clock.js';
import type { DeviceStatus, FactsOf } from '../../src/drivers-api/types.js';
import type { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { RtBoardBase } from '../fiscal-it/rt/board-base.js';
import type { DailyClosureOptions } from '../fiscal-it/rt/daily-closure.js';
import type { FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import { fiscalDayCard, staffFactsOf } from '../fiscal-it/rt/status-card.js';
import type { PrinterState } from './link.js';
import { rchFactWords as f, type rchLabels, rchStatusWords as s } from './messages-printer.js';

type Facts = FactsOf<typeof rchLabels>;

/**
 * An RT in service answers `<</?i/*3` `111000`: registered, activated, in RT mode, operating, not
 * revoked, not retired (rch-driver-js `src/printer/RTStatus.ts`; Leahcim12/optyker-web
 * `Emit-Receipt` refuses to print otherwise).
 */
export const RT_IN_SERVICE = '111000';

/**
 * What the status page, `doctor` and `/metrics` show of an RCH printer, under the fact names the
 * other RT families use (paper, cover, documentState …). From every answer: the flags paper end,
 * cover open, printer error (lyancoder/fiscal-printer `xml-RCH-http.ts`); from `<</?s` the key and
 * whether a document is open, from `<</?7` the closures made; once, the serial (`<</?m`), the
 * firmware (`<</?f`) and the RT state (`<</?i/*3`); each poll, the files waiting for the tax
 * agency (`<</?i/*5`, rch-driver-js `src/printer/InactivityAndPendings.ts`). The fiscal day is
 * the agent's own record (`fiscalDayCard`).
 */
export class StatusBoard extends RtBoardBase {
  private printer: Facts = {};
  private readonly info: Facts = {};
  private flags: Pick<PrinterState, 'paperEnd' | 'coverOpen' | 'printerError'> | undefined;
  private lastReceipt: string | undefined;
  private jobError: AgentError | undefined;

  constructor(
    clock: Clock,
    private readonly fiscal: { state: FiscalState; closure: DailyClosureOptions; timeZone: string },
  ) {
    super(clock);
  }

  noteReceipt(label: string): void {
    this.lastReceipt = label;
    this.jobError = undefined;
  }

  noteJobError(error: AgentError): void {
    this.jobError = error;
  }

  /** A status read, or the flags of any answer. */
  noteFlags(flags: Pick<PrinterState, 'paperEnd' | 'coverOpen' | 'printerError'>): void {
    this.touched();
    this.flags = { paperEnd: flags.paperEnd, coverOpen: flags.coverOpen, printerError: flags.printerError };
    this.printer.paper = flags.paperEnd ? f.paperOut() : f.paperOk();
    this.printer.cover = flags.coverOpen ? f.coverOpen() : f.coverClosed();
  }

  noteState(state: PrinterState): void {
    this.noteFlags(state);
    this.printer.key = state.mode;
    this.printer.documentState = state.idle ? f.noDocument() : f.documentOpen();
    if (state.z !== undefined) this.printer.zCount = state.z;
    if (state.doc !== undefined) this.printer.lastDocument = state.doc;
  }

  noteInfo(info: { serial?: string; firmware?: string; rtState?: string; filesToSend?: number }): void {
    if (info.serial) this.info.serialNumber = info.serial;
    if (info.firmware) this.info.firmware = info.firmware;
    if (info.rtState) this.info.rtState = info.rtState;
    if (info.filesToSend !== undefined) this.info.filesToSend = info.filesToSend;
  }

  snapshot(): DeviceStatus {
    const day = fiscalDayCard(this.fiscal, this.clock.now(), s);
    const warnings: Message[] = [];
    if (this.flags?.paperEnd) warnings.push(s.paperOut());
    if (this.flags?.coverOpen) warnings.push(s.coverOpen());
    if (this.flags?.printerError) warnings.push(s.printerError());
    const rt = this.info.rtState;
    if (typeof rt === 'string' && rt !== RT_IN_SERVICE) warnings.push(s.notInService({ state: rt }));
    if (this.settleWarning) warnings.push(this.settleWarning);
    if (this.jobError?.code === 'STATE_UNKNOWN') warnings.push(s.outcomeUnknown());
    else if (this.jobError) warnings.push(this.jobError.notes);
    warnings.push(...day.warnings);
    const facts: Facts = { ...this.printer, ...this.info, ...day.facts };
    if (this.lastReceipt) facts.lastReceipt = this.lastReceipt;
    const status: DeviceStatus = {
      connected: this.connected,
      summary: this.connected ? s.ready() : s.unreachable({ reason: this.failure ?? '—' }),
      warnings,
      facts,
      // The kit's one card: staff facts first, the rest folded.
      staffFacts: staffFactsOf(facts),
    };
    if (this.lastContact !== undefined) status.lastContact = this.lastContact;
    return status;
  }
}
