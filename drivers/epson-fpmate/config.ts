import { z } from 'zod';
import { DeviceTlsSchema } from '../../src/transport/tls-config.js';
import { type FiscalRules, fiscalRuleFields, fiscalRules, PaymentRuleSchema } from '../fiscal-it/rules.js';
import { type EpsonPayments, epsonPayments } from './payment-codes.js';
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
    /** The Italian fiscal rules (`drivers/fiscal-it/rules.ts`); Epson departments run 1–99. */
    ...fiscalRuleFields(99),
    /** Platform payment → payment kind, deduction or Epson code; over the core's built-in map. */
    payments: z.record(z.string().min(1), PaymentMappingSchema).default({}),
    /** For payment types no rule covers; absent = refuse such bills (nothing printed). */
    defaultPayment: PaymentMappingSchema.optional(),
    /** Ask the printer (directIO 9205) whether a refund or void reference is valid before printing. */
    checkReferences: z.boolean().default(true),
    dailyClosure: DailyClosureSchema.default(DailyClosureSchema.parse({})),
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

/** The client timeout actually used for documents. */
export function documentTimeoutMs(options: EpsonFpmateOptions): number {
  return options.clientTimeoutMs ?? options.printerTimeoutMs + 5_000;
}

/** The configured payments in the core's terms, with the Epson codes configured as such. */
export function paymentsOf(options: EpsonFpmateOptions): EpsonPayments {
  return epsonPayments(options.payments, options.defaultPayment);
}

/** The fiscal core's rules of this printer's options. */
export function rulesOf(options: EpsonFpmateOptions): FiscalRules {
  const payments = paymentsOf(options);
  return fiscalRules(options, { rules: payments.rules, fallback: payments.fallback });
}
