import type { Message } from '../../src/messages/message.js';
import type { CustomerCode } from './customer-codes.js';
import type { Nature } from './natures.js';
import type { DeductionKind, PaymentKind } from './payments.js';
import type { DocumentReference } from './reference.js';

/**
 * The Italian fiscal document a bill becomes: a plain typed structure, every amount in integer
 * cents and every total already checked, with no printer's codes in it. An RT family renders it
 * (Epson: `drivers/epson-fpmate/receipt-xml.ts`) by mapping kinds to its own codes — a payment
 * kind to its payment type, a department number as it is, a deposit to its own element — and
 * never decides the law again.
 */

/** The VAT class a department carries: one rate (percent), or one nature (no VAT). */
export interface VatClass {
  rate?: number;
  nature?: Nature;
}

/** A sold or refunded line: `quantity × unitCents` rounded half up is `totalCents`. */
export interface DocumentLine extends VatClass {
  description: string;
  /** Integer, or at most three decimals; 1 when the line is printed as its amount. */
  quantity: number;
  unitCents: number;
  /** The line's amount, positive (a refund's lines too). */
  totalCents: number;
  department: number;
}

/** A discount on a department: a negative line of the bill, after the items. */
export interface DocumentDiscount extends VatClass {
  description: string;
  cents: number;
  department: number;
}

/**
 * An amount already certified that this document takes off its total: a deposit (acconto) or a
 * single-use voucher (buono monouso), on the department of the rate it was receipted at.
 */
export interface DocumentDeduction extends VatClass {
  kind: DeductionKind;
  description: string;
  cents: number;
  department: number;
}

export interface DocumentPayment {
  kind: PaymentKind;
  description: string;
  cents: number;
  /** The payment-map key it was picked by (`CreditCardPayment`, `ExternalPayment:Voucher`). */
  key: string;
}

export interface FiscalDocumentModel {
  kind: 'sale' | 'refund' | 'void';
  /** The original of a refund or void (`REFUND`/`VOID`), or the ND form of an unreferenced refund. */
  reference?: DocumentReference;
  /** Sale lines (kind sale) or refunded lines (kind refund); none for a void. */
  lines: DocumentLine[];
  discounts: DocumentDiscount[];
  deductions: DocumentDeduction[];
  payments: DocumentPayment[];
  /** What the document totals: lines less discounts and deductions; what the payments cover. */
  totalCents: number;
  currency: string;
  /** The customer's codice fiscale or partita IVA. */
  customer?: CustomerCode;
  /** The consumer's lottery code (sales paid wholly by electronic means only: lottery.ts). */
  lottery?: string;
  /**
   * A refund's or void's: the lottery code the bill's consumer gives, for a family whose protocol
   * carries the original's code (Custom `codLottery`, XML protocol manual rev 2.00 pp.36, 38).
   * The family sends it only when it knows the original carried one (`lotteryFor`).
   */
  originalLottery?: string;
  /** Sentences for the Notes of the printed document (a customer code left off …). */
  notes: Message[];
  /** English lines for the log (a lottery code left off, and why). */
  log: string[];
}

/** One department the document prints in, with the VAT class the core expects it to carry. */
export interface DepartmentUse extends VatClass {
  department: number;
  /** The description of the first line, discount or deduction that uses it. */
  description: string;
}

/**
 * Every department a document prints in, once each, with the rate or nature the core decided
 * for it — what a family checks against the printer's own programming before rendering (a
 * department programmed at another rate would print the wrong VAT). Lines without a class (sent
 * to `defaultDepartment`) are listed without one.
 */
export function departmentUses(doc: FiscalDocumentModel): DepartmentUse[] {
  const seen = new Map<number, DepartmentUse>();
  for (const use of [...doc.lines, ...doc.discounts, ...doc.deductions]) {
    if (seen.has(use.department)) continue;
    const entry: DepartmentUse = { department: use.department, description: use.description };
    if (use.rate !== undefined) entry.rate = use.rate;
    if (use.nature !== undefined) entry.nature = use.nature;
    seen.set(use.department, entry);
  }
  return [...seen.values()];
}
