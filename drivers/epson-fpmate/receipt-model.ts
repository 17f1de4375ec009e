import type { CustomerCode } from './customer-codes.js';
import type { DocumentReference } from './reference.js';

/** A receipt ready to print: every amount in integer cents, every total already checked. */
export interface ReceiptLine {
  /** `deduction`: a deposit or single-use voucher taken off the total (`adjustmentType`). */
  type: 'item' | 'discount' | 'refund' | 'deduction';
  description: string;
  quantity: number;
  /** Unit price (item, refund) or the adjustment's amount (discount, deduction), positive. */
  unitCents: number;
  /** The line's effect on the total, positive. */
  totalCents: number;
  department: number;
  /** The VAT rate or the nature the department carries (for checking; not sent). */
  rate?: number;
  nature?: string;
  /** `printRecItemAdjustment adjustmentType`: 3 discount, 10 deposit, 12 single-use voucher. */
  adjustmentType?: number;
}

export interface ReceiptPayment {
  description: string;
  paymentType: number;
  index: number;
  cents: number;
}

export interface ReceiptModel {
  kind: 'sale' | 'refund' | 'void';
  reference?: DocumentReference;
  header: string[];
  lines: ReceiptLine[];
  payments: ReceiptPayment[];
  /** What the receipt totals: items less discounts and deductions; what the payments cover. */
  totalCents: number;
  currency: string;
  customer?: CustomerCode;
  lottery?: string;
}
