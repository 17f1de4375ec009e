import type { Clock } from '../../../src/clock.js';
import { formatSerialAnswer, rtTypeOf, SERIAL_COMMAND } from '../last-document.js';
import { localDateTime } from '../protocol.js';
import { copyRequest, departmentRecord, documentsToCopy, vatRecord } from './native-reads.js';
import { add, classKey, type DayTotals, type DepartmentClass, total } from './programming.js';
import { type CheckedReceipt, checkReceipt, type SimElement, SimRefusal } from './receipt.js';
import type { SimReference } from './reference.js';
import { SimReports } from './reports.js';
import type { Faults, PrintedDocument } from './types.js';
import { type AddInfo, commaAmount, failureXml, responseXml } from './xml.js';

export type { Faults, PrintedDocument } from './types.js';

export interface SimPrinterOptions {
  serial: string;
  clock: Clock;
  timeZone: string;
  expiryCD: string;
  expiryCA: string;
  departments: Readonly<Record<number, DepartmentClass>>;
  /**
   * Lottery codes whose check character this printer refuses with status 30 ("CHECKSUM ERRATO",
   * fiskaltrust `Models/ErrorInfoFactory.cs` L57): the algorithm is not public, so a test names
   * the codes. The receipt is refused whole: nothing printed, nothing left open.
   */
  refusedLotteryCodes: readonly string[];
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
  private readonly reports: SimReports;

  constructor(
    private readonly o: SimPrinterOptions,
    private readonly faults: Faults,
  ) {
    this.reports = new SimReports(o.clock, faults);
  }

  /** The day's totals so far (what an X report shows). */
  get totals(): DayTotals {
    return this.reports.day;
  }

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

  /** The fiscal day has been open for more than 24 hours: receipts are refused until a Z. */
  private overdue(): boolean {
    return (
      Boolean(this.faults.dayOpenOver24h) ||
      (this.dayOpenedAt !== undefined && this.o.clock.now() - this.dayOpenedAt > DAY_MS)
    );
  }

  private canPrint(fiscal: boolean): void {
    if (this.faults.paperOut) throw new SimRefusal('EPTR_REC_EMPTY');
    if (this.faults.coverOpen) throw new SimRefusal('PRINTER ERROR', '3');
    if (fiscal && this.overdue()) throw new SimRefusal('PRINTER ERROR', '17');
    if (fiscal && this.faults.refuseDocuments)
      throw new SimRefusal('PRINTER ERROR', this.faults.refuseDocuments.status);
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
    if (doc.kind !== 'z-report' && doc.kind !== 'x-report') this.lastEmitted = full;
    return full;
  }

