import type { Clock } from '../../src/clock.js';
import {
  formatLastDocument,
  formatSerialAnswer,
  LAST_DOCUMENT_COMMAND,
  rtTypeOf,
  SERIAL_COMMAND,
} from './last-document.js';
import { localDateTime } from './protocol.js';
import type { DocumentReference } from './reference.js';
import {
  type CheckedReceipt,
  checkReceipt,
  type PrintedLine,
  type PrintedPayment,
  type SimElement,
  SimRefusal,
} from './simulator-receipt.js';
import { type AddInfo, commaAmount, failureXml, responseXml } from './simulator-xml.js';

/** One document the simulated printer emitted. */
export interface PrintedDocument {
  kind: 'sale' | 'refund' | 'void' | 'non-fiscal' | 'z-report';
  /** Z (daily closure) number; for a z-report, the closure it made. */
  z: number;
  /** Document number within the Z (non-fiscal documents have their own numbering). */
  doc: number;
  at: number;
  /** "yyyy-MM-dd HH:mm" in the printer's time zone. */
  dateTime: string;
  serial: string;
  totalCents: number;
  header: string[];
  lines: PrintedLine[];
  payments: PrintedPayment[];
  reference?: DocumentReference;
  /** Non-fiscal text lines. */
  text?: string[];
  refundedCents: number;
  voided: boolean;
}

/** The switches of the simulated printer (see `setFault`). */
export interface Faults {
  paperOut?: boolean;
  paperLow?: boolean;
  coverOpen?: boolean;
  busy?: boolean;
  /** Documents are printed, then answered LAN_TIME_OUT (fpmate lost the fiscal unit mid-document). */
  timeOutAfterPrint?: boolean;
  slow?: { ms: number };
  /** Every answer is `bytes` of junk, streamed (documents are printed first). */
  oversizedAnswer?: { bytes: number };
  /** Every answer breaks off half-way (documents are printed first). */
  truncatedAnswer?: boolean;
  dropAfterPrint?: boolean;
  dropBeforePrint?: boolean;
  refused?: boolean;
  journalNearFull?: boolean;
  dayOpenOver24h?: boolean;
  lastDocUnreadable?: boolean;
  trainingMode?: boolean;
  rtFiles?: { toSend?: number; old?: number; rejected?: number };
}

export interface SimPrinterOptions {
  serial: string;
  clock: Clock;
  timeZone: string;
  expiryCD: string;
  expiryCA: string;
}

const DAY_MS = 24 * 3600 * 1000;
const two = (n: number) => String(n).padStart(2, '0');

/** The fiscal memory and rules of the simulated RT printer (no I/O). */
export class SimPrinter {
  readonly printed: PrintedDocument[] = [];
  readonly counters = { z: 1, doc: 0 };
  private nonFiscal = 0;
  private dayOpenedAt: number | undefined;
  private lastEmitted: PrintedDocument | undefined;

  constructor(
    private readonly o: SimPrinterOptions,
    private readonly faults: Faults,
  ) {}

  printerStatus(): string {
    const paper = this.faults.paperOut || this.faults.coverOpen ? '3' : this.faults.paperLow ? '2' : '0';
    return `${paper}${this.faults.journalNearFull ? '1' : '0'}110`;
  }

  /** Handles one root; returns the answer and whether a document was emitted. */
  handle(root: string, elements: SimElement[]): { xml: string; printed: boolean } {
    try {
      switch (root) {
        case 'printerFiscalReceipt':
          return { xml: this.receipt(elements), printed: true };
        case 'printerNonFiscal':
          return { xml: this.nonFiscalDocument(elements), printed: true };
        case 'printerFiscalReport':
          return { xml: this.report(elements), printed: true };
        case 'printerCommand':
          return { xml: this.command(elements), printed: false };
        default:
          throw new SimRefusal('Non valid XML command');
      }
    } catch (e) {
      if (!(e instanceof SimRefusal)) throw e;
      return { xml: failureXml(e.code, e.status, this.printerStatus()), printed: false };
    }
  }

  private now() {
    const at = this.o.clock.now();
    return { at, local: localDateTime(new Date(at), this.o.timeZone) };
  }

  private canPrint(fiscal: boolean): void {
    if (this.faults.paperOut) throw new SimRefusal('EPTR_REC_EMPTY');
    if (this.faults.coverOpen) throw new SimRefusal('PRINTER ERROR', '3');
    const overdue = this.dayOpenedAt !== undefined && this.o.clock.now() - this.dayOpenedAt > DAY_MS;
    if (fiscal && (this.faults.dayOpenOver24h || overdue)) throw new SimRefusal('PRINTER ERROR', '17');
  }

