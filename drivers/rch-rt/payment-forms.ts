import type { DevicePayments, PaymentKind, PaymentRule } from '../fiscal-it/payments.js';

/**
 * The fiscal core's payment kinds as an RCH RT records them: `=T<form>` (rch-driver-js-core
 * `src/Core.ts` `payment`), the form numbered as a real Print!F is programmed (Leahcim12/optyker-web
 * `rch-preflight.js`, read from the printer's programming report: 1 contanti, 2 non riscosso beni,
 * 3 assegni, 4 carte elettroniche, 5 tickets, 6 non riscosso servizi, 7 non riscosso fatture,
 * 8 non riscosso DCR SSN, 9 sconto a pagare, 10 buoni multiuso, 11 buoni celiachia; 12–30 generic).
 * The credit types rch-driver-js-core `creditIntToString` lists (goods 1, services 2, invoices 3,
 * DCR SSN 4, payment discount 5) match forms 2, 6, 7, 8 and 9. A generic "not collected" has no
 * form of its own: a bill paying so is refused until `payments` names the form the printer uses.
 */
export const RCH_PAYMENT_FORMS: Readonly<Partial<Record<PaymentKind, number>>> = Object.freeze({
  cash: 1,
  'not-collected-goods': 2,
  cheque: 3,
  'credit-card': 4,
  'debit-card': 4,
  electronic: 4,
  'prepaid-online': 4,
  ticket: 5,
  'not-collected-services': 6,
  'not-collected-invoice': 7,
  'payment-discount': 9,
  'multi-use-voucher': 10,
});

/** What a form configured by number pays with, for the core's lottery rule (the table above read backwards). */
const KIND_OF_FORM: Readonly<Record<number, PaymentKind>> = {
  1: 'cash',
  2: 'not-collected-goods',
  3: 'cheque',
  5: 'ticket',
  6: 'not-collected-services',
  7: 'not-collected-invoice',
  8: 'not-collected',
  9: 'payment-discount',
  10: 'multi-use-voucher',
};

export type RchPaymentMapping = PaymentRule | { form: number; description?: string | undefined };

/** The configured payments in the core's terms, with the forms configured by number kept aside. */
export type RchPayments = DevicePayments<number>;

/** A configured payment: the core's rule, or an RCH form number and the kind it prints as. */
export function readRchPayment(m: RchPaymentMapping): { rule: PaymentRule; code?: number } {
  if (!('form' in m)) return { rule: m };
  return { code: m.form, rule: { kind: KIND_OF_FORM[m.form] ?? 'electronic', description: m.description } };
}

/** The form a payment prints with: configured for its key, else its kind's; undefined: none. */
export function formOf(payment: { kind: PaymentKind; key: string }, forms: RchPayments['codes']) {
  return forms[payment.key] ?? RCH_PAYMENT_FORMS[payment.kind];
}
