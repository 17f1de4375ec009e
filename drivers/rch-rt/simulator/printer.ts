import { RCH_CODE, RchRefusal } from './codes.js';
import { field, type NativeCommand, parseNative } from './grammar.js';
import { query } from './queries.js';
import { adjust, cancelOpen, nonFiscal, pay, printLine, sell, subtotal, voidLastLine } from './receipt.js';
import { refund, voidDocument } from './reference.js';
import { isKeyVerb, readLastDocument, runReport, selectKey } from './reports.js';
import { type AnswerFlags, type AnswerPart, answerXml, parseServiceRequest } from './service-xml.js';
import { emptyDay, type PrinterState, type Programming } from './state.js';
import type { OtherTerminalDocument, RchFaults } from './types.js';

/** What handling one request gives the HTTP layer. */
export interface Handled {
  xml: string;
  commands: string[];
  /** A document or report was emitted. */
  printed: boolean;
  /** A command other than a query was carried out: the printer's state may have changed. */
  changed: boolean;
  flags: AnswerFlags;
}

/**
 * The simulated printer's logic, apart from HTTP: a request's commands run in order, each one
 * counted in `lastCmd` once carried out; the first refusal stops the request, and what it
 * refused is not undone before it ("Se un documento o una fattura viene lasciata aperta dopo un
 * errore, spetta all'utente chiudere o annullare il documento con una nuova richiesta": RCH
 * "Manuale Web Service Print! F" V5 R03/2019 §3, as published on Scribd). A real printer answered
 * one command with `lastCmd` 1 and a refused one with `lastCmd` 0 (optyker-web
 * `supabase/FISCAL-CONNECTION.md`); lyancoder/fiscal-printer's mock answers 3 to three commands.
 *
 * Printing commands are refused while the paper is out, the cover open or the printer in error
 * (the answer's flags are sourced; their code is inferred, see `codes.ts`), and answered busy
 * (or refused) while another till's document is open. Queries, key selection and the journal read
 * always run.
 */
export class RchSimPrinter {
  constructor(
    private readonly p: Programming,
    readonly state: PrinterState,
  ) {}

  private get faults(): RchFaults {
    return this.state.faults;
  }

  /** The answer flags the printer's condition sets, with this error and count. */
  flags(errorCode: number, lastCmd: number, busy = false): AnswerFlags {
    const f = this.faults;
    return {
      errorCode,
      lastCmd,
      busy,
      paperEnd: Boolean(f.paperOut),
      coverOpen: Boolean(f.coverOpen),
      printerError: Boolean(f.printerError),
    };
  }

  /** The answer to a request the printer cannot take now: busy, nothing carried out. */
  busyAnswer(commands: string[]): Handled {
    const flags = this.flags(RCH_CODE.ok, 0, true);
    return { xml: answerXml(flags), commands, printed: false, changed: false, flags };
  }

  handle(body: string): Handled {
    const commands = parseServiceRequest(body);
    if (!commands) {
      const flags = this.flags(RCH_CODE.malformedRequest, 0);
      return { xml: answerXml(flags), commands: [], printed: false, changed: false, flags };
    }
    if (this.faults.busy) return this.busyAnswer(commands);
    const printedBefore = this.printedCount();
    const parts: AnswerPart[] = [];
    let done = 0;
    let errorCode: number = RCH_CODE.ok;
    let busy = false;
    let changed = false;
    for (const raw of commands) {
      try {
        const c = parseNative(raw);
        if (!c) throw new RchRefusal(RCH_CODE.invalidCommand);
        if (this.blockedByOtherTerminal(c)) {
          if (this.faults.otherTerminalDocument?.answer === 'refuse')
            throw new RchRefusal(RCH_CODE.otherTerminal);
          busy = true;
          break;
        }
        const part = this.run(c);
        if (part) parts.push(part);
        done += 1;
        changed ||= c.prefix !== '<<';
      } catch (error) {
        if (!(error instanceof RchRefusal)) throw error;
        errorCode = error.code;
        break;
      }
    }
    const flags = this.flags(errorCode, done, busy);
    const printed = this.printedCount() > printedBefore;
    return { xml: answerXml(flags, parts), commands, printed, changed, flags };
  }

  private printedCount(): number {
    return this.state.documents.filter((d) => d.journal.length > 0).length;
  }

  private blockedByOtherTerminal(c: NativeCommand): boolean {
    return this.state.open?.terminal === 'other-terminal' && c.prefix !== '<<';
  }

  /** Refuses a printing command while the printer cannot print. */
  private needPaper(): void {
    const f = this.faults;
    if (f.paperOut) throw new RchRefusal(RCH_CODE.paperEnd);
    if (f.coverOpen) throw new RchRefusal(RCH_CODE.coverOpen);
    if (f.printerError) throw new RchRefusal(RCH_CODE.printerError);
  }

