import { z } from 'zod';
import { type DailyClosureOptions, DailyClosureSchema } from './daily-closure.js';

/** The options every RT family's schema carries, which the kit reads. */
export interface RtOptions {
  url: string;
  allowedHosts?: string[] | undefined;
  tls?: unknown;
  dailyClosure: DailyClosureOptions;
  statusIntervalMs: number;
  statusRetryMs: number;
  settleUnansweredForMinutes: number;
  busyRetries: number;
  busyRetryDelayMs: number;
}

/**
 * The options every RT family's schema takes for the kit's work (`family.ts` `RtOptions`): the
 * closure schedule, the wait for a printer that went away, the busy retries and the status polls.
 * A family spreads them into its `options:` schema; its README documents them.
 */
export const rtOptionFields = {
  dailyClosure: DailyClosureSchema.default(DailyClosureSchema.parse({})),
  /**
   * A document sent to a printer that then went away (no answer, its memory unreadable): how long
   * the driver waits for it to answer again and settle the document from its memory before the
   * outcome is unknown. 15 minutes covers a printer switched off and on, a power cut or a switch
   * restarting (a few minutes) with room to spare. 0: no wait.
   */
  settleUnansweredForMinutes: z.number().min(0).max(240).default(15),
  /**
   * While the printer answers busy: how many times its memory is read again (after
   * `busyRetryDelayMs`), and — where the family resends a document proven unprinted after a busy
   * answer (Epson LAN_TIME_OUT) — how many times it is sent again.
   */
  busyRetries: z.number().int().min(0).max(5).default(2),
  busyRetryDelayMs: z.number().int().min(0).default(2_000),
  /** Background status poll interval; 0 turns polling off. */
  statusIntervalMs: z.number().int().min(0).default(60_000),
  /** Poll interval while the printer is unreachable or after a failed job. */
  statusRetryMs: z.number().int().min(100).default(10_000),
};

/**
 * The HTTP timeouts of a printer that answers a document only once it has carried it out (Custom's
 * XML protocol p.16, RCH's web service): a document, an X or Z report (printing takes time), and
 * the status, counter and journal reads, which are answered at once. Epson's fpmate has its own
 * (its `timeout=` parameter and the client's above it).
 */
export const documentTimeoutFields = {
  documentTimeoutMs: z.number().int().min(500).default(30_000),
  reportTimeoutMs: z.number().int().min(500).default(60_000),
  readTimeoutMs: z.number().int().min(100).default(5_000),
};
