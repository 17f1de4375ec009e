import { localDateTime } from '../../../src/time-zone.js';
import { answerXml } from './answer.js';
import { idCmdOf } from './attrs.js';
import { closeReceipt } from './close.js';
import { commandNode } from './commands.js';
import { directIo } from './direct-io.js';
import { duplicate, notFiscalNode, reportNode } from './documents.js';
import { applyBodyNode } from './receipt.js';
import {
  checkReference,
  checkRefundLines,
  type OpenReceipt,
  type ReferenceCheck,
  specialReference,
} from './reference.js';
import { book, emptyTotals } from './reports.js';
import type { CustomSimPrinterOptions, Exchange, PrinterState } from './state.js';
import { type CustomFaults, type CustomPrintedDocument, CustomRefusal, type DayTotals, ST } from './types.js';
import { type RequestNode, vatBlock } from './xml.js';

export type { CustomDepartment, CustomSimPrinterOptions, Exchange } from './state.js';

const DAY_MS = 24 * 3600 * 1000;
const two = (n: number) => String(n).padStart(2, '0');
/** Nodes that print nothing, accepted in every root that lists them (XML pp.15–20). */
const QUIET = new Set(['displayText', 'clearText', 'feed', 'openDrawer', 'partialCut', 'dematerializedOff']);
const PRINTING_ROOTS = new Set(['printerFiscalReceipt', 'printerNotFiscal', 'printerFiscalReport']);

/** The fiscal memory and rules of the simulated Custom RT printer (no I/O). */
export class CustomSimPrinter implements PrinterState {
  readonly printed: CustomPrintedDocument[] = [];
  readonly counters: { z: number; doc: number };
  day: DayTotals = emptyTotals();
  readonly period: DayTotals = emptyTotals();
  open: OpenReceipt | undefined;
  notFiscal: { text: string[] } | undefined;
  lastIdCmd: { id: string; tag: string } | undefined;
  lastCommand = '';
  lastCheck: ReferenceCheck | undefined;
  dayOpenedAt: number | undefined;
  lastZAt: number | undefined;
  nonFiscalNumber = 0;
  foreignResets = 0;

  constructor(
    readonly o: CustomSimPrinterOptions,
    readonly faults: CustomFaults,
  ) {
    this.counters = { z: o.lastZ + 1, doc: 0 };
  }

  /** S1 cover open, S2 paper end, S3 paper near end, S4 EJ full, S5 EJ nearly full (XML p.26). */
  printerStatus(): string {
    const f = this.faults;
    return `${f.coverOpen ? 1 : 0}${f.paperOut ? 1 : 0}${f.paperLow ? 1 : 0}00`;
  }

  /** 100 fiscal receipt open, 010 non-fiscal open, 000 none (XML p.27). */
  fpStatus(): string {
    return this.open ? '100' : this.notFiscal ? '010' : '000';
  }

  /** 1 sale in progress, 2 payments in progress, 8 non-fiscal open, 0 concluded (XML p.27). */
  receiptStep(): string {
    if (this.open) return this.open.payments.length > 0 ? '2' : '1';
    return this.notFiscal ? '8' : '0';
  }

  local(at = this.o.clock.now()) {
    return localDateTime(at, this.o.timeZone);
  }

  /** ISO local date and time, the manual's `dateTime` form (XML pp.66, 74). */
  isoDateTime(at = this.o.clock.now()): string {
    const t = this.local(at);
    return `${t.year}-${two(t.month)}-${two(t.day)}T${two(t.hour)}:${two(t.minute)}:${two(t.second)}`;
  }

  ddmmyy(at: number): string {
    const t = this.local(at);
    return `${two(t.day)}${two(t.month)}${two(t.year % 100)}`;
  }

  dayExpired(): boolean {
    return this.dayOpenedAt !== undefined && this.o.clock.now() - this.dayOpenedAt >= DAY_MS;
  }

  lastDocument(fiscalOnly: boolean): CustomPrintedDocument | undefined {
    const kinds = ['sale', 'refund', 'void', 'cancelled', ...(fiscalOnly ? [] : ['non-fiscal'])];
    return this.printed.findLast((d) => kinds.includes(d.kind));
  }