  /** Sales, payments, refunds and voids need the REG key. */
  private needReg(): void {
    if (this.state.key !== 'REG') throw new RchRefusal(RCH_CODE.wrongKey);
    this.needPaper();
  }

  private run(c: NativeCommand): AnswerPart | undefined {
    const { p, state: s } = this;
    if (c.prefix === '<<') return query(p, s, c);
    if (c.prefix !== '=') throw new RchRefusal(RCH_CODE.invalidCommand);
    const v = c.verb;
    if (isKeyVerb(v)) return void selectKey(s, v);
    if (v === 'C453') {
      if (this.faults.journalUnreadable) throw new RchRefusal(RCH_CODE.journalUnavailable);
      return { kind: 'journal', text: readLastDocument(s, c) };
    }
    if (v === 'C10') {
      this.needPaper();
      return void runReport(p, s);
    }
    if (['K', 'x', 'f', 'C86'].includes(v) || /^O\d+$/.test(v) || /^D[1-3]$/.test(v)) return undefined;
    if (v === 'r' || v === 'k') {
      if (field(c, '*') !== '1') this.needReg();
      else if (s.key !== 'REG') throw new RchRefusal(RCH_CODE.wrongKey);
      return void (v === 'r' ? refund(p, s, c) : voidDocument(p, s, c));
    }
    this.needReg();
    if (/^R\d+$/.test(v)) sell(p, s, c);
    else if (v === '"') printLine(s, c);
    else if (['%-', '%+', '%', 'V-', 'V+', 'V', 'U'].includes(v)) adjust(s, c, p);
    else if (v === 'S') subtotal(s);
    else if (v === 's') voidLastLine(s);
    else if (/^T\d+$/.test(v)) {
      if (this.faults.refusePayment) throw new RchRefusal(this.faults.refusePayment.code);
      pay(p, s, c);
    } else if (v === 'o' || v === 'c') nonFiscal(p, s, v);
    else if (v === 'a') cancelOpen(p, s);
    else throw new RchRefusal(RCH_CODE.invalidCommand);
    return undefined;
  }

  /**
   * Opens another till's document on the shared printer (ECRStatus `idleState` 1 meanwhile).
   * **Inferred** behaviour: no source shows what the web service answers while another terminal
   * (the legacy TCP port 23 that optyker-web `supabase/FISCAL-CONNECTION.md` says Focus uses, or
   * the keyboard) holds a document; optyker only refuses to start unless the printer is idle.
   */
  openOtherTerminal(spec: OtherTerminalDocument): void {
    if (this.state.open) throw new Error('a document is already open on the simulated printer');
    const dept = Number(Object.keys(this.p.departments)[0]);
    const vat = this.p.departments[dept]?.vat ?? 1;
    const lines = (spec.lines ?? [['ALTRA CASSA', 100]]).map(([description, cents]) => ({
      kind: 'sale' as const,
      description,
      department: dept,
      quantity: 1,
      unitPriceCents: cents,
      amountCents: cents,
      vat: { [vat]: cents },
    }));
    this.state.open = { kind: 'sale', terminal: 'other-terminal', lines, payments: [], atSubtotal: false };
  }

  /** Ends the other till's document: printed (paid in form 1) or cancelled. */
  closeOtherTerminal(closeAs: OtherTerminalDocument['closeAs']): void {
    if (this.state.open?.terminal !== 'other-terminal') return;
    if (closeAs === 'cancelled') {
      cancelOpen(this.p, this.state);
      return;
    }
    const cash = Object.keys(this.p.payments)[0] ?? '1';
    pay(this.p, this.state, parseNative(`=T${cash}`) as NativeCommand);
  }

  /**
   * A power cycle: what a printer keeps (counters, journal, day totals, grand total, the paper and
   * cover as they are) stays; the volatile state goes: an open document is cancelled, unnumbered,
   * and the key returns to REG. **Inferred**: no source says what an RCH does with an open
   * document at a power cut, or which key it starts in.
   */
  reboot(): void {
    if (this.state.open) cancelOpen(this.p, this.state);
    delete this.state.faults.otherTerminalDocument;
    this.state.key = 'REG';
  }
}

/** A fresh printer state: `lastZ` closures already made, the day not open. */
export function initialState(lastZ: number): PrinterState {
  return {
    key: 'REG',
    lastZ,
    dayOpen: false,
    lastDoc: 0,
    lastNonFiscal: 0,
    grandTotalCents: 0,
    day: emptyDay(),
    documents: [],
    faults: {},
  };
}
