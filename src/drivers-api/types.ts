import type { z } from 'zod';
import type { Clock } from '../clock.js';
import type { CommandData, PlatformCommand } from '../connector/model.js';
import type { WireOrderItem, WirePayment } from '../connector/wire.js';
import type { AgentError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Message } from '../messages/message.js';
import type { HttpClient, HttpClientOptions } from '../transport/http.js';
import type { TransportFactory } from '../transport/types.js';

/**
 * The contract between the core and a device driver. A driver is built per configured device by
 * its factory, owns that device exclusively, and is driven one job at a time by the core's
 * per-device queue (so `execute` and `reconcile` are never called concurrently on one driver).
 *
 * The rules on `Driver` below are checked over every driver, on every device it talks to, by the
 * driver contract suite (`test/drivers/contract/`). A new driver joins it by adding one
 * `ContractEntry` (how to start its device or simulator, a job the device completes, how to count
 * the device's side effects) to `test/drivers/contract/entries/index.ts`; a driver kind in
 * `drivers/index.ts` without an entry fails the suite.
 */

export type DeviceType = 'FiscalMachine' | 'KeyCutter' | 'Printer';

/**
 * One device fact, as `/status.json` keeps it and the page shows it (in the page's language):
 * - a number (shown in the locale's digits) or a flag (yes / no);
 * - words: a `Message` of the family's catalogue — an enumerated state is best one `select`
 *   message whose value is the state's code (`{id: 'epson.fact.paper', values: {state: 'low'}}`),
 *   so the code stays readable in the JSON;
 * - a string: a value as the device or the configuration states it — a serial number, an address,
 *   a status code — shown as it is, never words; or a time, as an ISO 8601 timestamp
 *   (`factTime` in `facts.ts`, `2026-11-27T02:30:00.000Z`: shown in the property's time zone) or calendar date
 *   (`2030-12-31`: shown as a date). `/metrics` exports numbers, flags and times
 *   (`numericFacts` in `facts.ts`);
 * - null: not known (left out of the page).
 */
export type FactValue = string | number | boolean | null | Message;

/**
 * A driver family's facts, typed by its catalogue of fact labels (the entries of its namespace
 * `label.<kind>`): a fact whose key has no label is a type error, so the page never shows a key
 * for a label.
 */
export type FactsOf<Labels> = { [K in keyof Labels & string]?: FactValue };

export interface DriverFactory<C = unknown> {
  /** Stable name used in the config's `driver:` key, e.g. "epson-fpmate". */
  readonly kind: string;
  readonly deviceType: DeviceType;
  /** The driver's own `options:` schema; the core validates with it and never looks inside. */
  readonly configSchema: z.ZodType<C>;
  /**
   * The version of what this driver stores with `checkpoint()` (default 1). The core keeps every
   * checkpoint as `{driver: kind, version, data}` and hands `data` back only to the same kind at
   * the same version: raise it when the shape changes in a way an older reader would misread.
   * A job whose checkpoint is of another kind or version, or unreadable, ends as unknown ("check
   * the device") without the driver being asked.
   */
  readonly checkpointVersion?: number;
  create(config: C, ctx: DriverContext): Driver;
  /**
   * Optional, for demonstrations (`npm start`): starts this driver family's device simulator at
   * the loopback address the options point to, so the real driver has a device to talk to.
   * Rejects with CONFIG_INVALID when the options do not point at a loopback address it can serve.
   */
  simulate?(config: C, device: { id: string; name: string; log: Logger }): Promise<SimulatedDevice>;
  /**
   * Optional, for `frontdesk-agent devices`: looks for devices this family could drive (local
   * print queues, printers announced on the LAN) and suggests `options:` for each. Never rejects:
   * what it cannot read goes into `problems`.
   */
  discover?(ctx: DiscoveryContext): Promise<DiscoveryReport>;
  /**
   * Optional, for `frontdesk-agent check-config`: what these (already validated) options mean, one
   * message each, in words IT checks against the device ("department 1: VAT 22 %"), printed in the
   * configured language. Never throws.
   */
  describe?(config: C): Message[];
}