  /** Handles one request root; returns the answer and whether anything was printed. */
  handle(root: string, nodes: RequestNode[]): { xml: string; printed: boolean } {
    const ex: Exchange = { before: [], after: [], printed: false };
    try {
      const busy = this.faults.busy;
      if (busy && PRINTING_ROOTS.has(root)) throw new CustomRefusal(busy === true ? 213 : busy.status);
      if (!PRINTING_ROOTS.has(root) && root !== 'printerCommand') throw new CustomRefusal(ST.invalid);
      if ((root === 'printerFiscalReport' || root === 'printerCommand') && nodes.length !== 1) {
        // "Only one tag sub-element can be used for each request" (XML pp.18, 20).
        throw new CustomRefusal(ST.invalid);
      }
      for (const node of nodes) if (this.node(ex, root, node) === 'stop') break;
      return { xml: ex.answer ?? this.answer(ex, true, 0), printed: ex.printed };
    } catch (e) {
      if (!(e instanceof CustomRefusal)) throw e;
      if (e.responseBuf !== undefined) ex.responseBuf = e.responseBuf;
      return { xml: this.answer(ex, false, e.status), printed: ex.printed };
    }
  }

  /**
   * A restart (power cut): the fiscal memory keeps every counter and document; what the printer
   * held in RAM is gone — the last `IdCmd` (issue 42: after a power cut the printer no longer
   * reports it; *inferred*, the manual does not say where it is kept) and a document left open
   * (closed cancelled at the restart, without a number: *inferred*).
   */
  reboot(): void {
    this.lastIdCmd = undefined;
    this.open = undefined;
    this.notFiscal = undefined;
  }

  /**
   * Another terminal (the bar's till on the same RT) opens a fiscal document under its own
   * `IdCmd`: documents from anyone else are answered 21 until it ends (p.133).
   */
  openForeignDocument(idCmd: string): void {
    this.open = { kind: 'sale', lines: [], payments: [], text: [], cancelled: false, foreign: true };
    this.lastIdCmd = { id: idCmd, tag: 'beginFiscalReceipt' };
  }

  /** The other terminal's document ends (it printed or cancelled it at its own till). */
  endForeignDocument(): void {
    if (this.open?.foreign) this.open = undefined;
  }

  /** A parser error: nothing is processed (XML p.31; the status is our assumption, 3). */
  parserError(): string {
    return this.answer({ before: [], after: [], printed: false }, false, ST.invalid);
  }

  /**
   * Runs one node. `IdCmd` (XML p.25) becomes the printer's `lastIdCmd` once the node is
   * processed, refused or not (p.27: "last ID sent"); nodes after a refusal are never processed.
   */
  private node(ex: Exchange, root: string, node: RequestNode): 'stop' | undefined {
    this.lastCommand = node.name;
    const id = idCmdOf(node.attrs);
    try {
      const result = this.dispatch(ex, root, node);
      if (id) this.lastIdCmd = { id, tag: node.name };
      return result;
    } catch (e) {
      if (id && !this.faults.idCmdOnSuccessOnly) this.lastIdCmd = { id, tag: node.name };
      throw e;
    }
  }

  private dispatch(ex: Exchange, root: string, { name, attrs }: RequestNode): 'stop' | undefined {
    if (QUIET.has(name) || (name === 'dematerializedOn' && root !== 'printerFiscalReport')) return;
    if (name === 'directIO') return void directIo(this, ex, attrs);
    if (root === 'printerCommand') return void commandNode(this, ex, name, attrs);
    // A refund/void check prints nothing, so it needs no paper (our reading).
    if (attrs.checkOnly !== '1') this.canPrint();
    if (root === 'printerFiscalReport') return void reportNode(this, ex, name, attrs);
    if (root === 'printerNotFiscal') return void notFiscalNode(this, ex, name, attrs);
    return this.receiptNode(ex, name, attrs);
  }

  canPrint(): void {
    if (this.faults.coverOpen) throw new CustomRefusal(ST.coverOpen);
    if (this.faults.paperOut) throw new CustomRefusal(ST.paperEnd);
  }

  private opening(): void {
    if (this.open?.foreign) throw new CustomRefusal(ST.otherTill);
    if (this.open || this.notFiscal) throw new CustomRefusal(ST.notPossible);
    if (this.dayExpired()) throw new CustomRefusal(ST.dayExpired);
    if (this.faults.refuseDocuments) throw new CustomRefusal(this.faults.refuseDocuments.status);
  }

