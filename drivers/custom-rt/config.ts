import { z } from 'zod';
import { devicePayments } from '../fiscal-it/payments.js';
import { addressIssues, printerAddressFields } from '../fiscal-it/rt/address.js';
import { documentTimeoutFields, rtOptionFields } from '../fiscal-it/rt/options.js';
import { type FiscalRules, fiscalRuleFields, fiscalRules, PaymentRuleSchema } from '../fiscal-it/rules.js';
import { type CustomPayments, readCustomPayment } from './payment-codes.js';

export { FROM_PLATFORM } from '../fiscal-it/rt/address.js';

/**
 * The Custom driver's `options:` block; README.md documents every key. Unknown keys are refused.
 * The fiscal rules (departments … currency) are the Italian fiscal core's, shared with Epson.
 */

/**
 * A platform payment as the printer records it: the core's rule (`{kind}`, `{deduct}`) or a
 * Custom payment number as it is: `printRecTotal paymentType` 1–30, "based on the database
 * programming" of the printer (XML protocol manual rev 2.00 p.99), or one of the native payment
 * table's numbers past that range (3007, directIO manual rev 6.00 p.119: 51 "non riscosso
 * fatture" for bills settled by invoice, as the demo's configuration uses it).
 */
export const CustomPaymentMappingSchema = z.union([
  PaymentRuleSchema,
  z
    .object({
      // 1–30 (XML p.99), or the 3007 table's 50–53 past XML's range (DIO p.119: 50 not collected –
      // services, 51 – invoices, 52 – DCR to SSN, 53 discount on payment).
      paymentType: z
        .number()
        .int()
        .refine((n) => (n >= 1 && n <= 30) || (n >= 50 && n <= 53), 'a payment number 1–30, or 50–53'),
      description: z.string().min(1).max(22).optional(),
    })
    .strict(),
]);

/** The printer's Basic-auth account; by default its serial as user and password (README, _Setting up_). */
const CredentialsSchema = z
  .object({ user: z.string().min(1).max(64), password: z.string().min(1).max(128) })
  .strict();

/** A VAT rate in percent → the printer's VAT table slot (`idVat`, 1–11: DIO 7112 p.253). */
const vatSlots = z.record(
  z.string().regex(/^\d{1,2}(\.\d{1,2})?$/, 'a VAT rate in percent'),
  z.number().int().min(1).max(11),
);

/**
 * The VAT slots public drivers assume (fiskaltrust `scu-it` `CustomRTPrinter` `GetIdVat`: 22 → 1,
 * 10 → 2, 4 → 3, 5 → 4). Slot 0 would mean "no VAT"; a line with a nature carries its
 * department's own class, so `idVat` is sent only for rated lines.
 */
export const DEFAULT_VAT_SLOTS: Readonly<Record<string, number>> = Object.freeze({
  '22': 1,
  '10': 2,
  '4': 3,
  '5': 4,
});

export const CustomRtOptionsSchema = z
  .object({
    ...printerAddressFields,
    /** Basic auth; absent: the serial (`serialNumber`, else read with `getInfo`) for both. */
    credentials: CredentialsSchema.optional(),
    /**
     * The Basic account from a file holding `user:password` (owner-only, or a systemd credential):
     * the password stays out of agent.yaml (`drivers/fiscal-it/rt/credentials.ts`).
     */
    credentialsFile: z.string().min(1).optional(),
    /** The printer's serial (matricola, e.g. STMTE501091): refund references and the default account. */
    serialNumber: z
      .string()
      .regex(/^[0-9A-Za-z]{8,16}$/)
      .optional(),
    ...documentTimeoutFields,
    ...fiscalRuleFields(999),
    vatSlots: vatSlots.default({}),
    payments: z.record(z.string().min(1), CustomPaymentMappingSchema).default({}),
    defaultPayment: CustomPaymentMappingSchema.optional(),
    /** Ask the printer (`checkOnly="1"`, XML pp.36, 38) before printing a refund or void. */
    checkReferences: z.boolean().default(true),
    ...rtOptionFields,
  })
  .strict()
  .superRefine(addressIssues)
  .superRefine((o, ctx) => {
    if (o.credentials && o.credentialsFile) {
      ctx.addIssue({
        code: 'custom',
        path: ['credentialsFile'],
        message: 'give either credentials or credentialsFile, not both',
      });
    }
  });

export type CustomRtOptions = z.infer<typeof CustomRtOptionsSchema>;

export function paymentsOf(options: CustomRtOptions): CustomPayments {
  return devicePayments(options.payments, options.defaultPayment, readCustomPayment);
}

export function rulesOf(options: CustomRtOptions): FiscalRules {
  return fiscalRules(options, paymentsOf(options));
}

/** The VAT slots in force: the configured ones over the defaults. */
export function vatSlotTable(options: Pick<CustomRtOptions, 'vatSlots'>): Record<string, number> {
  return { ...DEFAULT_VAT_SLOTS, ...options.vatSlots };
}
