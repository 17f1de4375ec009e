import { z } from 'zod';
import type { CustomerCodeRules } from './customer-codes.js';
import type { LineRules } from './lines.js';
import { LOYALTY_TREATMENTS, type LoyaltyTreatment } from './loyalty.js';
import { DEFAULT_DEPARTMENTS, DEFAULT_ITEM_NATURES, NATURE_PATTERN } from './natures.js';
import { PAYMENT_KINDS, type PaymentRule } from './payments.js';

/**
 * The options of Italian fiscal law every RT family shares, as one zod shape a family spreads
 * into its own `options:` schema (`drivers/epson-fpmate/config.ts`), and the rules the core reads
 * from them. README.md documents each key; a family's README lists them with its own.
 */

/** A department key: a VAT rate in percent ("22", "5.5") or a nature ("N1", "N2.2"). */
const departmentKey = z
  .string()
  .regex(
    /^(\d{1,2}(\.\d{1,2})?|N[1-6](\.[1-6])?)$/,
    'a VAT rate in percent ("22", "5.5") or a nature ("N1" … "N6", "N2.2")',
  );
const natureValue = z.string().regex(NATURE_PATTERN, 'a nature: "N1" … "N6", optionally "N2.2"');

/** A payment rule: a payment kind, or a deduction from the total (payments.ts). */
export const PaymentRuleSchema = z.union([
  z
    .object({
      kind: z.enum(PAYMENT_KINDS),
      description: z.string().min(1).max(64).optional(),
    })
    .strict(),
  z
    .object({
      deduct: z.enum(['deposit', 'single-use-voucher']),
      description: z.string().min(1).max(64).optional(),
    })
    .strict(),
]);

/** The fields of the fiscal rules, for a family whose departments run from 1 to `maxDepartment`. */
export function fiscalRuleFields(maxDepartment: number) {
  const department = z.number().int().min(1).max(maxDepartment);
  return {
    /** VAT rate (percent) or nature → printer department; merged over DEFAULT_DEPARTMENTS. */
    departments: z.record(departmentKey, department).default({}),
    /** Platform tax code → VAT rate (percent); wins over the code's own "NN%" and the amounts. */
    taxCodeRates: z.record(z.string().min(1), z.number().min(0).max(100)).default({}),
    /** Platform tax code → nature, for codes the platform uses on lines without VAT. */
    taxCodeNatures: z.record(z.string().min(1), natureValue).default({}),
    /** Order-item type or accounting category id → nature; merged over DEFAULT_ITEM_NATURES. */
    itemNatures: z.record(z.string().min(1), natureValue).default({}),
    /** Department for lines the agent cannot classify; absent = refuse such bills. */
    defaultDepartment: department.optional(),
    /** Print the command's TaxIdentifier: the customer's codice fiscale or partita IVA. */
    customerTaxId: z.boolean().default(true),
    /** An Italian-shaped code failing its check: refuse the command, or print without the code. */
    invalidTaxId: z.enum(['refuse', 'print-without']).default('refuse'),
    /** Print the consumer's lottery code when the law allows it (lottery.ts). */
    lottery: z.boolean().default(true),
    /** A refund that names no original receipt prints as an ND refund; off: it is refused. */
    unreferencedRefunds: z.boolean().default(false),
    /** A refund of a cancellation bill (CorrectionType Cancellation) voids the original receipt. */
    voidCancellations: z.boolean().default(true),
    /**
     * Loyalty points (loyalty.ts): `discount` lowers the taxable amount (points the hotel funds),
     * `payment` records them as a payment, sconto a pagare (points a third party funds).
     */
    loyaltyPoints: z.enum(LOYALTY_TREATMENTS).default('discount'),
    /** Platform order-item type → receipt description; merged over DEFAULT_ITEM_NAMES. */
    itemNames: z.record(z.string().min(1), z.string().min(1)).default({}),
    /** The only currency the printer prints; other amounts are refused. */
    currency: z.string().length(3).default('EUR'),
  };
}

/** Descriptions for order-item types that carry no name of their own. */
export const DEFAULT_ITEM_NAMES: Readonly<Record<string, string>> = Object.freeze({
  SpaceOrder: 'ALLOGGIO',
  CityTax: 'TASSA DI SOGGIORNO',
});

/** The options above as parsed (the family's schema gives them their defaults). */
export interface FiscalRuleOptions {
  departments: Record<string, number>;
  taxCodeRates: Record<string, number>;
  taxCodeNatures: Record<string, string>;
  itemNatures: Record<string, string>;
  defaultDepartment?: number | undefined;
  customerTaxId: boolean;
  invalidTaxId: 'refuse' | 'print-without';
  lottery: boolean;
  unreferencedRefunds: boolean;
  voidCancellations: boolean;
  /** Absent: `discount`, the schema's default. */
  loyaltyPoints?: LoyaltyTreatment | undefined;
  itemNames: Record<string, string>;
  currency: string;
}

/** What building a document reads: the options with their tables in force. */
export interface FiscalRules extends LineRules, CustomerCodeRules {
  itemNames: Readonly<Record<string, string>>;
  /** Configured payment rules by platform key, over the built-in map (payments.ts). */
  payments: Readonly<Record<string, PaymentRule>>;
  defaultPayment?: PaymentRule | undefined;
  lottery: boolean;
  unreferencedRefunds: boolean;
  voidCancellations: boolean;
  loyaltyPoints: LoyaltyTreatment;
  currency: string;
}

/** The department table in force: the configured entries over the common programming. */
export function departmentTable(options: Pick<FiscalRuleOptions, 'departments'>): Record<string, number> {
  return { ...DEFAULT_DEPARTMENTS, ...options.departments };
}

/** Natures by order-item type or accounting category: the configured ones over the defaults. */
export function itemNatureTable(options: Pick<FiscalRuleOptions, 'itemNatures'>): Record<string, string> {
  return { ...DEFAULT_ITEM_NATURES, ...options.itemNatures };
}

/** The rules of `options`, with the family's payment rules (already in the core's terms). */
export function fiscalRules(
  options: FiscalRuleOptions,
  payments: { rules: Record<string, PaymentRule>; fallback?: PaymentRule | undefined },
): FiscalRules {
  return {
    departments: departmentTable(options),
    taxCodeRates: options.taxCodeRates,
    taxCodeNatures: options.taxCodeNatures,
    itemNatures: itemNatureTable(options),
    defaultDepartment: options.defaultDepartment,
    itemNames: { ...DEFAULT_ITEM_NAMES, ...options.itemNames },
    payments: payments.rules,
    defaultPayment: payments.fallback,
    customerTaxId: options.customerTaxId,
    invalidTaxId: options.invalidTaxId,
    lottery: options.lottery,
    unreferencedRefunds: options.unreferencedRefunds,
    voidCancellations: options.voidCancellations,
    loyaltyPoints: options.loyaltyPoints ?? 'discount',
    currency: options.currency,
  };
}