export interface DiscoveryContext {
  /** The agent's HTTP stack, as drivers get it. */
  http: (options?: HttpClientOptions) => HttpClient;
  log: Logger;
  signal: AbortSignal;
  /** How long a LAN browse (mDNS) may listen; 0: no LAN browse. */
  browseMs: number;
}

/** A device a driver family found, with the configuration that would use it. */
export interface DiscoveredDevice {
  /** Where it was found: "CUPS queue", "IPP printer on the LAN (mDNS)". */
  source: string;
  name: string;
  /** Its address as the options would name it. */
  address: string;
  /** One line for a person: make and model, state. */
  note: string;
  /** The driver's `options:` that would use it. */
  suggestedOptions: Record<string, unknown>;
}

export interface DiscoveryReport {
  devices: DiscoveredDevice[];
  /** What could not be looked at, in words IT understands. */
  problems: string[];
}

/** A device simulator started by `DriverFactory.simulate`. */
export interface SimulatedDevice {
  /** Where it listens, for the log: "fpmate printer at http://127.0.0.1:8091". */
  description: string;
  close(): Promise<void>;
}

/** The job the core hands a driver: one platform command, already normalised and journaled. */
export interface Job {
  commandId: string;
  deviceId: string;
  /** The command as last read from the platform. */
  command: PlatformCommand;
  data: CommandData;
  /** 1 for the first run; higher when the core runs it again after `not-done`. */
  attempt: number;
  /**
   * The last value the driver stored with `checkpoint()` for this job, as persisted in the
   * journal; `undefined` when it never stored one. Survives crashes. The core only hands over a
   * checkpoint written by this driver kind at its current `checkpointVersion`; a value the driver
   * still cannot make sense of (corrupt, or from a build with the same version but another shape)
   * means `reconcile` must answer `unknown`, never `not-done`: the device may have acted.
   */
  checkpoint?: unknown;
}

export interface ExecuteContext {
  /** Fires when the command is cancelled or the agent shuts down past its deadline. */
  signal: AbortSignal;
  /**
   * Reports progress as a fraction 0..1. The core throttles what reaches the platform (at most
   * one update a second), except milestones (`{milestone: true}`, e.g. each key card), which are
   * always sent.
   */
  progress(fraction: number, options?: { milestone?: boolean }): void;
  /**
   * Stores `value` (JSON-serialisable) as this job's checkpoint: it is journaled when the call
   * returns (a crash of the agent cannot lose it) and on disk when the promise resolves (a power
   * cut cannot either). Call it, and await it, before every side effect the driver must be able to
   * reason about after a crash (a document sent, a card written). What has no effect on the device
   * may overlap the wait: the RT drivers open the printer's connection meanwhile and write the
   * document only once the promise resolves (`HttpRequest.holdUntil`). The value is handed back in
   * `Job.checkpoint` to `reconcile()`. A checkpoint after the last side effect passes
   * `{final: true}`: it is journaled, and goes to disk with the job's result, which the core flushes
   * after `execute` resolves; its promise resolves once journaled, and no sync is spent on it.
   * Rejects with JOURNAL_ERROR when the journal cannot keep it: the side effect must not happen.
   */
  checkpoint(value: unknown, options?: { final?: boolean }): Promise<void>;
}

/**
 * A finished job. `notes` is what the receptionist reads: a message of the driver family's
 * catalogue (`drivers/<family>/messages.ts`), rendered in the configured language for the
 * platform's Notes and the page, in English for the log. `details` goes into the journal.
 */
export interface JobResult {
  notes: Message;
  details?: Record<string, unknown>;
}

/**
 * What a driver can say about a job that started but whose outcome was lost (crash, lost answer).
 * - `done`: it happened; `result` is what to report.
 * - `not-done`: it certainly did not happen; the core may run it again. Only with proof: no
 *   checkpoint at all, or one the driver reads and that shows nothing reached the device. A
 *   checkpoint the driver cannot read is `unknown`, never `not-done`.
 * - `failed`: it certainly ended in this error (e.g. some cards cut, then the encoder refused).
 * - `unknown`: the device cannot tell; the core reports Error with `reason` (staff's words on
 *   why, after the STATE_UNKNOWN sentence), never re-runs.
 */