  private emit(
    doc: Omit<PrintedDocument, 'at' | 'dateTime' | 'serial' | 'refundedCents' | 'voided'>,
  ): PrintedDocument {
    const { at, local } = this.now();
    const dateTime = `${local.year}-${two(local.month)}-${two(local.day)} ${two(local.hour)}:${two(local.minute)}`;
    const full: PrintedDocument = {
      ...doc,
      at,
      dateTime,
      serial: this.o.serial,
      refundedCents: 0,
      voided: false,
    };
    this.printed.push(full);
    if (doc.kind !== 'z-report') this.lastEmitted = full;
    return full;
  }

  private receipt(elements: SimElement[]): string {
    this.canPrint(true);
    const checked = checkReceipt(elements);
    const target = checked.reference ? this.referenced(checked) : undefined;
    this.dayOpenedAt ??= this.o.clock.now();
    this.counters.doc += 1;
    const total = checked.kind === 'void' && target ? target.totalCents : checked.totalCents;
    const doc = this.emit({
      ...checked,
      kind: checked.kind,
      z: this.counters.z,
      doc: this.counters.doc,
      totalCents: total,
    });
    if (target && checked.kind === 'void') target.voided = true;
    if (target && checked.kind === 'refund') target.refundedCents += checked.totalCents;
    const { local } = this.now();
    return responseXml(true, '', '2', [
      ['lastCommand', '74'],
      ['printerStatus', this.printerStatus()],
      ['fiscalReceiptNumber', String(doc.doc)],
      ['fiscalReceiptAmount', commaAmount(doc.totalCents)],
      ['fiscalReceiptDate', `${local.day}/${local.month}/${local.year}`],
      ['fiscalReceiptTime', `${two(local.hour)}:${two(local.minute)}`],
      ['zRepNumber', String(doc.z)],
    ]);
  }

  /** Checks a refund/void reference like an RT: statuses 39–42. Foreign serials cannot be checked. */
  private referenced(checked: CheckedReceipt): PrintedDocument | undefined {
    const ref = checked.reference as DocumentReference;
    if (ref.serial !== this.o.serial) return undefined;
    const notCommercial = new SimRefusal('PRINTER ERROR', ref.kind === 'VOID' ? '41' : '42');
    const target = this.printed.find(
      (d) => d.z === ref.z && d.doc === ref.doc && d.kind !== 'non-fiscal' && d.kind !== 'z-report',
    );
    if (target?.kind !== 'sale') throw notCommercial;
    const [y, m, d] = target.dateTime.slice(0, 10).split('-');
    if (ref.date !== `${d}${m}${y}`) throw notCommercial;
    if (target.voided) throw new SimRefusal('PRINTER ERROR', '39');
    const refundedAfter = target.refundedCents + (ref.kind === 'REFUND' ? checked.totalCents : 0);
    if (refundedAfter > target.totalCents || (ref.kind === 'VOID' && target.refundedCents > 0)) {
      throw new SimRefusal('PRINTER ERROR', '40');
    }
    return target;
  }

  private nonFiscalDocument(elements: SimElement[]): string {
    const names = elements.map((e) => e.name);
    if (names[0] !== 'beginNonFiscal' || names.at(-1) !== 'endNonFiscal')
      throw new SimRefusal('INCOMPLETE FILE');
    const inner = elements.slice(1, -1);
    if (inner.some((e) => e.name !== 'printNormal')) throw new SimRefusal('Non valid XML command');
    this.canPrint(false);
    this.nonFiscal += 1;
    this.emit({
      kind: 'non-fiscal',
      z: this.counters.z,
      doc: this.nonFiscal,
      totalCents: 0,
      header: [],
      lines: [],
      payments: [],
      text: inner.map((e) => e.attrs.data ?? ''),
    });
    return responseXml(true, '', '2', [['printerStatus', this.printerStatus()]]);
  }

  private report(elements: SimElement[]): string {
    const closing = elements.some((e) => e.name === 'printZReport' || e.name === 'printXZReport');
    if (
      elements.some((e) => !['printZReport', 'printXZReport', 'printXReport', 'displayText'].includes(e.name))
    ) {
      throw new SimRefusal('Non valid XML command');
    }
    this.canPrint(false);
    const closed = this.counters.z;
    if (closing) {
      this.emit({ kind: 'z-report', z: closed, doc: 0, totalCents: 0, header: [], lines: [], payments: [] });
      this.counters.z += 1;
      this.counters.doc = 0;
      this.nonFiscal = 0;
      this.dayOpenedAt = undefined;
    }
    return responseXml(true, '', '2', [
      ['printerStatus', this.printerStatus()],
      ['zRepNumber', String(closed)],
    ]);
  }

