import { z } from 'zod';
import { devicePayments } from '../fiscal-it/payments.js';
import { addressIssues, printerAddressFields } from '../fiscal-it/rt/address.js';
import { rtOptionFields } from '../fiscal-it/rt/options.js';
import { type FiscalRules, fiscalRuleFields, fiscalRules, PaymentRuleSchema } from '../fiscal-it/rules.js';
import { type EpsonPayments, readEpsonPayment } from './payment-codes.js';
import { DEFAULT_LINE_LENGTH } from './protocol.js';

/**
 * The driver's `options:` block. Every key is documented in README.md with an example.
 * Defaults suit an FP-81 II RT / FP-90III on the hotel LAN over plain HTTP. Unknown keys are
 * refused (a misspelt `departments` or `fingerprint` must not pass silently).
 */

export { FROM_PLATFORM } from '../fiscal-it/rt/address.js';

const description = z.string().min(1).max(DEFAULT_LINE_LENGTH).optional();

/**
 * A platform payment as the printer records it: the fiscal core's rule — a payment kind (`{kind:
 * electronic}`) or a deduction (`{deduct: deposit}`) — or an Epson code (`paymentType`: 0 cash, 1
 * cheque, 2 electronic, 3 ticket, 4 tickets by number, 5 not collected, 6 discount to pay; `index`
 * the variant), printed as it is. See payment-codes.ts and `drivers/fiscal-it/payments.ts`.
 */
export const PaymentMappingSchema = z.union([
  PaymentRuleSchema,
  z
    .object({
      paymentType: z.number().int().min(0).max(6),
      index: z.number().int().min(0).max(10).default(0),
      description,
    })
    .strict(),
]);

export { type DailyClosureOptions, DailyClosureSchema } from '../fiscal-it/rt/daily-closure.js';

export const EpsonFpmateOptionsSchema = z
  .object({
    ...printerAddressFields,
    devid: z.string().min(1).default('local_printer'),
    /** The fpmate `timeout=` query parameter: how long fpmate waits for the fiscal firmware. */
    printerTimeoutMs: z.number().int().min(100).default(10_000),
    /** HTTP client timeout of a document; must exceed printerTimeoutMs. Default: that + 5 s. */
    clientTimeoutMs: z.number().int().min(200).optional(),
    /** HTTP client timeout of status and last-document reads. */
    readTimeoutMs: z.number().int().min(100).default(5_000),
    operator: z
      .string()
      .regex(/^\d{1,2}$/)
      .default('1'),
    /** Overrides the serial read from the printer (used in Notes and refund references). */
    serialNumber: z
      .string()
      .regex(/^[0-9A-Za-z]{1,16}$/)
      .optional(),
    /** The Italian fiscal rules (`drivers/fiscal-it/rules.ts`); Epson departments run 1–99. */
    ...fiscalRuleFields(99),
    /** Platform payment → payment kind, deduction or Epson code; over the core's built-in map. */
    payments: z.record(z.string().min(1), PaymentMappingSchema).default({}),
    /** For payment types no rule covers; absent = refuse such bills (nothing printed). */
    defaultPayment: PaymentMappingSchema.optional(),
    /** Ask the printer (directIO 9205) whether a refund or void reference is valid before printing. */
    checkReferences: z.boolean().default(true),
    lineLength: z.number().int().min(10).max(64).default(DEFAULT_LINE_LENGTH),
    /** Extra header lines printed above each receipt (printRecMessage type 1). */
    headerLines: z.array(z.string().min(1)).max(4).default([]),
    /** After a lost answer, resend once when the printer proves it did not print. */
    resendWhenNotPrinted: z.boolean().default(true),
    ...rtOptionFields,
  })
  .strict()
  .refine((o) => o.clientTimeoutMs === undefined || o.clientTimeoutMs > o.printerTimeoutMs, {
    path: ['clientTimeoutMs'],
    message: 'clientTimeoutMs must be longer than printerTimeoutMs',
  })
  .superRefine(addressIssues);

export type EpsonFpmateOptions = z.infer<typeof EpsonFpmateOptionsSchema>;

/** The client timeout actually used for documents. */
export function documentTimeoutMs(options: EpsonFpmateOptions): number {
  return options.clientTimeoutMs ?? options.printerTimeoutMs + 5_000;
}

/** The configured payments in the core's terms, with the Epson codes configured as such. */
export function paymentsOf(options: EpsonFpmateOptions): EpsonPayments {
  return devicePayments(options.payments, options.defaultPayment, readEpsonPayment);
}

/** The fiscal core's rules of this printer's options. */
export function rulesOf(options: EpsonFpmateOptions): FiscalRules {
  return fiscalRules(options, paymentsOf(options));
}
