import { z } from 'zod';

/**
 * The `dailyClosure:` options every RT family shares: when the Z report runs, how long it is
 * retried, when an open day warns. Each family's `command` enum says which report closes its day.
 */
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
     * Epson forbids `printZReport` by default) or `printZReport` (fiskaltrust sends it). Custom
     * has both under the same names (XML protocol manual rev 2.00 pp.104–105).
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