export type Reconciliation =
  | { outcome: 'done'; result: JobResult }
  | { outcome: 'not-done' }
  | { outcome: 'failed'; error: AgentError }
  | { outcome: 'unknown'; reason: Message };

/** A cheap, never-throwing picture of the device for the status page and metrics. */
export interface DeviceStatus {
  /** The device answered its last contact. */
  connected: boolean;
  /** One line a person understands: "ready", "paper out", "unplugged — waiting for it". */
  summary: Message;
  /** Epoch ms of the last successful contact. */
  lastContact?: number;
  /** Problems staff should act on, in their words. */
  warnings: Message[];
  /**
   * Driver-specific facts (paper, cover, fiscal day, files pending …), flat and JSON-safe (see
   * `FactValue`). Each key is labelled by the family's `label.<kind>.<key>` message (`FactsOf`).
   */
  facts: Record<string, FactValue>;
  /**
   * The keys of `facts` staff act on (paper, the fiscal day, the next closure), in the order the
   * page's device card leads with; the page folds the other facts under "Technical details".
   * Without it, every fact is shown.
   */
  staffFacts?: readonly string[];
}

export interface Driver {
  /**
   * Makes the device ready; the core calls it before every `execute` and `reconcile`.
   * - Idempotent: on an open driver it resolves without opening again; concurrent calls are
   *   fine; after `close()` it opens again.
   * - Never throws synchronously; every failure is a rejection with an AgentError.
   * - Resolves once the device answered. When the device cannot be reached (connection refused,
   *   unplugged, switched off, not answering) it rejects with DEVICE_UNAVAILABLE, retryable —
   *   the same for every driver, never a resolve that hides it — and the driver stays usable:
   *   `status()` says not connected, the next `open()` tries again (a driver may also reconnect in
   *   the background), and `open()` resolves once the device is back.
   * - Rejects with ABORTED when `signal` fires, or has fired, before the device answered: it
   *   never waits past the signal.
   * - Rejects with a non-retryable error what staff must fix first (no permission on a port).
   */
  open(signal: AbortSignal): Promise<void>;
  /**
   * Runs the job on the device. Rejects with an AgentError whose `notes` tell staff what
   * happened and what to do.
   * - Stores a checkpoint (`ctx.checkpoint`) before every side effect, so that after a crash at
   *   any moment `reconcile` never answers `not-done` for something the device did.
   * - Abort: with `ctx.signal` already aborted it rejects with ABORTED and the device does
   *   nothing. On an abort while it runs it stops at the next safe point and rejects with ABORTED
   *   — unless the side effect already happened, in which case it resolves with the real outcome
   *   (never ABORTED for a job the device finished).
   * - A device gone since `open()`: it rejects retryable (DEVICE_UNAVAILABLE) with nothing done.
   *
   * Once the driver has stored a checkpoint, the core treats a failure as "the device may have
   * acted" and never retries it — unless the error's `details.nothingSent` is `true`: the driver
   * knows the device did nothing (the connection was refused, the device answered busy), so a
   * retryable error may be retried.
   */
  execute(job: Job, ctx: ExecuteContext): Promise<JobResult>;
  /**
   * Decides the fate of a job that started before a crash or lost its answer. It answers on a
   * driver that was never opened (the agent after a restart), and from the checkpoint alone
   * where the checkpoint decides: none → `not-done`; one that exists but that the driver cannot
   * read (corrupt, of another shape, inconsistent with the job) → `unknown` with a reason staff
   * can act on, never `not-done`; the checkpoint of a completed job → `done` with the result
   * `execute` gave. It never runs the job again. The core calls it even when `open()` just
   * failed; where the answer needs the device and the device does not answer, it rejects
   * retryable (DEVICE_UNAVAILABLE) — "away" is not `unknown` — and the core asks again later.
   */
  reconcile(job: Job, signal: AbortSignal): Promise<Reconciliation>;
  /**
   * Never throws, in every state (before `open()`, open, device gone, after `close()`), and is
   * well-formed: a non-empty summary, warnings as sentences, flat JSON-safe facts; `connected` is
   * false before the first answer and after a contact that got none.
   */
  status(): DeviceStatus;
  /**
   * Optional: what staff may do on this device besides the platform's commands (a fiscal
   * printer's X or Z report, voiding a receipt). The running agent offers them on the status page
   * and to `frontdesk-agent` subcommands (`src/status/actions/device-actions.ts`): validated with each
   * action's `params`, rate-limited and audited. The driver serialises an action with its jobs.
   * Cheap and constant: called for every snapshot.
   */
  actions?(): readonly DeviceAction[];
  /** Idempotent, also without `open()`; never rejects. Stops background work, releases the device. */
  close(): Promise<void>;
}