  private receipt(elements: SimElement[]): string {
    this.canPrint(true);
    const checked = checkReceipt(elements);
    if (checked.lottery && this.o.refusedLotteryCodes.includes(checked.lottery))
      throw new SimRefusal('PRINTER ERROR', '30');
    const target = checked.reference ? this.referenced(checked) : undefined;
    for (const line of checked.lines) line.vatClass = classKey(this.o.departments[line.department]);
    this.dayOpenedAt ??= this.o.clock.now();
    this.counters.doc += 1;
    const totalCents = checked.kind === 'void' ? (target?.totalCents ?? 0) : checked.totalCents;
    const { customer, lottery, ...rest } = checked;
    const doc = this.emit({
      ...rest,
      ...(customer ? { customer } : {}),
      ...(lottery ? { lottery } : {}),
      z: this.counters.z,
      doc: this.counters.doc,
      totalCents,
    });
    if (target && checked.kind === 'void') target.voided = true;
    if (target && checked.kind === 'refund') target.refundedCents += checked.totalCents;
    this.count(doc, target);
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

  /** Adds a document to the day's totals (an X report shows them, a Z report closes them). */
  private count(doc: PrintedDocument, target: PrintedDocument | undefined): void {
    const day = this.reports.day;
    day.documents += 1;
    if (doc.kind === 'void') {
      day.voids += target?.totalCents ?? 0;
      return;
    }
    for (const line of doc.lines) {
      const key = line.vatClass ?? 'unprogrammed';
      if (line.adjustmentType !== undefined && line.adjustmentType >= 10)
        add(day.deductions, String(line.adjustmentType), -line.amountCents);
      else add(doc.kind === 'refund' ? day.refunds : day.sales, key, line.amountCents);
    }
    for (const p of doc.payments) add(day.payments, `${p.paymentType}/${p.index}`, p.amountCents);
  }

  /** Checks a refund/void reference like an RT: statuses 39–42. Foreign and ND references are not checked. */
  private referenced(checked: CheckedReceipt): PrintedDocument | undefined {
    const ref = checked.reference as SimReference;
    if (ref.serial !== this.o.serial) return undefined;
    const verdict = this.verdict(ref, ref.kind === 'REFUND' ? checked.totalCents : 0);
    if (verdict.refusal) throw new SimRefusal('PRINTER ERROR', verdict.refusal);
    return verdict.target;
  }

  /** What the printer says of a reference: its target, or the status it refuses with. */
  private verdict(ref: SimReference, refundCents: number): { target?: PrintedDocument; refusal?: string } {
    const notCommercial = ref.kind === 'VOID' ? '41' : '42';
    const target = this.printed.find(
      (d) =>
        d.z === ref.z && d.doc === ref.doc && (d.kind === 'sale' || d.kind === 'refund' || d.kind === 'void'),
    );
    if (target?.kind !== 'sale') return { refusal: notCommercial };
    const [y, m, d] = target.dateTime.slice(0, 10).split('-');
    if (ref.date !== `${d}${m}${y}`) return { refusal: notCommercial };
    if (target.voided) return { refusal: '39' };
    if (
      target.refundedCents + refundCents > target.totalCents ||
      (ref.kind === 'VOID' && target.refundedCents > 0)
    ) {
      return { refusal: '40' };
    }
    return { target };
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

  /**
   * X report (`printXReport`): the day's totals, nothing changes. Z report (`printZReport`, or
   * `printXZReport`: report and closure — OCA l10n-italy sends it, fiskaltrust sends the former):
   * the day's totals are closed into a daily file for the tax agency, the Z number moves on and
   * numbering restarts.
   */
  private report(elements: SimElement[]): string {
    const closing = elements.some((e) => e.name === 'printZReport' || e.name === 'printXZReport');
    if (
      elements.some((e) => !['printZReport', 'printXZReport', 'printXReport', 'displayText'].includes(e.name))
    ) {
      throw new SimRefusal('Non valid XML command');
    }
    this.canPrint(false);
    const closed = this.counters.z;
    const totals = structuredClone(this.reports.day);
    const amount = total(totals.sales) - total(totals.refunds) - total(totals.deductions);
    const kind = closing ? 'z-report' : 'x-report';
    this.emit({ kind, z: closed, doc: 0, totalCents: amount, header: [], lines: [], payments: [], totals });
    if (closing) {
      this.reports.close(closed, totals);
      this.counters.z += 1;
      this.counters.doc = 0;
      this.nonFiscal = 0;
      this.dayOpenedAt = undefined;
    }
    return responseXml(true, '', '2', [
      ['printerStatus', this.printerStatus()],
      ['zRepNumber', String(closed)],
      ['dailyAmount', commaAmount(Math.max(0, amount))],
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
   * The native reads public drivers make: the last emitted document (`1387`), the serial number
   * (`3217`) and the reference check (`9205`). Any other command is refused the way a printer
   * refuses an H1/H2 pair it does not know: PRINTER ERROR 16, "NON PREVISTO" (fiskaltrust
   * `Models/ErrorInfoFactory.cs`; 721377/procassa `lib/epsonxml.js` reads 16 as "the printer does
   * not take this command").
   */
  private directIo(command: string, data: string): string {
    const ok = (responseData: string) =>
      responseXml(true, '', '2', [
        ['lastCommand', ''],
        ['printerStatus', this.printerStatus()],
        ['responseCommand', command],
        ['responseData', responseData],
      ]);
    if (command === SERIAL_COMMAND.command) return ok(formatSerialAnswer(this.o.serial, data.slice(0, 2)));
    if (command === '9205' && !this.faults.noReferenceCheck) return ok(this.referenceCheck(data));
    if ((command === '4202' || command === '4205') && !this.faults.noProgrammingRead) {
      const index = Number(data.slice(0, 2));
      if (!/^\d\d$/.test(data.slice(0, 2))) throw new SimRefusal('PRINTER ERROR', '13');
      return ok(
        command === '4202'
          ? departmentRecord(this.o.departments, index)
          : vatRecord(this.o.departments, index),
      );
    }
    if (command === '3098') return this.journalCopy(data, ok);
    if (command !== '1387') throw new SimRefusal('PRINTER ERROR', '16');
    // A record in a layout the driver does not know (another firmware's): answered, not readable.
    if (this.faults.lastDocUnreadable) return ok(`${data.slice(0, 2)}????`);
    return ok(
      this.reports.lastDocumentRecord(
        this.lastEmitted,
        this.counters.z,
        this.o.serial,
        data.slice(0, 2),
        this.now().local,
      ),
    );
  }

  /** `directIO 3098`: a non-fiscal copy of receipts from the journal (native-reads.ts). */
  private journalCopy(data: string, ok: (responseData: string) => string): string {
    this.canPrint(false);
    const copies = documentsToCopy(this.printed, copyRequest(data));
    const { at, local } = this.now();
    for (const original of copies) {
      this.printed.push({
        ...original,
        kind: 'non-fiscal',
        at,
        dateTime: `${local.year}-${two(local.month)}-${two(local.day)} ${two(local.hour)}:${two(local.minute)}`,
        text: [
          'COPIA DA GIORNALE ELETTRONICO',
          `DOC. ${String(original.z).padStart(4, '0')}-${String(original.doc).padStart(4, '0')}`,
        ],
        copyOf: { z: original.z, doc: original.doc },
      });
    }
    return ok('');
  }

  /**
   * `directIO 9205`: `data` = 1 (refund) or 2 (void), serial (11), DDMMYYYY, document (4), Z (4),
   * as procassa and the gutenberg JPOS driver build it; the answer's first character is 0 (the
   * printer will take it), 1 (it will: the receipt is partly refunded already — our reading of
   * the second value both public drivers accept) or 2 (it will not), followed by the request.
   */
  private referenceCheck(data: string): string {
    const m = /^([12])(.{11})(\d{8})(\d{4})(\d{4})$/.exec(data);
    if (!m) throw new SimRefusal('PRINTER ERROR', '13');
    const ref: SimReference = {
      kind: m[1] === '2' ? 'VOID' : 'REFUND',
      serial: (m[2] as string).trim(),
      date: m[3] as string,
      doc: Number(m[4]),
      z: Number(m[5]),
    };
    if (ref.serial !== this.o.serial) return `2${data}`;
    const verdict = this.verdict(ref, 0);
    if (verdict.refusal || !verdict.target) return `2${data}`;
    return `${verdict.target.refundedCents > 0 ? '1' : '0'}${data}`;
  }

  private statusAnswer(rt: boolean): string {
    const info: AddInfo = [
      ['lastCommand', '74'],
      ['printerStatus', this.printerStatus()],
    ];
    if (rt) {
      const files = this.reports.files(this.faults.rtFiles);
      const inService = !this.faults.rtNotInService;
      info.push(
        ['cpuRel', '07.00'],
        ['mfRel', '09.00'],
        ['mfStatus', inService ? '02' : '01'],
        ['fpStatus', this.printerStatus()],
        ['rtType', rtTypeOf(this.o.serial)],
        ['rtMainStatus', inService ? '02' : '01'],
        ['rtSubStatus', inService ? '08' : (this.faults.rtNotInService?.subStatus ?? '02')],
        ['rtDailyOpen', this.dayOpenedAt !== undefined || this.faults.dayOpenOver24h ? '1' : '0'],
        ['rtNoWorkingPeriod', this.overdue() ? '1' : '0'],
        ['rtFileToSend', String(files.toSend)],
        ['rtOldFileToSend', String(files.old)],
        ['rtFileRejected', String(files.rejected)],
        ['rtExpiryCD', this.o.expiryCD],
        ['rtExpiryCA', this.o.expiryCA],
        ['rtTrainingMode', this.faults.trainingMode ? '1' : '0'],
        ['rtUpgradeResult', '0'],
      );
    }
    return responseXml(true, '', '2', info);
  }
}
