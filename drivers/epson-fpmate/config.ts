import { z } from 'zod';
import { DeviceTlsSchema } from '../../src/transport/tls-config.js';
import { DEFAULT_DEPARTMENTS, DEFAULT_ITEM_NATURES, NATURE_PATTERN } from './natures.js';
import { DEFAULT_LINE_LENGTH } from './protocol.js';

/**
 * The driver's `options:` block. Every key is documented in README.md with an example.
 * Defaults suit an FP-81 II RT / FP-90III on the hotel LAN over plain HTTP. Unknown keys are
 * refused (a misspelt `departments` or `fingerprint` must not pass silently).
 */

const httpUrl = z
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'expected an http:// or https:// address of the printer');

/** `url: fromPlatform`: the printer address comes from each command's ApiUrl, within `allowedHosts`. */
export const FROM_PLATFORM = 'fromPlatform';

/** A host the platform's ApiUrl may name: `192.168.1.50`, `printer.lan`, `[fd00::5]`, with `:port` or not. */
const allowedHost = z
  .string()
  .min(1)
  .refine((h) => {
    try {
      const u = new URL(`http://${h}`);
      return u.host === h.toLowerCase() || u.hostname === h.toLowerCase();
    } catch {
      return false;
    }
  }, 'expected a host name or IP address, optionally with :port (no scheme, no path)');

const description = z.string().min(1).max(DEFAULT_LINE_LENGTH).optional();

/**
 * A platform payment type as the printer records it: a `printRecTotal` (Epson `paymentType`: 0
 * cash, 1 cheque, 2 electronic, 3 ticket, 4 tickets by number, 5 not collected, 6 discount to
 * pay; `index` the variant), or a deduction from the total (`deposit`: an acconto already
 * receipted; `single-use-voucher`: a buono monouso). See payment-types.ts.
 */
export const PaymentMappingSchema = z.union([
  z
    .object({
      paymentType: z.number().int().min(0).max(6),
      index: z.number().int().min(0).max(10).default(0),
      description,
    })
    .strict(),
  z.object({ deduct: z.enum(['deposit', 'single-use-voucher']), description }).strict(),
]);

/** A department key: a VAT rate in percent ("22", "5.5") or a nature ("N1", "N2.2"). */
const departmentKey = z
  .string()
  .regex(
    /^(\d{1,2}(\.\d{1,2})?|N[1-6](\.[1-6])?)$/,
    'a VAT rate in percent ("22", "5.5") or a nature ("N1" … "N6", "N2.2")',
  );
const natureValue = z.string().regex(NATURE_PATTERN, 'a nature: "N1" … "N6", optionally "N2.2"');

export const DailyClosureSchema = z
  .object({
    /** Run the Z report every day at `at` (local time of the property). */
    enabled: z.boolean().default(true),
    /** Local time, 24 h "HH:MM"; a time the DST change skips runs when the clock jumps past it. */
    at: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a local time "HH:MM", e.g. "03:30"')
      .default('03:30'),
    /**
     * The closing command: `printXZReport` (financial report and closure; OCA l10n-italy warns that
     * Epson forbids `printZReport` by default) or `printZReport` (fiskaltrust sends it).
     */
    command: z.enum(['printXZReport', 'printZReport']).default('printXZReport'),
    /** After a failed attempt, try again this many minutes later … */
    retryMinutes: z.number().int().min(1).max(240).default(15),
    /** … for at most this many hours after the scheduled time. */
    retryForHours: z.number().min(0.25).max(20).default(6),
    /** Warn on the page and in /metrics once the fiscal day has been open this long. */
    warnAfterHours: z.number().min(1).max(24).default(20),
    /**
     * When the printer refuses a receipt because the fiscal day is open too long (status 17):
     * `close-and-print` runs the Z report and prints the receipt (it was not printed);
     * `refuse` reports the error.
     */
    onDayTooLong: z.enum(['close-and-print', 'refuse']).default('close-and-print'),
  })
  .strict();
export type DailyClosureOptions = z.infer<typeof DailyClosureSchema>;

