import { z } from 'zod';

/**
 * The fault switches of the simulator, shared by scenarios (`faults:`), the admin API
 * (`POST /_sim/faults`) and the in-process `setFaults()`. A patch replaces whole sections: keys a
 * section leaves out take their defaults (off).
 */

export const MALFORMED_KINDS = [
  'bad-base64',
  'garbage-fiscal-machine-data',
  'missing-field',
  'unknown-device-type',
  'huge-strings',
  'deep-nesting',
] as const;
export type MalformedKind = (typeof MALFORMED_KINDS)[number];

const probability = z.number().min(0).max(1);
/** Connector operations a request fault applies to (`commands/update` …); absent = all. */
const operations = z.array(z.string().min(1)).min(1).optional();

const RequestFaultSchema = z
  .object({
    /** Probability per request. */
    rate: probability.default(0),
    /** The next N requests (of the listed operations) get the fault for sure. */
    next: z.number().int().min(0).default(0),
    /**
     * With `next`: the fault hits every `every`-th matching request until the N are spent, the
     * others pass (`{ next: 1, every: 5 }` = the 5th request from now). Counting restarts when
     * the section is set.
     */
    every: z.number().int().min(1).default(1),
    operations,
  })
  .strict();

export const FaultsSchema = z
  .object({
    /** Added before every Connector API request is handled; `null` = none. */
    latency: z
      .object({ ms: z.number().min(0), jitterMs: z.number().min(0).default(0), operations })
      .strict()
      .nullable()
      .default(null),
    /** Answers 5xx instead of handling the request. */
    serverErrors: RequestFaultSchema.extend({
      status: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).default(503),
    })
      .strict()
      .prefault({}),
    /** The next N requests get 429 with `Retry-After: retryAfterSeconds`. */
    rateLimitBurst: z
      .object({
        next: z.number().int().min(0).default(0),
        retryAfterSeconds: z.number().int().min(1).default(1),
      })
      .strict()
      .prefault({}),
    /** The connection is destroyed after the request arrived; nothing is answered. */
    resets: RequestFaultSchema.prefault({}),
    /** The request is never answered; the connection stays open until the client gives up. */
    hangs: RequestFaultSchema.prefault({}),
    /**
     * A captive portal, proxy or firewall login answers instead of the platform: `200` with an
     * HTML page; the platform never sees the request.
     */
    captivePortal: RequestFaultSchema.prefault({}),
    /**
     * A hostile proxy answers `200` with a small gzip body (about 600 KB) that inflates to 600 MB;
     * the platform never sees the request.
     */
    gzipBomb: RequestFaultSchema.prefault({}),
    /** Generated commands carry broken data with this probability (one of `kinds` at random). */
    malformed: z
      .object({
        rate: probability.default(0),
        kinds: z
          .array(z.enum(MALFORMED_KINDS))
          .min(1)
          .default([...MALFORMED_KINDS]),
      })
      .strict()
      .prefault({}),
    websocket: z
      .object({
        /** Refuse every WebSocket upgrade with 503. */
        refuse: z.boolean().default(false),
        /** Close every open WebSocket this often; `null` = never. */
        dropEverySeconds: z.number().positive().nullable().default(null),
      })
      .strict()
      .prefault({}),
    /**
     * When a command reaches Processing, staff cancels it after `delayMs`: the next `next` such
     * commands for sure, any other with `probability`.
     */
    cancelOnProcessing: z
      .object({
        probability: probability.default(0),
        next: z.number().int().min(0).default(0),
        delayMs: z.number().int().min(0).default(0),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type Faults = z.infer<typeof FaultsSchema>;
/** A patch: each given section replaces the current one. */
export const FaultsPatchSchema = FaultsSchema.partial();
export type FaultsPatch = z.input<typeof FaultsPatchSchema>;

export function noFaults(): Faults {
  return FaultsSchema.parse({});
}
