import { z } from 'zod';
import { MAX_PRINT_DOCUMENT_BYTES } from '../../src/drivers-api/limits.js';
import { milliseconds } from '../../src/drivers-api/options.js';
import { DeviceTlsSchema } from '../../src/transport/tls-config.js';

/**
 * The driver's `options:` block. Every key is documented in README.md. Defaults suit a front-desk
 * PC with a local CUPS whose queues are named like the platform's printers. Unknown keys are
 * refused (a misspelt `printers` must not pass silently).
 */

const ippUri = z
  .string()
  .min(1)
  .refine((u) => {
    try {
      return /^(ipps?|https?):$/.test(new URL(u).protocol);
    } catch {
      return false;
    }
  }, 'expected an ipp://, ipps://, http:// or https:// printer address');

export const PrinterEntrySchema = z.union([
  ippUri.transform((uri) => ({ uri, label: undefined as string | undefined })),
  z
    .object({
      uri: ippUri,
      /** The name shown in Notes and on the status page (default: the platform's name). */
      label: z.string().min(1).max(80).optional(),
    })
    .strict(),
]);

const MiB = 1024 * 1024;
/** Why `maxFileBytes` stops at MAX_PRINT_DOCUMENT_BYTES, for check-config's message. */
const COMMAND_LIMITS_NOTE = "64 MiB of Base64 (48 MiB decoded) by the agent's command and answer bounds";

export const IppPrinterOptionsSchema = z
  .object({
    /**
     * Platform `PrinterName` → the printer: an `ipp://localhost:631/printers/QUEUE` CUPS queue or
     * an IPP Everywhere printer's `ipp(s)://host/ipp/print`, or `{uri, label}`. Names match
     * exactly first, then ignoring case.
     */
    printers: z.record(z.string().min(1), PrinterEntrySchema).default({}),
    /** The `printers` name used when a command's `PrinterName` is empty. */
    defaultPrinter: z.string().min(1).optional(),
    /**
     * On: a name not in `printers` prints on the CUPS queue of the same name (characters CUPS
     * does not allow in queue names — space, tab, / and # — become `_`) on `cupsUrl`. Off (the
     * default): such a name ends in Error naming the printers the agent knows. Off because a
     * platform name then reaches *any* queue of that name, including the ones cups-browsed
     * creates from announcements on the LAN: a device there could receive guests' documents
     * (issue 27, finding 7). Documents go only where the config says.
     */
    cupsQueues: z.boolean().default(false),
    /** The local CUPS server, for same-name queues and `frontdesk-agent devices`. */
    cupsUrl: ippUri.default('ipp://localhost:631'),
    /** `requesting-user-name` of every job: the owner CUPS and printers show, and Get-Jobs filters on. */
    user: z
      .string()
      .regex(/^[\x21-\x7e]{1,64}$/, 'printable ASCII without spaces, at most 64 characters')
      .default('frontdesk-agent'),
    /** Largest document accepted (decoded bytes); larger ones end in Error before decoding. */
    maxFileBytes: z
      .number()
      .int()
      .min(1024)
      .max(
        MAX_PRINT_DOCUMENT_BYTES,
        `at most ${MAX_PRINT_DOCUMENT_BYTES} (${MAX_PRINT_DOCUMENT_BYTES / MiB} MiB): the platform's FileData is capped at ${COMMAND_LIMITS_NOTE}, so a larger document never reaches the driver`,
      )
      .default(32 * MiB),
    /** Most copies one command may ask for. */
    maxCopies: z.number().int().min(1).max(999).default(20),
    tls: DeviceTlsSchema.optional(),
    /** Timeout of one status, job or cancel request. */
    requestTimeoutMs: milliseconds(100, 10_000),
    /** Timeout of the Print-Job exchange that carries the document. */
    sendTimeoutMs: milliseconds(1000, 120_000),
    /** How often a running job's state is read. */
    pollIntervalMs: milliseconds(50, 1000),
    /**
     * How long the agent follows a job the printer accepted. The job ends when the printer says
     * completed, aborted or canceled; when this passes first: Error (after Cancel-Job) if the
     * printer reports a problem, otherwise Processed with a note that the end was not reported.
     */
    jobTimeoutMs: milliseconds(1000, 120_000),
    /** Before sending, how long to wait for an unreachable printer to come back. */
    offlineWaitMs: milliseconds(0, 30_000),
    /** Background status poll of the configured printers; 0 turns polling off. */
    statusIntervalMs: milliseconds(0, 30_000),
    /** Poll interval while a printer is unreachable or reports a problem. */
    statusRetryMs: milliseconds(100, 5_000),
  })
  .strict()
  .refine((o) => o.defaultPrinter === undefined || Object.hasOwn(o.printers, o.defaultPrinter), {
    path: ['defaultPrinter'],
    message: 'defaultPrinter must be one of the names under printers',
  });

export type IppPrinterOptions = z.infer<typeof IppPrinterOptionsSchema>;

/** Answers of status and job requests are small; a CUPS server with many queues is the largest. */
export const MAX_ANSWER_BYTES = 4 * MiB;
