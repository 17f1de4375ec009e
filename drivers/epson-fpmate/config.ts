import { z } from 'zod';
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

const fingerprintSchema = z
  .string()
  .transform((s) => s.replace(/[\s:]/g, '').toUpperCase())
  .refine((s) => /^[0-9A-F]{64}$/.test(s), 'expected a SHA-256 fingerprint (64 hex digits, colons allowed)')
  .transform((s) => s.match(/../g)?.join(':') ?? s);

export const TlsOptionsSchema = z
  .object({
    /** PEM file of the CA (or the printer's own self-signed certificate) to trust. */
    caFile: z.string().min(1).optional(),
    /** SHA-256 fingerprint of the printer's certificate; pins it, CA or not. */
    fingerprint: fingerprintSchema.optional(),
    /** Name to check the certificate against when it does not match the address (IP). */
    serverName: z.string().min(1).optional(),
    /** Accept any certificate. Only by explicit opt-in; logged as a warning. */
    insecure: z.boolean().default(false),
  })
  .strict()
  .refine((t) => !(t.insecure && (t.caFile || t.fingerprint)), 'insecure excludes caFile and fingerprint');

export const PaymentMappingSchema = z
  .object({
    /** Epson paymentType: 0 cash, 1 cheque, 2 credit/card (electronic), 3 ticket, 5 not paid … */
    paymentType: z.number().int().min(0).max(6),
    index: z.number().int().min(0).max(10).default(0),
    description: z.string().max(DEFAULT_LINE_LENGTH).optional(),
  })
  .strict();
export type PaymentMapping = z.infer<typeof PaymentMappingSchema>;

const rateKey = z.string().regex(/^\d{1,2}(\.\d{1,2})?$/, 'VAT rate in percent, e.g. "22" or "5.5"');

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
    tls: TlsOptionsSchema.optional(),
    operator: z
      .string()
      .regex(/^\d{1,2}$/)
      .default('1'),
    /** Overrides the serial read from the printer (used in Notes and refund references). */
    serialNumber: z
      .string()
      .regex(/^[0-9A-Za-z]{1,16}$/)
      .optional(),
    /** VAT rate (percent) → printer department. */
    departments: z
      .record(rateKey, z.number().int().min(1).max(99))
      .default({ '22': 1, '10': 2, '4': 3, '0': 4 }),
    /** Platform tax code → VAT rate (percent); wins over deriving the rate from the amounts. */
    taxCodeRates: z.record(z.string().min(1), z.number().min(0).max(100)).default({}),
    /** Department for lines whose rate cannot be told; absent = refuse such bills. */
    defaultDepartment: z.number().int().min(1).max(99).optional(),
    /** Platform payment type → Epson payment; merged over CashPayment → 0, CreditCardPayment → 2. */
    payments: z.record(z.string().min(1), PaymentMappingSchema).default({}),
    /** For payment types not in `payments`: electronic payment (2) by default. */
    defaultPayment: PaymentMappingSchema.default({ paymentType: 2, index: 1 }),
    /** Platform order-item type → receipt description; merged over DEFAULT_ITEM_NAMES. */
    itemNames: z.record(z.string().min(1), z.string().min(1)).default({}),
    currency: z.string().length(3).default('EUR'),
    lineLength: z.number().int().min(10).max(64).default(DEFAULT_LINE_LENGTH),
    /** Extra header lines printed above each receipt (printRecMessage type 1). */
    headerLines: z.array(z.string().min(1)).max(4).default([]),
    /** After a lost answer, resend once when the printer proves it did not print. */
    resendWhenNotPrinted: z.boolean().default(true),
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

export const DEFAULT_PAYMENTS: Record<string, PaymentMapping> = {
  CashPayment: { paymentType: 0, index: 0, description: 'CONTANTI' },
  CreditCardPayment: { paymentType: 2, index: 1, description: 'CARTA DI CREDITO' },
};

/** Descriptions for order-item types that carry no name of their own. */
export const DEFAULT_ITEM_NAMES: Record<string, string> = {
  SpaceOrder: 'ALLOGGIO',
  CityTax: 'TASSA DI SOGGIORNO',
};

/** The client timeout actually used for documents. */
export function documentTimeoutMs(options: EpsonFpmateOptions): number {
  return options.clientTimeoutMs ?? options.printerTimeoutMs + 5_000;
}