/** A field of a device action's form (the status page) and option (the command line). */
export interface ActionField {
  /** The parameter's name: the form field, and `--<name>` on the command line. */
  name: string;
  /** What the page shows beside the field. */
  label: Message;
  required: boolean;
  /** A hint shown in the empty field, e.g. "0012-0034". */
  placeholder?: string;
  /** The kind of input: free text (default) or a calendar date (YYYY-MM-DD). */
  kind?: 'text' | 'date';
}

/**
 * One device action. `params` validates the raw strings a form or a command line sends (unknown
 * keys are the schema's business); `run` performs it and resolves to what staff read (`notes`)
 * and what the audit keeps (`details`), or rejects with an AgentError whose `notes` say what
 * happened and what to do. Build one with `defineAction` (`src/drivers-api/actions.ts`).
 */
export interface DeviceAction<P = unknown> {
  /** Stable, kebab-case: the address `/actions/<device>/<name>`. */
  name: string;
  /** The button's text: "Print X report". */
  label: Message;
  /** One sentence: what it does and when to use it. */
  description: Message;
  fields: readonly ActionField[];
  /** When set, the page asks the person to tick this sentence before it runs. */
  confirm?: Message;
  params: z.ZodType<P>;
  run(params: P, signal: AbortSignal): Promise<JobResult>;
}

/** Read access to the platform that drivers need (the fiscal driver reads a bill's lines). */
export interface PlatformReader {
  orderItems(billId: string, signal?: AbortSignal): Promise<WireOrderItem[]>;
  payments(billId: string, signal?: AbortSignal): Promise<WirePayment[]>;
}

/** Small durable key-value store, one namespace per device, kept in the journal. */
export interface DeviceStore {
  get(key: string): unknown;
  /**
   * Stores synchronously: the value is journaled when this returns, so a crash of the agent cannot
   * lose it; a power cut can, until the next `flush()` (or checkpoint) resolves.
   */
  set(key: string, value: unknown): void;
  /**
   * Resolves when every value set before the call is on disk. Await it before a side effect that
   * depends on a value (a closure in flight, a staff action's document). Rejects with
   * JOURNAL_ERROR when the journal cannot.
   */
  flush(): Promise<void>;
}

export interface DriverContext {
  deviceId: string;
  deviceName: string;
  /** IANA zone of the property (encoder validity, fiscal dates). */
  timezone: string;
  log: Logger;
  clock: Clock;
  store: DeviceStore;
  platform: PlatformReader;
  /** Opens transports; drivers never open hardware themselves. */
  io: TransportFactory;
  /**
   * Opens HTTP clients for network devices (fiscal printers, IPP printers) on the agent's one
   * HTTP stack (`src/transport/http.ts`): bounded answers, timeouts, TLS with a CA or a pinned
   * fingerprint, and failures that say whether the request can have reached the device.
   */
  http: (options?: HttpClientOptions) => HttpClient;
}

/** The explicit set of driver factories a build knows, by `kind`. */
export type DriverRegistry = ReadonlyMap<string, () => Promise<DriverFactory<unknown>>>;
