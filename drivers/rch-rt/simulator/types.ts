import type { CommonFaults } from '../../simulator-kit/faults.js';

/**
 * The shapes the simulated RCH printer keeps and shows tests: its programming (VAT table,
 * departments, payment forms), the documents it printed, and its fault switches. Tests read these
 * records directly, never through a driver.
 */

/** The key (operating mode) the native `=C1`…`=C5` commands select (rch-driver-js-core `src/Core.ts` `reg()`…`srv()`). */
export type RchKey = 'REG' | 'X' | 'Z' | 'PRG' | 'SERVICE';

/** One slot of the VAT table: a rate in basis points (2200 = 22 %), or a nature (N1–N6) at 0 %. */
export type RchVatSlot = { rateBp: number } | { nature: string };

/** A department: its name, its VAT slot and whether it sells goods or services (core `R(…, dpt_type)`). */
export interface RchDepartment {
  description: string;
  vat: number;
  kind: 'goods' | 'services';
}

/**
 * A payment form. Only `cash` gives change: optyker-web `rch-preflight.js` records a real
 * printer's programming where form 1 (Contanti) alone has `changeAllowed`.
 */
export interface RchPaymentForm {
  description: string;
  kind: 'cash' | 'cheque' | 'electronic' | 'ticket' | 'not-collected' | 'discount' | 'voucher';
}

/**
 * One line of a document as the printer booked it. `vat` is the line's effect per VAT slot in
 * cents (negative for a discount); `amountCents` its sum (0 for a free line, whose price only shows).
 */
export interface RchLine {
  kind: 'sale' | 'free' | 'advance' | 'voucher' | 'line-void' | 'discount' | 'increase' | 'text' | 'barcode';
  description: string;
  department?: number;
  quantity?: number;
  unitPriceCents?: number;
  amountCents: number;
  vat: Record<number, number>;
}

export interface RchPayment {
  form: number;
  description: string;
  kind: RchPaymentForm['kind'];
  amountCents: number;
}

/** The earlier document a refund or void names: `=r/&DDMMYY/[Z/]N` (rch-driver-js-core `returnGoods`). */
export interface RchReference {
  /** DDMMYY, as the command carries it. */
  date: string;
  z: number;
  number: number;
  /** The serial the command named (`/(…)`, core `returnReceipt`), when it named one. */
  serial?: string;
}

/** A day's totals: what X and Z reports print and `<</?1` reads. */
export interface RchDayTotals {
  sales: { count: number; cents: number };
  refunds: { count: number; cents: number };
  voids: { count: number; cents: number };
  /** Gross sales per VAT slot, in cents. */
  vatSales: Record<number, number>;
  /** Payments per form, in cents (refunds and voids not deducted). */
  payments: Record<number, number>;
}

/** Who opened a document: this web service, or another till sharing the printer. */
export type RchTerminal = 'web-service' | 'other-terminal';

/** One document the simulated printer emitted (or cancelled), oldest first in `documents`. */
export interface RchDocument {
  kind: 'sale' | 'refund' | 'void' | 'non-fiscal' | 'x-report' | 'z-report' | 'cancelled';
  terminal: RchTerminal;
  /**
   * The Z the document belongs to: the last closure + 1 (lyancoder/fiscal-printer README "27:
   * lastZ + 1"; iconic gutenbergPrinter-rch `PrinterCommands.java` beginFiscalReceipt, Z report + 1).
   * For a z-report, the closure it made.
   */
  z: number;
  /**
   * Commercial documents (sale, refund, void): the number within the Z, from 1 after each closure.
   * Management documents (non-fiscal, reports): their own count (`lastDocNF`). 0 for a cancelled one.
   */
  number: number;
  at: number;
  /** "dd-MM-yyyy HH:mm" in the printer's time zone, as the journal prints it. */
  dateTime: string;
  lines: RchLine[];
  payments: RchPayment[];
  totalCents: number;
  /** Change given (cash only). */
  changeCents: number;
  /** Gross per VAT slot (refunds and voids: what they give back). */
  vat: Record<number, number>;
  /** The codice fiscale or partita IVA printed on the document (`="/?C/(…)`, core `printFiscalCode`). */
  customerId?: string;
  /** The lottery code (`="/?L/$1/(…)`, core `lottery`). */
  lottery?: string;
  reference?: RchReference;
  /** Sales: voided by a later `=k`. */
  voided: boolean;
  /** Sales: what later refunds took back, per VAT slot. */
  refunded: Record<number, number>;
  /** X and Z reports: the day's totals they print. */
  totals?: RchDayTotals;
  /** The lines the electronic journal holds for this document (empty for a cancelled one). */
  journal: string[];
}

/** Another till's document, open on the shared printer (see `RchFaults.otherTerminalDocument`). */
export interface OtherTerminalDocument {
  /** Its sale lines, as `[description, cents]` (default one line). */
  lines?: Array<[string, number]>;
  /** How it ends when the switch is turned off (default printed). */
  closeAs?: 'printed' | 'cancelled';
  /** How our printing commands are answered meanwhile (default busy: "send it again"). */
  answer?: 'busy' | 'refuse';
}

/**
 * The switches of the simulated printer (see `setFault`), named as the other simulators name theirs;
 * `refused` (the port closed: connection refused) is the simulator kit's (`drivers/simulator-kit/faults.ts`).
 */
export interface RchFaults extends CommonFaults {
  /** Paper end: `paperEnd` 1 in every answer, printing commands refused. */
  paperOut?: boolean;
  /** Cover open: `coverOpen` 1 in every answer, printing commands refused. */
  coverOpen?: boolean;
  /** A printer hardware error: `printerError` 1, printing commands refused. */
  printerError?: boolean;
  /** Every request answered `busy` 1 and not carried out, as while the printer prints. */
  busy?: boolean;
  /**
   * Every answer waits this long on the simulator's clock (the request is carried out first), or
   * with `printedOnly` only the answer to a request that printed (a long receipt).
   */
  slow?: { ms: number; printedOnly?: boolean };
  /** A request that printed is carried out, then its connection is closed without an answer. */
  dropAfterPrint?: boolean;
  /**
   * A request that changed the printer (any command but a query) is carried out, then no answer
   * ever comes: the connection stays open until the client gives up (or the simulator closes or
   * reboots). Queries are still answered, so the client can find out what happened.
   */
  loseAnswer?: boolean;
  /** Another till's document is open; turning the switch off ends it (`closeAs`). */
  otherTerminalDocument?: OtherTerminalDocument;
  /**
   * Payments (`=T`) refused with this code, the document left open as after any refusal (RCH
   * "Manuale Web Service Print! F" V5 §3): the paper running out as a receipt is paid, say.
   * **Inferred**: which code a real printer gives (`codes.ts`).
   */
  refusePayment?: { code: number };
  /**
   * The journal read (`=C453/$0`) refused (`RCH_CODE.journalUnavailable`), as a journal the
   * printer cannot read back. **Inferred**: no source shows the journal failing.
   */
  journalUnreadable?: boolean;
}

export type RchFaultName = keyof RchFaults;

/** What `onHandled` listeners learn about a request, before its answer goes out. */
export interface RchHandledRequest {
  commands: string[];
  /** Whether a document or report was emitted. */
  printed: boolean;
  errorCode: number;
  lastCmd: number;
  busy: boolean;
}