  private receiptNode(ex: Exchange, name: string, a: Record<string, string>): 'stop' | undefined {
    const fresh = { lines: [], payments: [], text: [], cancelled: false };
    switch (name) {
      case 'beginFiscalReceipt':
        this.opening();
        this.open = { kind: 'sale', ...fresh };
        return;
      case 'beginRtDocRefund':
      case 'beginRtDocAnnulment': {
        if (this.open?.foreign) throw new CustomRefusal(ST.otherTill);
        if (this.open || this.notFiscal) throw new CustomRefusal(ST.notPossible);
        const kind = name === 'beginRtDocRefund' ? 'refund' : 'void';
        const check = checkReference(kind, a, {
          serial: this.o.serial,
          documents: this.printed,
          dateOf: (at) => this.ddmmyy(at),
        });
        ex.responseBuf = String(check.result);
        if (kind === 'refund') ex.after.push(['ejDocVat', this.ejDocVat(check)]);
        if (a.checkOnly === '1') {
          // Only a check: nothing is opened, nothing printed.
          this.lastCheck = check;
          return 'stop';
        }
        if (check.result !== 1) throw new CustomRefusal(ST.notPossible, String(check.result));
        this.opening();
        this.open = {
          kind,
          ...fresh,
          reference: check.reference,
          ...(check.target ? { target: check.target } : {}),
          // pp.36, 38: `codLottery` "allows to enter the lottery code" of the document.
          ...(a.codLottery?.trim() ? { lottery: a.codLottery.trim() } : {}),
        };
        return;
      }
      case 'beginRtDocRefundSpecial':
      case 'beginRtDocAnnulmentSpecial': {
        const reference = specialReference(a);
        this.opening();
        this.open = { kind: name === 'beginRtDocRefundSpecial' ? 'refund' : 'void', ...fresh, reference };
        return;
      }
      case 'endFiscalReceipt':
      case 'endFiscalReceiptCut':
        if (this.faults.refuseEnd && this.open) throw new CustomRefusal(this.faults.refuseEnd.status);
        closeReceipt(this, ex, a.IdCmd);
        if (this.faults.consolidating && ex.closed) throw new CustomRefusal(ST.consolidating);
        return;
      case 'printDuplicateReceipt':
        duplicate(this, ex);
        return;
      default: {
        const before = this.open?.lines.length ?? 0;
        if (!applyBodyNode(this, this.open, name, a)) throw new CustomRefusal(ST.invalid);
        try {
          if (this.open) checkRefundLines(this.open);
        } catch (e) {
          this.open?.lines.splice(before);
          throw e;
        }
      }
    }
  }

  vatRate(slot: number): number | undefined {
    return this.o.vatRates.get(slot);
  }

  departmentVat(department: number): number | undefined {
    return this.o.departments[department]?.idVat;
  }

  /** The refund answer's `ejDocVat` (XML p.38): the original's gross per programmed slot. */
  private ejDocVat(check: ReferenceCheck): string {
    const vat = check.target?.vat ?? {};
    const blocks = [...this.o.vatRates].map(([slot, rate]) => vatBlock(slot, rate, vat[slot] ?? 0, 'digits'));
    return `<ejDocVat>${blocks.join('')}</ejDocVat>`;
  }

  /** Books a fiscal document under the next number; the first one opens the day. */
  emit(
    ex: Exchange,
    d: Pick<CustomPrintedDocument, 'kind' | 'totalCents' | 'vat' | 'lines' | 'payments' | 'text'> &
      Partial<CustomPrintedDocument>,
  ): CustomPrintedDocument {
    const at = this.o.clock.now();
    this.counters.doc += 1;
    this.dayOpenedAt ??= at;
    const doc: CustomPrintedDocument = {
      z: this.counters.z,
      doc: this.counters.doc,
      at,
      dateTime: this.isoDateTime(at),
      serial: this.o.serial,
      refunded: {},
      voided: false,
      ...d,
    };
    this.printed.push(doc);
    book(this.day, doc);
    book(this.period, doc);
    ex.printed = true;
    return doc;
  }

  answer(ex: Exchange, success: boolean, status: number): string {
    return answerXml(this, ex, success, status);
  }
}
