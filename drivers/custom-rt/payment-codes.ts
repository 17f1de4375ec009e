import type { DevicePayments, PaymentKind, PaymentRule } from '../fiscal-it/payments.js';

/**
 * The fiscal core's payment kinds as a Custom RT records them: `printRecTotal paymentType`, 1–30
 * "based on the database programming" (XML protocol manual rev 2.00 p.99). The defaults are the
 * standard payment numbers of the native prefixed-payment command 3007 (directIO manual rev 6.00
 * p.119): 1 cash, 2 cheque, 3 credit card, 4 generic, 5 ticket restaurant, 6 suspended (sospeso),
 * 7 not collected – goods, 8 debit card. Its 50 (not collected – services), 51 (– invoices) and 53
 * (sconto a pagare) lie outside XML's 1–30, so those kinds have no default: a bill paying with one
 * is refused until `payments` names the number the printer is programmed with. fiskaltrust maps
 * cards to 2 (`GetPaymentType`), a cheque by the 3007 table: check on the first real printer.
 */
export const CUSTOM_PAYMENT_CODES: Readonly<Partial<Record<PaymentKind, number>>> = Object.freeze({
  cash: 1,
  cheque: 2,
  'credit-card': 3,
  'debit-card': 8,
  electronic: 3,
  'prepaid-online': 3,
  ticket: 5,
  'not-collected': 6,
  'not-collected-goods': 7,
  'multi-use-voucher': 4,
});

/** The kind a Custom number means, for a number configured as such (the table read backwards). */
export function kindOfCustomCode(code: number): PaymentKind {
  const kinds: Record<number, PaymentKind> = {
    1: 'cash',
    2: 'cheque',
    3: 'credit-card',
    5: 'ticket',
    6: 'not-collected',
    7: 'not-collected-goods',
    8: 'debit-card',
    // The 3007 table's numbers past XML's 1–30 (p.119), for a printer programmed with them.
    50: 'not-collected-services',
    51: 'not-collected-invoice',
    53: 'payment-discount',
  };
  return kinds[code] ?? 'electronic';
}

export type CustomPaymentMapping = PaymentRule | { paymentType: number; description?: string | undefined };

/** The configured payments in the core's terms, with the numbers configured by payment-map key. */
export type CustomPayments = DevicePayments<number>;

/** A configured payment: the core's rule, or a Custom payment number and the kind it prints as. */
export function readCustomPayment(m: CustomPaymentMapping): { rule: PaymentRule; code?: number } {
  if (!('paymentType' in m)) return { rule: m };
  return { code: m.paymentType, rule: { kind: kindOfCustomCode(m.paymentType), description: m.description } };
}

/** The number a document payment prints with: configured for its key, else its kind's; undefined: none. */
export function customCodeOf(payment: { kind: PaymentKind; key: string }, codes: CustomPayments['codes']) {
  return codes[payment.key] ?? CUSTOM_PAYMENT_CODES[payment.kind];
}
