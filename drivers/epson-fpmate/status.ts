import type { Clock } from '../../src/clock.js';
import { factDate } from '../../src/drivers-api/facts.js';
import type { sharedLabels } from '../../src/drivers-api/messages.js';
import type { DeviceStatus, FactsOf } from '../../src/drivers-api/types.js';
import type { AgentError } from '../../src/errors.js';
import type { Message, MessageArg } from '../../src/messages/message.js';
import { RtBoardBase } from '../fiscal-it/rt/board-base.js';
import { RT_STAFF_FACTS } from '../fiscal-it/rt/status-card.js';
import { reasonWords } from './http.js';
import { epsonPrinterWords as pw } from './messages-printer.js';
import {
  type epsonFiscalLabels,
  type epsonPrinterLabels,
  epsonFactWords as f,
  epsonStatusWords as w,
} from './messages-status.js';
import type { Programming } from './programming.js';
import {
  type DecodedPrinterStatus,
  type DocumentState,
  decodePrinterStatus,
  type JournalCondition,
  type PrinterCondition,
} from './protocol.js';
import type { FpmateResponse } from './xml-response.js';

/** The RT part of a `queryPrinterStatus statusType="1"` answer. */
export interface RtState {
  /** `rtMainStatus` and `rtSubStatus`: 02 = in service; 01 with 02…08 = the steps before it. */
  mainStatus?: string;
  subStatus?: string;
  /** `rtNoWorkingPeriod` 1: the printer waits for the daily closure (procassa `EpsonDecodeNoWorkingPeriod`). */
  waitingForClosure?: boolean;
  /** `mfStatus`: 02 in service, 01 not in service (fiskaltrust `Helpers.ParseStatus`). */
  fiscalMemory?: string;
  dailyOpen?: boolean;
  filesToSend?: number;
  oldFilesToSend?: number;
  filesRejected?: number;
  expiryCD?: string;
  expiryCA?: string;
  trainingMode?: boolean;
  rtType?: string;
}

const DAY_MS = 24 * 3600 * 1000;

