import { z } from 'zod';
import { devicePayments } from '../fiscal-it/payments.js';
import { addressIssues, printerAddressFields } from '../fiscal-it/rt/address.js';
import { documentTimeoutFields, rtOptionFields } from '../fiscal-it/rt/options.js';
import { type FiscalRules, fiscalRuleFields, fiscalRules, PaymentRuleSchema } from '../fiscal-it/rules.js';
import { type RchPayments, readRchPayment } from './payment-forms.js';

/**
 * The RCH driver's `options:` block; README.md documents every key. Unknown keys are refused. The
 * fiscal rules (departments … currency) are the Italian fiscal core's, shared with Epson and
 * Custom; departments run 1–99 (rch-driver-js `src/RchDefault.ts`: a Print!F has 99).
 */

/**
 * A platform payment as the printer records it: the core's rule (`{kind}`, `{deduct}`) or an RCH
 * payment form as it is (`=T<form>`, 1–30: rch-driver-js `src/RchDefault.ts` nPayments 30).
 */
export const RchPaymentMappingSchema = z.union([
  PaymentRuleSchema,
  z
    .object({
      form: z.number().int().min(1).max(30),
      description: z.string().min(1).max(20).optional(),
    })
    .strict(),
]);

/**
 * The key the electronic journal is read under (`=C453/$0` reads the last document without
 * printing): the sources disagree. Z (`=C3`) is the default: optyker-web
 * `rch-connector/rch-optyker-connector.ps1` `Read-PrintedReceipt` ran it against a real Print!F,
 * citing the protocol manual v14 p.24, and the JavaPOS driver linokoetting/iconic.mytrade.
 * gutenbergPrinter-rch `FiscalPrinterDriver.java` `getReceiptFromEj` does the same; rch-driver-js
 * `src/Driver.ts` `getLastReceipt` selects PRG (`=C4`).
 */
export const JOURNAL_KEYS = ['Z', 'PRG'] as const;
export type JournalKey = (typeof JOURNAL_KEYS)[number];

export const RchRtOptionsSchema = z
  .object({
    ...printerAddressFields,
    /** The printer's serial (matricola, e.g. 72MS0012345): refund references; else read with `<</?m`. */
    serialNumber: z
      .string()
      .regex(/^[0-9A-Za-z]{8,16}$/)
      .optional(),
    ...documentTimeoutFields,
    /** The key the journal is read under (see JOURNAL_KEYS). */
    journalKey: z.enum(JOURNAL_KEYS).default('Z'),
    ...fiscalRuleFields(99),
    payments: z.record(z.string().min(1), RchPaymentMappingSchema).default({}),
    defaultPayment: RchPaymentMappingSchema.optional(),
    /** Ask the printer (`/*1`, check only) before printing a refund or void. */
    checkReferences: z.boolean().default(true),
    ...rtOptionFields,
  })
  .strict()
  .superRefine(addressIssues);

export type RchRtOptions = z.infer<typeof RchRtOptionsSchema>;

export function paymentsOf(options: RchRtOptions): RchPayments {
  return devicePayments(options.payments, options.defaultPayment, readRchPayment);
}

export function rulesOf(options: RchRtOptions): FiscalRules {
  return fiscalRules(options, paymentsOf(options));
}