export const EpsonFpmateOptionsSchema = z
  .object({
    /**
     * Printer address, e.g. http://192.168.1.50 — or `fromPlatform`: each command's ApiUrl, and then
     * only a host listed in `allowedHosts`. Required: the platform never decides by default where
     * receipts go.
     */
    url: z.union([z.literal(FROM_PLATFORM), httpUrl], {
      error: `expected the printer's http(s):// address, or ${FROM_PLATFORM} with allowedHosts`,
    }),
    /** With `url: fromPlatform`: the hosts (optionally host:port) the command's ApiUrl may name. */
    allowedHosts: z.array(allowedHost).min(1).optional(),
    devid: z.string().min(1).default('local_printer'),
    /** The fpmate `timeout=` query parameter: how long fpmate waits for the fiscal firmware. */
    printerTimeoutMs: z.number().int().min(100).default(10_000),
    /** HTTP client timeout of a document; must exceed printerTimeoutMs. Default: that + 5 s. */
    clientTimeoutMs: z.number().int().min(200).optional(),
    /** HTTP client timeout of status and last-document reads. */
    readTimeoutMs: z.number().int().min(100).default(5_000),
    tls: DeviceTlsSchema.optional(),
    operator: z
      .string()
      .regex(/^\d{1,2}$/)
      .default('1'),
    /** Overrides the serial read from the printer (used in Notes and refund references). */
    serialNumber: z
      .string()
      .regex(/^[0-9A-Za-z]{1,16}$/)
      .optional(),
    /** VAT rate (percent) or nature → printer department; merged over DEFAULT_DEPARTMENTS. */
    departments: z.record(departmentKey, z.number().int().min(1).max(99)).default({}),
    /** Platform tax code → VAT rate (percent); wins over the code's own "NN%" and the amounts. */
    taxCodeRates: z.record(z.string().min(1), z.number().min(0).max(100)).default({}),
    /** Platform tax code → nature, for codes the platform uses on lines without VAT. */
    taxCodeNatures: z.record(z.string().min(1), natureValue).default({}),
    /** Order-item type or accounting category id → nature; merged over DEFAULT_ITEM_NATURES. */
    itemNatures: z.record(z.string().min(1), natureValue).default({}),
    /** Department for lines the agent cannot classify; absent = refuse such bills. */
    defaultDepartment: z.number().int().min(1).max(99).optional(),
    /** Platform payment type → printer payment or deduction; merged over DEFAULT_PAYMENT_RULES. */
    payments: z.record(z.string().min(1), PaymentMappingSchema).default({}),
    /** For payment types no rule covers; absent = refuse such bills (nothing printed). */
    defaultPayment: PaymentMappingSchema.optional(),
    /** Print the command's TaxIdentifier: codice fiscale (directIO 1061) or partita IVA (1060). */
    customerTaxId: z.boolean().default(true),
    /** Print a lottery code (printRecLotteryID) when the command carries one. */
    lottery: z.boolean().default(true),
    /** A refund that names no original receipt prints as `REFUND 0000 0000 ddMMyyyy ND`. */
    unreferencedRefunds: z.boolean().default(true),
    /** A refund of a cancellation bill (CorrectionType Cancellation) voids the original receipt. */
    voidCancellations: z.boolean().default(true),
    /** Ask the printer (directIO 9205) whether a refund or void reference is valid before printing. */
    checkReferences: z.boolean().default(true),
    dailyClosure: DailyClosureSchema.default(DailyClosureSchema.parse({})),
    /** Platform order-item type → receipt description; merged over DEFAULT_ITEM_NAMES. */
    itemNames: z.record(z.string().min(1), z.string().min(1)).default({}),
    currency: z.string().length(3).default('EUR'),
    lineLength: z.number().int().min(10).max(64).default(DEFAULT_LINE_LENGTH),
    /** Extra header lines printed above each receipt (printRecMessage type 1). */
    headerLines: z.array(z.string().min(1)).max(4).default([]),
    /** After a lost answer, resend once when the printer proves it did not print. */
    resendWhenNotPrinted: z.boolean().default(true),
    /**
     * A document sent to a printer that then went away (no answer, counters unreadable): how long
     * the driver waits for it to answer again and settle the document from its counters before
     * the outcome is unknown. 15 minutes covers a printer switched off and on, a power cut or a
     * switch restarting (a few minutes) with room to spare, and no longer keeps the desk without
     * an answer while nothing else can print on this printer anyway. 0: no wait.
     */
    settleUnansweredForMinutes: z.number().min(0).max(240).default(15),
    /**
     * While the printer answers LAN_TIME_OUT: how many times its counters are read again (after
     * `busyRetryDelayMs`) to learn what became of a document, and how many times a document they
     * prove unprinted is sent again.
     */
    busyRetries: z.number().int().min(0).max(5).default(2),
    busyRetryDelayMs: z.number().int().min(0).default(2_000),
    /** Background status poll interval; 0 turns polling off. */
    statusIntervalMs: z.number().int().min(0).default(60_000),
    /** Poll interval while the printer is unreachable or after a failed job. */
    statusRetryMs: z.number().int().min(100).default(10_000),
  })
  .strict()
  .refine((o) => o.clientTimeoutMs === undefined || o.clientTimeoutMs > o.printerTimeoutMs, {
    path: ['clientTimeoutMs'],
    message: 'clientTimeoutMs must be longer than printerTimeoutMs',
  })
  .refine((o) => o.url !== FROM_PLATFORM || o.allowedHosts !== undefined, {
    path: ['allowedHosts'],
    message: `url: ${FROM_PLATFORM} needs allowedHosts, the printers the platform may name`,
  })
  .refine((o) => o.url === FROM_PLATFORM || o.allowedHosts === undefined, {
    path: ['allowedHosts'],
    message: `allowedHosts applies only with url: ${FROM_PLATFORM}`,
  });

export type EpsonFpmateOptions = z.infer<typeof EpsonFpmateOptionsSchema>;

/** Descriptions for order-item types that carry no name of their own. */
export const DEFAULT_ITEM_NAMES: Record<string, string> = {
  SpaceOrder: 'ALLOGGIO',
  CityTax: 'TASSA DI SOGGIORNO',
};

/** The client timeout actually used for documents. */
export function documentTimeoutMs(options: EpsonFpmateOptions): number {
  return options.clientTimeoutMs ?? options.printerTimeoutMs + 5_000;
}

/** The department table in force: the configured entries over the common programming. */
export function departmentTable(options: EpsonFpmateOptions): Record<string, number> {
  return { ...DEFAULT_DEPARTMENTS, ...options.departments };
}

/** Natures by order-item type or accounting category: the configured ones over the defaults. */
export function itemNatureTable(options: EpsonFpmateOptions): Record<string, string> {
  return { ...DEFAULT_ITEM_NATURES, ...options.itemNatures };
}
