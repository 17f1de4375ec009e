import type { DevicePayments, PaymentKind, PaymentRule } from '../fiscal-it/payments.js';

/**
 * The fiscal core's payment kinds as an Epson RT records them: `printRecTotal paymentType` and
 * `index` (Epson Fiscal ePOS-Print: 0 cash, 1 cheque, 2 credit or credit card, 3 ticket,
 * 4 multiple tickets, 5 not paid, 6 payment discount — Odoo `l10n_it_pos`
 * `models/pos_payment_method.py`, lyancoder/fiscal-printer `lib/constants/fiscal.type.ts`).
 *
 * - Electronic means print as 2 with index 1, never 0: "Credit or credit card indexes corrected
 *   (should be 0 10)" (Epson ePOS Fiscal Print Solution Development Guide, revision history),
 *   index 0 being "credit", i.e. not paid (Odoo's help text; efsta `credit, open → 2-00`,
 *   `creditcard … → 2-01`); fiskaltrust `scu-it` prints cards as 2/1 (`GetEpsonPaymentType`).
 * - Not collected, 5: index 0 generic, 1 goods, 2 services, 3 to be invoiced (721377/procassa
 *   `lib/epsonxml.js`; fiskaltrust maps accounts receivable to 5/3).
 * - 6/0 "sconto a pagare" (procassa; Microsoft EpsonFP90IIISample maps its loyalty card to 6/00),
 *   6/1 a multi-use voucher (fiskaltrust's voucher payment 6/1; efsta `voucher → 6-01`).
 * - Tickets 3/1 (fiskaltrust ticket restaurant → 3/1; procassa: index 0 blocked receipts).
 *
 * A configuration may name the Epson code of a platform payment directly (`{paymentType, index}`,
 * the form earlier versions took): the core then sees the kind that code means, and the code is
 * printed as configured.
 */
export interface EpsonPaymentCode {
  paymentType: number;
  index: number;
}

export const EPSON_PAYMENT_CODES: Readonly<Record<PaymentKind, EpsonPaymentCode>> = Object.freeze({
  cash: { paymentType: 0, index: 0 },
  cheque: { paymentType: 1, index: 0 },
  'credit-card': { paymentType: 2, index: 1 },
  'debit-card': { paymentType: 2, index: 1 },
  electronic: { paymentType: 2, index: 1 },
  'prepaid-online': { paymentType: 2, index: 1 },
  ticket: { paymentType: 3, index: 1 },
  'not-collected': { paymentType: 5, index: 0 },
  'not-collected-goods': { paymentType: 5, index: 1 },
  'not-collected-services': { paymentType: 5, index: 2 },
  'not-collected-invoice': { paymentType: 5, index: 3 },
  'payment-discount': { paymentType: 6, index: 0 },
  'multi-use-voucher': { paymentType: 6, index: 1 },
});

/** The kind an Epson payment code means (the table above read backwards). */
export function kindOfEpsonCode(code: EpsonPaymentCode): PaymentKind {
  const { paymentType: type, index } = code;
  if (type === 0) return 'cash';
  if (type === 1) return 'cheque';
  if (type === 2) return index === 0 ? 'not-collected' : 'electronic';
  if (type === 3 || type === 4) return 'ticket';
  if (type === 5)
    return index === 1
      ? 'not-collected-goods'
      : index === 2
        ? 'not-collected-services'
        : index === 3
          ? 'not-collected-invoice'
          : 'not-collected';
  return index === 0 ? 'payment-discount' : 'multi-use-voucher';
}

/** A configured payment: the core's rule, or an Epson code with its description. */
export type EpsonPaymentMapping =
  | PaymentRule
  | { paymentType: number; index: number; description?: string | undefined };

function isEpsonCode(m: EpsonPaymentMapping): m is Extract<EpsonPaymentMapping, { paymentType: number }> {
  return 'paymentType' in m;
}

/** The configured payments in the core's terms, and the Epson codes configured by platform key. */
export type EpsonPayments = DevicePayments<EpsonPaymentCode>;

/** A configured payment: the core's rule, or an Epson code and the kind it prints as. */
export function readEpsonPayment(m: EpsonPaymentMapping): { rule: PaymentRule; code?: EpsonPaymentCode } {
  if (!isEpsonCode(m)) return { rule: m };
  return {
    code: { paymentType: m.paymentType, index: m.index },
    rule: { kind: kindOfEpsonCode(m), description: m.description },
  };
}

/** The code a document payment prints with: configured for its key, else its kind's. */
export function epsonCodeOf(payment: { kind: PaymentKind; key: string }, codes: EpsonPayments['codes']) {
  return codes[payment.key] ?? EPSON_PAYMENT_CODES[payment.kind];
}
