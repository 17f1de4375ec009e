import type { Clock } from '../../src/clock.js';
import { factTime } from '../../src/drivers-api/facts.js';
import type { DeviceStatus, FactsOf } from '../../src/drivers-api/types.js';
import type { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { RtBoardBase } from '../fiscal-it/rt/board-base.js';
import { nextOccurrence } from '../fiscal-it/rt/closure-time.js';
import type { DailyClosureOptions } from '../fiscal-it/rt/daily-closure.js';
import type { FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import { staffFactsOf } from '../fiscal-it/rt/status-card.js';
import { type customLabels, customFactWords as f, customStatusWords as s } from './messages-printer.js';
import type { CustomResponse } from './xml.js';

type Facts = FactsOf<typeof customLabels>;

/**
 * What the status page, `doctor` and `/metrics` show of a Custom printer, under the Epson
 * family's fact names (paper, cover, electronicJournal, documentState, fiscalDayOpen(Since),
 * certificateExpiryDevice …). From `queryPrinterStatus` (XML protocol manual rev 2.00 pp.107–109):
 * `printerStatus` is five flags S1–S5 — cover open, paper end, paper near end, journal full,
 * journal nearly full — and `fpStatus` three: fiscal receipt, non-fiscal, invoice open. From
 * `getInfo` (p.69): the serial, the Z count and the certificate's end (`certValidTo`, dd/mm/yyyy).
 */
export class StatusBoard extends RtBoardBase {
  private printer: Facts = {};
  private info: Facts = {};
  private lastReceipt: string | undefined;
  private jobError: AgentError | undefined;
  /** The VAT table as read (vat-slots.ts): the fact, and a warning per finding. */
  private vatTable: { fact: Message; warnings: Message[] } | undefined;

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

  /** A status answer (or any answer carrying the flags). */
  noteStatus(response: CustomResponse): void {
    this.touched();
    const flags = response.addInfo.printerStatus;
    if (flags && /^[01]{5}$/.test(flags)) {
      const [cover, paperEnd, paperLow, journalFull, journalLow] = [...flags].map((c) => c === '1');
      this.printer.cover = cover ? f.open() : f.closed();
      this.printer.paper = paperEnd ? f.out() : paperLow ? f.low() : f.ok();
      this.printer.electronicJournal = journalFull ? f.full() : journalLow ? f.nearlyFull() : f.ok();
      this.printer.printerStatus = flags;
    }
    const fp = response.addInfo.fpStatus;
    if (fp) {
      this.printer.documentState =
        fp === '100'
          ? f.receiptOpen()
          : fp === '010'
            ? f.nonFiscalOpen()
            : fp === '001'
              ? f.invoiceOpen()
              : f.noDocument();
    }
    if (response.addInfo.cpuRel) this.printer.firmware = response.addInfo.cpuRel;
  }

  /** What the read of the printer's VAT slots found (`getVatRate`, vat-slots.ts). */
  vatSlotsRead(fact: Message | undefined, warnings: Message[]): void {
    if (fact) this.vatTable = { fact, warnings };
  }

  /** Closures waiting to be sent to the tax agency (directIO 1514, files.ts). */
  noteFilesWaiting(count: number): void {
    this.info.filesToSend = count;
  }

  /** A `getInfo` answer. */
  noteInfo(response: CustomResponse): void {
    const serial = response.addInfo.serialNumber?.trim();
    if (serial) this.info.serialNumber = serial;
    const until = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(response.addInfo.certValidTo?.trim() ?? '');
    if (until) this.info.certificateExpiryDevice = `${until[3]}-${until[2]}-${until[1]}`;
  }

  snapshot(): DeviceStatus {
    const now = this.clock.now();
    const warnings: Message[] = [];
    if (this.printer.paper === undefined) {
      // nothing read yet
    } else if (String(this.printer.printerStatus ?? '').charAt(1) === '1') warnings.push(s.paperOut());
    else if (String(this.printer.printerStatus ?? '').charAt(2) === '1') warnings.push(s.paperLow());
    if (String(this.printer.printerStatus ?? '').charAt(0) === '1') warnings.push(s.coverOpen());
    if (String(this.printer.printerStatus ?? '').charAt(4) === '1') warnings.push(s.journalNearlyFull());
    if (this.vatTable) warnings.push(...this.vatTable.warnings);
    if (this.settleWarning) warnings.push(this.settleWarning);
    if (this.jobError?.code === 'STATE_UNKNOWN') warnings.push(s.outcomeUnknown());
    else if (this.jobError) warnings.push(this.jobError.notes);
    const facts: Facts = { ...this.printer, ...this.info };
    if (this.lastReceipt) facts.lastReceipt = this.lastReceipt;
    if (this.vatTable) facts.vatTable = this.vatTable.fact;
    const day = this.fiscal.state.fiscalDay();
    facts.fiscalDayOpen = day !== undefined;
    if (day) {
      facts.fiscalDayOpenSince = factTime(day.openSince);
      const hours = Math.floor((now - day.openSince) / 3_600_000);
      facts.fiscalDayOpenHours = hours;
      if (hours >= this.fiscal.closure.warnAfterHours) warnings.push(s.dayOpenLong({ hours }));
    }
    const closure = this.fiscal.closure;
    if (closure.enabled) {
      facts.dailyClosureAt = closure.at;
      facts.nextClosure = factTime(nextOccurrence(now, closure.at, this.fiscal.timeZone).at);
    }
    const closed = this.fiscal.state.lastClosure();
    if (closed) {
      facts.lastClosure = factTime(closed.at);
      facts.lastClosureStatus = closed.status;
      if (closed.z !== undefined) facts.lastClosureZ = closed.z;
      if (closed.status === 'failed') warnings.push(s.closureFailed({ detail: closed.detail }));
    }
    const action = this.fiscal.state.lastAction();
    if (action) facts.lastAction = action.notes;
    const status: DeviceStatus = {
      connected: this.connected,
      summary: this.connected ? s.ready() : s.unreachable({ reason: this.failure ?? '—' }),
      warnings,
      facts,
      // The kit's one card: staff facts first, the rest folded (the hours open among them).
      staffFacts: staffFactsOf(facts),
    };
    if (this.lastContact !== undefined) status.lastContact = this.lastContact;
    return status;
  }
}