function num(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

export function parseRtState(response: FpmateResponse): RtState {
  const a = response.addInfo;
  const rt: RtState = {};
  if (a.rtMainStatus) rt.mainStatus = a.rtMainStatus;
  if (a.rtSubStatus) rt.subStatus = a.rtSubStatus;
  if (a.rtNoWorkingPeriod !== undefined) rt.waitingForClosure = a.rtNoWorkingPeriod === '1';
  if (a.mfStatus) rt.fiscalMemory = a.mfStatus;
  if (a.rtDailyOpen !== undefined) rt.dailyOpen = a.rtDailyOpen === '1';
  const files = {
    filesToSend: a.rtFileToSend,
    oldFilesToSend: a.rtOldFileToSend,
    filesRejected: a.rtFileRejected,
  };
  for (const [key, value] of Object.entries(files)) {
    const n = num(value);
    if (n !== undefined) rt[key as 'filesToSend'] = n;
  }
  if (a.rtExpiryCD) rt.expiryCD = a.rtExpiryCD;
  if (a.rtExpiryCA) rt.expiryCA = a.rtExpiryCA;
  if (a.rtTrainingMode !== undefined) rt.trainingMode = a.rtTrainingMode === '1';
  if (a.rtType) rt.rtType = a.rtType;
  return rt;
}

/** A certificate expiry as the printer reports it (YYYYMMDD, DDMMYYYY, DDMMYY, YYYY-MM-DD). */
export function parseExpiry(text: string): Date | undefined {
  const t = text.trim();
  let y: number;
  let m: number;
  let d: number;
  const iso = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(t);
  const long = /^(\d{2})(\d{2})(\d{4})$/.exec(t);
  const short = /^(\d{2})(\d{2})(\d{2})$/.exec(t);
  if (iso && Number(iso[1]) >= 2000 && Number(iso[1]) < 2100)
    [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (long) [d, m, y] = [Number(long[1]), Number(long[2]), Number(long[3])];
  else if (short) [d, m, y] = [Number(short[1]), Number(short[2]), 2000 + Number(short[3])];
  else return undefined;
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  return new Date(Date.UTC(y, m - 1, d));
}

/** The printer's facts: its own state here, the fiscal day's from `fiscal-status.ts`. */
export type PrinterFacts = FactsOf<
  typeof sharedLabels & typeof epsonPrinterLabels & typeof epsonFiscalLabels
>;

const PRINTER_WORDS: Record<PrinterCondition, () => Message> = {
  ok: f.printerOk,
  'paper-low': f.printerPaperLow,
  offline: f.printerOffLine,
  unknown: f.printerUnknown,
};

const JOURNAL_WORDS: Record<JournalCondition, () => Message> = {
  ok: f.journalOk,
  'near-full': f.journalNearFull,
  'to-format': f.journalToFormat,
  previous: f.journalPrevious,
  'other-device': f.journalOtherDevice,
  full: f.journalFull,
  unknown: f.journalUnknown,
};

const DOCUMENT_WORDS: Record<DocumentState, () => Message> = {
  'fiscal-open': f.documentFiscalOpen,
  closed: f.documentClosed,
  'non-fiscal-open': f.documentNonFiscalOpen,
  'payment-in-progress': f.documentPaymentInProgress,
  'error-after-escpos': f.documentErrorAfterEscpos,
  'negative-receipt': f.documentNegativeReceipt,
  'fiscal-document-open': f.documentFiscalDocumentOpen,
  other: f.documentOther,
  unknown: f.documentUnknown,
};

/** A calendar date in a sentence, shown as a date in every zone (noon UTC of that day). */
export function dateWords(date: Date): MessageArg {
  return { at: date.getTime() + 12 * 3600_000, show: 'date' };
}

/**
 * The printer's picture for the status page, fed by status polls and job outcomes. Reading it
 * (`snapshot`) is cheap and never throws.
 */
export class StatusBoard extends RtBoardBase {
  private printer: DecodedPrinterStatus | undefined;
  private rt: RtState = {};
  private serial: string | undefined;
  private lastReceipt: string | undefined;
  private jobWarning: Message | undefined;
  /**
   * The last receipt failed with the printer's own "receipt paper end" (EPTR_REC_EMPTY), and no
   * answer since has shown paper in it: the `paperOut` fact. A status digit 3 alone ("off line")
   * may as well be the cover, so it does not count.
   */
  private paperEnd = false;
  /** The department programming as read (programming.ts): the fact, and a warning per mismatch. */
  private programming: { fact: Message; warnings: Message[] } | undefined;

  constructor(
    clock: Clock,
    private readonly address: () => string | undefined,
    /** The fiscal day, closure and transmission facts (fiscal-status.ts), computed per snapshot. */
    private readonly fiscal?: (rt: RtState) => { facts: PrinterFacts; warnings: Message[] },
  ) {
    super(clock);
  }

  /** What the last status answers said of the RT part. */
  rtState(): RtState {
    return { ...this.rt };
  }

  /** A status answer arrived. */
  answered(response: FpmateResponse): void {
    this.touched();
    const raw = response.addInfo.printerStatus ?? response.addInfo.fpStatus;
    if (raw) this.printer = decodePrinterStatus(raw);
    // Paper present: the printer says ready or paper low.
    if (this.printer?.printer === 'ok' || this.printer?.printer === 'paper-low') this.paperEnd = false;
    this.rt = { ...this.rt, ...parseRtState(response) };
    if (this.rt.dailyOpen === false) this.jobWarning = undefined;
  }

  noteSerial(serial: string): void {
    this.serial = serial;
  }

  noteReceipt(label: string): void {
    this.lastReceipt = label;
    this.jobWarning = undefined;
    this.paperEnd = false;
    // A fiscal document opens the fiscal day, whatever the last status answer said.
    this.rt = { ...this.rt, dailyOpen: true };
  }

  /** What the read of the printer's department programming found (`warnings`: its mismatches). */
  programmingRead(read: Programming, warnings: Message[]): void {
    if (read.kind === 'unreachable') return;
    const fact =
      read.kind === 'unreadable'
        ? pw.programmingUnreadable()
        : warnings.length > 0
          ? pw.programmingDiffers({ count: warnings.length })
          : pw.programmingMatches({ count: read.departments.size });
    this.programming = { fact, warnings };
  }

  /** The roll ran out after a receipt was recorded (EPTR_REC_EMPTY, counters past it). */
  paperRanOut(): void {
    this.paperEnd = true;
    this.jobWarning = w.paperRanOut();
  }

  /** Keeps what a failed job teaches about the printer (a closure overdue, paper out …). */
  noteJobError(error: AgentError): void {
    if (error.details.closureDue === true) {
      this.jobWarning = w.refusesReceipts();
    } else if (error.details.printerStatusCode === '17') {
      this.jobWarning = w.notPossibleNow();
    } else if (error.code === 'PAPER_OUT' || error.code === 'COVER_OPEN') {
      this.jobWarning = w.lastFailedPaper();
      // EPTR_REC_EMPTY is the printer's own "receipt paper end"; status 3 alone may be the cover.
      if (error.details.printerCode === 'EPTR_REC_EMPTY') this.paperEnd = true;
    } else if (error.code === 'STATE_UNKNOWN') {
      this.jobWarning = w.outcomeUnknown();
    }
  }

  snapshot(): DeviceStatus {
    const warnings: Message[] = this.settleWarning ? [this.settleWarning] : [];
    const p = this.printer;
    if (p?.printer === 'paper-low') warnings.push(w.paperLow());
    if (p?.printer === 'offline') warnings.push(w.offLine());
    if (p?.journal === 'near-full') warnings.push(w.journalNearlyFull());
    if (p?.journal === 'full') warnings.push(w.journalFull());
    const rt = this.rt;
    if (rt.filesRejected) warnings.push(w.filesRejected({ count: rt.filesRejected }));
    if (rt.oldFilesToSend) warnings.push(w.oldFilesToSend({ count: rt.oldFilesToSend }));
    if (rt.trainingMode) warnings.push(w.trainingMode());
    const expiries: Record<string, Date | undefined> = {};
    for (const [key, which, value] of [
      ['Device', 'device', rt.expiryCD],
      ['TaxAgency', 'taxAgency', rt.expiryCA],
    ] as const) {
      const when = value ? parseExpiry(value) : undefined;
      expiries[key] = when;
      if (when && when.getTime() - this.clock.now() < 30 * DAY_MS) {
        const date = dateWords(when);
        warnings.push(
          which === 'device' ? w.certificateExpiresDevice({ date }) : w.certificateExpiresTaxAgency({ date }),
        );
      }
    }
    const day = (d: Date | undefined) => (d ? factDate(d) : null);
    const daysLeft = (d: Date | undefined) =>
      d ? Math.floor((d.getTime() - this.clock.now()) / DAY_MS) : null;
    if (this.jobWarning) warnings.push(this.jobWarning);
    if (this.programming) warnings.push(...this.programming.warnings);
    const facts: PrinterFacts = {
      address: this.address() ?? null,
      reachable: this.connected,
      serial: this.serial ?? null,
      lastReceipt: this.lastReceipt ?? null,
      printer: p ? PRINTER_WORDS[p.printer]() : null,
      paper: p
        ? p.printer === 'offline'
          ? f.paperOutOrCoverOpen()
          : p.printer === 'paper-low'
            ? f.paperLow()
            : f.paperOk()
        : null,
      cover: p ? (p.printer === 'offline' ? f.coverOpenOrPaperOut() : f.coverClosed()) : null,
      paperOut: this.paperEnd ? true : p?.printer === 'ok' || p?.printer === 'paper-low' ? false : null,
      electronicJournal: p ? JOURNAL_WORDS[p.journal]() : null,
      documentState: p ? DOCUMENT_WORDS[p.document]() : null,
      printerStatus: p?.raw ?? null,
      fiscalDayOpen: rt.dailyOpen ?? null,
      filesToSend: rt.filesToSend ?? null,
      oldFilesToSend: rt.oldFilesToSend ?? null,
      filesRejected: rt.filesRejected ?? null,
      certificateExpiryDevice: day(expiries.Device) ?? rt.expiryCD ?? null,
      certificateExpiryTaxAgency: day(expiries.TaxAgency) ?? rt.expiryCA ?? null,
      certificateExpiryDeviceDays: daysLeft(expiries.Device),
      certificateExpiryTaxAgencyDays: daysLeft(expiries.TaxAgency),
      trainingMode: rt.trainingMode ?? null,
      departmentProgramming: this.programming?.fact ?? null,
    };
    if (this.fiscal) {
      const extra = this.fiscal(rt);
      Object.assign(facts, extra.facts);
      warnings.push(
        ...extra.warnings.filter((w) => !warnings.some((k) => JSON.stringify(k) === JSON.stringify(w))),
      );
    }
    const status: DeviceStatus = {
      connected: this.connected,
      summary: this.summary(),
      warnings,
      facts,
      staffFacts: RT_STAFF_FACTS,
    };
    if (this.lastContact !== undefined) status.lastContact = this.lastContact;
    return status;
  }

  private summary(): Message {
    if (!this.address()) return w.noAddressYet();
    if (!this.contacted) return w.notContacted();
    if (!this.connected)
      return w.unreachable({
        reason: this.failure === undefined ? w.noAnswer() : reasonWords(this.failure),
      });
    if (this.printer?.printer === 'offline') return w.offLineSummary();
    if (this.printer?.journal === 'full') return w.journalFullSummary();
    if (this.printer?.printer === 'paper-low') return w.readyPaperLow();
    return w.ready();
  }
}
