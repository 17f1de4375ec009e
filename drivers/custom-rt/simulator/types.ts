import type { EmittedDocument, PrinterFaults } from '../../simulator-kit/faults.js';

/**
 * The shapes the simulated Custom RT printer keeps and shows: the documents it "printed", the
 * fault switches a test flips, and the refusal it answers with. Status numbers are the manual's
 * protocol error codes (Custom "WEB SERVICES – Commands manual for 3rd generation fiscal
 * devices" rev 2.00, the appended STATUS REPORT GUIDE §3, PDF pp.132–149; research §3.3).
 */

/** One sale, refund or VAT line as the printer booked it. */
export interface CustomPrintedLine {
  type: 'item' | 'item-void' | 'adjustment' | 'subtotal-adjustment' | 'advance' | 'return';
  description: string;
  /** Thousandths of a unit (XML p.89 gives no format; native 3301 has 3 decimals, DIO p.148). */
  quantityMilli: number;
  unitPriceCents: number;
  /** The line's effect on the total, in cents (negative for a discount or a deduction). */
  amountCents: number;
  department: number;
  /** The VAT slot the line was booked to (XML p.89 `idVat`, or the department's). */
  idVat: number;
}

export interface CustomPrintedPayment {
  description: string;
  paymentType: number;
  paymentQty?: number;
  amountCents: number;
}

/** Which document an RT refund or void names (XML pp.36, 38). */
export interface CustomDocReference {
  z: number;
  doc: number;
  /** DDMMYY, as `docDate` carries it. */
  date: string;
  serial: string;
}

/** Gross per VAT slot, in cents. */
export type VatGross = Record<number, number>;

/** The day's counters and VAT totalizers (reports.ts; getDailyTotals, XML pp.60–61). */
export interface Counter {
  num: number;
  tot: number;
}

export interface DayTotals {
  receipts: Counter;
  cancelled: Counter;
  voids: Counter;
  refunds: Counter;
  vatSales: VatGross;
  vatRefunds: VatGross;
  vatVoids: VatGross;
}

/** One document the simulated printer emitted (closed), oldest first in `printed`. */
/**
 * `z` is the answer's `nClose`, `doc` its `fiscalDoc` (non-fiscal documents: `notFiscalDoc`);
 * `dateTime` is "yyyy-MM-ddTHH:mm:ss", the `dateTime` form of XML pp.66, 74.
 */
export interface CustomPrintedDocument extends EmittedDocument {
  kind: 'sale' | 'refund' | 'void' | 'cancelled' | 'non-fiscal' | 'x-report' | 'z-report' | 'copy';
  lines: CustomPrintedLine[];
  payments: CustomPrintedPayment[];
  /** Gross per VAT slot (refunds and voids: what they give back). */
  vat: VatGross;
  reference?: CustomDocReference;
  /** The customer's codice fiscale or partita IVA (`fixedLines pitch="B"`, XML p.55). */
  customerId?: string;
  lottery?: string;
  /** Free text lines (messages, non-fiscal text, report description). */
  text: string[];
  /** What later RT refunds took back from this sale, per VAT slot. */
  refunded: VatGross;
  voided: boolean;
  /** The IdCmd of the node that closed the document, if it carried one. */
  idCmd?: string;
  /** X and Z reports: the day's counters and totals they print (reports.ts). */
  totals?: DayTotals;
  /** A copy (`printDuplicateReceipt`, XML p.83): the document it copies. */
  copyOf?: { z: number; doc: number };
}

/** A busy refusal: which of the manual's busy statuses (XML-SG PDF pp.133–147). */
export type BusyStatus = 21 | 75 | 76 | 213 | 217 | 218 | 221;

/** The switches of the simulated printer (see `setFault`). */
export interface CustomFaults extends PrinterFaults {
  /** Printing requests refused with a busy status (213 by default); queries still answer. */
  busy?: boolean | { status: BusyStatus };
  /**
   * Fiscal documents are refused at their begin node with this status: 54 closure necessary,
   * 61 24 hours since the last Z, 84 certificate expired, 214 inactivity… (XML-SG PDF pp.133–147).
   */
  refuseDocuments?: { status: number };
  /** Every request is answered 200 with an HTML page and not carried out. */
  garbage?: boolean;
  /** directIO 1017 answers without the 4-byte echo (the layout fiskaltrust parses). */
  dio1017NoEcho?: boolean;
  /** `lastIdCmd` moves only on nodes that succeed (the manual leaves this open: XML p.25). */
  idCmdOnSuccessOnly?: boolean;
  /** Closures waiting to be sent to the tax agency (directIO 1514 NORESP, DIO p.81). */
  filesToSend?: { count: number };
  /** directIO 1017 answers a buffer that is not the manual's layout (a memory read gone wrong). */
  garbled1017?: boolean;
  /**
   * A fiscal document is printed, then answered `success="false" status="76"`: "the device is
   * busy consolidating a dematerialized receipt" (XML p.137), which fiskaltrust reads as printed
   * (`CustomRTPrinterSCU.cs` `PdfBusyStatus`).
   */
  consolidating?: boolean;
  /** The end node is refused with this status and the document stays open (p.31); its IdCmd is taken. */
  refuseEnd?: { status: number };
}

/** A refusal with the manual's status code; `responseBuf` travels with it when set. */
export class CustomRefusal extends Error {
  constructor(
    readonly status: number,
    readonly responseBuf?: string,
  ) {
    super(`status ${status}`);
  }
}

/** The statuses the simulator answers (XML-SG §3, PDF pp.132–149). */
export const ST = {
  /** Invalid value; also our assumption for a parser error (the manual gives none, XML p.31). */
  invalid: 3,
  /** Operation not possible now: close the documents in progress. */
  notPossible: 5,
  /** "A remote terminal is sending a document. Wait for the end of current operation." (p.133) */
  otherTill: 21,
  /** "The device is busy consolidating a dematerialized receipt." (p.137) */
  consolidating: 76,
  /** The word TOTALE in a description. */
  totaleWord: 7,
  /** Wrong price or amount. */
  wrongAmount: 11,
  paperEnd: 16,
  negativeTotal: 23,
  paymentNotCompleted: 25,
  vatNotProgrammed: 28,
  coverOpen: 64,
  /** 24 hours since the first sale of the day: a Z is due. */
  dayExpired: 70,
  /** A second Z with no sale since the last. */
  secondZ: 71,
  quantityTooLarge: 118,
  discountOver100: 121,
  /** Payment type not allowed for this operation. */
  paymentNotAllowed: 137,
  changeTooLarge: 142,
  departmentMissing: 148,
} as const;