  private command(elements: SimElement[]): string {
    let answer: string | undefined;
    for (const el of elements) {
      if (el.name === 'queryPrinterStatus') answer = this.statusAnswer(el.attrs.statusType === '1');
      else if (el.name === 'resetPrinter')
        answer = responseXml(true, '', '2', [['printerStatus', this.printerStatus()]]);
      else if (el.name === 'directIO') answer = this.directIo(el.attrs.command ?? '', el.attrs.data ?? '');
      else if (el.name !== 'displayText') throw new SimRefusal('Non valid XML command');
    }
    if (!answer) throw new SimRefusal('INCOMPLETE FILE');
    return answer;
  }

  /**
   * The two native reads public drivers make: the last emitted document (`1387`) and the serial
   * number (`3217`), laid out as fiskaltrust `scu-it` parses them (`Models/LastEmittedDocStatus.cs`,
   * `EpsonRTPrinterSCU.cs` `GetSerialNumberAsync`). Any other command is refused the way a printer
   * refuses an H1/H2 pair it does not know: PRINTER ERROR 16, "NON PREVISTO" (fiskaltrust
   * `Models/ErrorInfoFactory.cs`; 721377/procassa `lib/epsonxml.js` reads 16 as "the printer does
   * not take this command").
   */
  private directIo(command: string, data: string): string {
    const operator = data.slice(0, 2);
    if (command === SERIAL_COMMAND.command) {
      return responseXml(true, '', '2', [
        ['lastCommand', ''],
        ['printerStatus', this.printerStatus()],
        ['responseCommand', command],
        ['responseData', formatSerialAnswer(this.o.serial, operator)],
      ]);
    }
    if (command !== LAST_DOCUMENT_COMMAND.command) throw new SimRefusal('PRINTER ERROR', '16');
    if (this.faults.lastDocUnreadable) throw new SimRefusal('FP_NO_ANSWER');
    const last = this.lastEmitted;
    const { local } = this.now();
    const date = last
      ? `${last.dateTime.slice(8, 10)}${last.dateTime.slice(5, 7)}${last.dateTime.slice(2, 4)}`
      : `${two(local.day)}${two(local.month)}${String(local.year).slice(2)}`;
    const time = last ? `${last.dateTime.slice(11, 13)}${last.dateTime.slice(14, 16)}00` : '000000';
    const record = formatLastDocument(
      {
        totalCents: last?.totalCents ?? 0,
        vatCents: 0,
        date,
        time,
        z: last?.z ?? this.counters.z,
        doc: last?.doc ?? 0,
        serial: this.o.serial,
        fiscal: last ? last.kind !== 'non-fiscal' : true,
      },
      operator,
    );
    return responseXml(true, '', '2', [
      ['lastCommand', ''],
      ['printerStatus', this.printerStatus()],
      ['responseCommand', command],
      ['responseData', record],
    ]);
  }

  private statusAnswer(rt: boolean): string {
    const info: AddInfo = [
      ['lastCommand', '74'],
      ['printerStatus', this.printerStatus()],
    ];
    if (rt) {
      const files = this.faults.rtFiles ?? {};
      info.push(
        ['cpuRel', '07.00'],
        ['mfRel', '09.00'],
        ['mfStatus', '01'],
        ['fpStatus', this.printerStatus()],
        ['rtType', rtTypeOf(this.o.serial)],
        ['rtMainStatus', '02'],
        ['rtSubStatus', '08'],
        ['rtDailyOpen', this.dayOpenedAt !== undefined || this.faults.dayOpenOver24h ? '1' : '0'],
        ['rtNoWorkingPeriod', '0'],
        ['rtFileToSend', String(files.toSend ?? 0)],
        ['rtOldFileToSend', String(files.old ?? 0)],
        ['rtFileRejected', String(files.rejected ?? 0)],
        ['rtExpiryCD', this.o.expiryCD],
        ['rtExpiryCA', this.o.expiryCA],
        ['rtTrainingMode', this.faults.trainingMode ? '1' : '0'],
        ['rtUpgradeResult', '0'],
      );
    }
    return responseXml(true, '', '2', info);
  }
}
