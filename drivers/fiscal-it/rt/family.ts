import type {
  DeviceAction,
  DeviceStatus,
  DriverContext,
  ExecuteContext,
  Job,
  JobResult,
} from '../../../src/drivers-api/types.js';
import type { AgentError } from '../../../src/errors.js';
import type { Message } from '../../../src/messages/message.js';
import type { HttpClient } from '../../../src/transport/http.js';
import type { BuildContext } from '../build.js';
import type { DocumentReference } from '../reference.js';
import type { CloseDay, ClosureRecord, FiscalState } from './fiscal-state.js';
import type { RtOptions } from './options.js';
import type { ReconcileContext } from './reconcile.js';

/**
 * The family interface of the RT kit (docs/adding-a-driver-family.md). The kit's driver
 * (`driver.ts`) owns the device's turn, the line and its address, the checkpoint before every
 * send, the decision from witnesses, settling unanswered documents, the closure scheduler, the
 * status polls, staff actions and reprint's place in the turn; a family supplies protocol only:
 * its link, how a command becomes its request (planned before the turn), what its answers and
 * status codes mean, how its witnesses are read, its status card and its words.
 */

export type { RtOptions } from './options.js';

/** A family's link to one printer address: its exchanges, one at a time (the kit's turn). */
export interface RtLink {
  readonly address: string;
  /** Why the last exchange got no answer, for the status card; undefined once one did. */
  readonly lastFailure: string | undefined;
}

/** What the kit needs of a family's status card. */
export interface RtBoard {
  touched(): void;
  unreachable(reason: string): void;
  awaiting(warning: Message | undefined): void;
  /** A document waits for the printer to come back: staff actions wait. */
  isSettling(): boolean;
  isConnected(): boolean;
  noteJobError(error: AgentError): void;
  snapshot(): DeviceStatus;
}

/** What the kit hands a family's parts when a driver is made. */
export interface RtHost<O> {
  options: O;
  ctx: DriverContext;
  state: FiscalState;
}

/**
 * The printer's serial: configured (`serialNumber`), else the one the family read from the printer
 * and kept in the device store under `serial`.
 */
export function serialOf(host: RtHost<{ serialNumber?: string | undefined }>): string | undefined {
  if (host.options.serialNumber) return host.options.serialNumber.toUpperCase();
  const stored = host.ctx.store.get('serial');
  return typeof stored === 'string' && stored ? stored : undefined;
}

/** What planning a job on this printer needs: the fiscal core's build context, and its history. */
export interface RtPlanContext extends BuildContext {
  /** Whether the agent printed `ref` with a lottery code (the printer's history, `history-ring.ts`). */
  carriedLottery(ref: DocumentReference): boolean;
}

/** The plan context of a job planned now on `host`'s printer, whose serial is `serial`. */
export function planContextOf(
  host: RtHost<unknown>,
  signal: AbortSignal,
  serial: string | undefined,
): RtPlanContext {
  const { ctx, state } = host;
  return {
    platform: ctx.platform,
    signal,
    timeZone: ctx.timezone,
    now: ctx.clock.now(),
    ownSerial: serial,
    carriedLottery: (ref) => state.find(ref.z, ref.doc)?.lottery === true,
  };
}

/** What a family's documents and reports need of the driver, on `link` (its `deps`). */
export function familyDeps<O extends { serialNumber?: string | undefined }, B, L>(
  host: RtHost<O>,
  board: B,
  link: L,
) {
  const { ctx, options, state } = host;
  return { link, options, clock: ctx.clock, log: ctx.log, board, state, serial: () => serialOf(host) };
}

/** Runs `work` in the printer's turn (the line's mutex) with the current link. */
export type Turn<L> = <T>(work: (link: L) => Promise<T>) => Promise<T>;

/** A family's parts for one printer. */
export interface RtParts<L extends RtLink, P> {
  board: RtBoard;
  /** Throws COMMAND_INVALID (with Notes) when the family cannot talk to `address`. */
  checkAddress(address: string): void;
  link(address: string, http: HttpClient): L;
  /** The printer address of a job (`url`, or the job's ApiUrl within `allowedHosts`). */
  address(job: Job): string;
  /**
   * What must be read from the printer before a job can be planned (its serial, for a refund's
   * reference); runs in a short turn of its own, and usually does nothing.
   */
  beforePlan(job: Job, link: L, signal: AbortSignal): Promise<void>;
  /** The job's document, built and checked before the turn: reads the bill, never the printer. */
  plan(job: Job, signal: AbortSignal): Promise<P>;
  /** Prints a planned document (in the turn): checks with the printer, then the kit's `sendDocument`. */
  print(link: L, plan: P, ectx: ExecuteContext): Promise<JobResult>;
  /** One status poll (in the turn); false when the printer does not answer. */
  refresh(link: L, signal?: AbortSignal): Promise<boolean>;
  /** Settles a staff action a kill left in flight (in the turn, at open). */
  settleOnOpen(link: L, signal: AbortSignal): Promise<void>;
  /** The family's Z report and how a closure left in flight is settled (the scheduler runs them). */
  closure: RtClosure<L>;
  /** The job's checkpoint as the kit's reconcile reads it; `link` is the job's printer, if known. */
  reconcile(job: Job, link: L | undefined): Omit<ReconcileContext<unknown>, 'exclusive'>;
  /** Staff actions; each runs its work through `turn`. */
  actions(turn: Turn<L>): readonly DeviceAction[];
  /** Error codes after which the kit polls the printer's status at once. */
  refreshAfter: ReadonlySet<string>;
  words: RtDriverWords;
}

/** A family's daily closure, on the link the kit's turn gives. */
export interface RtClosure<L> {
  close(link: L, signal: AbortSignal, date: string): Promise<ClosureRecord>;
  settle(link: L, signal: AbortSignal): Promise<ClosureRecord | undefined>;
}

/** The closure of a family whose `reports.ts` takes deps `D` made from a link. */
export function closureOf<L, D>(
  deps: (link: L) => D,
  close: CloseDay<D>,
  settle: (d: D, signal?: AbortSignal) => Promise<ClosureRecord | undefined>,
): RtClosure<L> {
  return {
    close: (link, signal, date) => close(deps(link), 'schedule', signal, date),
    settle: (link, signal) => settle(deps(link), signal),
  };
}

/**
 * A family's Z report followed by `after` whenever the closure ends `done` (the printer confirmed
 * it, or its state proved it): what a family reads again once the fiscal day is closed — the
 * programming check (`programming-check.ts`), since a printer's VAT table and departments are
 * reprogrammed only with the day closed (JavaPOS `tax/VatCommands.java` `setVATtable` returns
 * while `isDailyOpen()`, linokoetting/iconic.mytrade.gutenbergPrinter-epson; Custom's
 * `setVatRate`, XML protocol manual rev 2.00 p.116, is a `printerCommand` a technician sends
 * between documents). A family passes the wrapped report wherever it closes the day — the
 * scheduler (`closureOf`), the staff action and a day open too long — so no closure misses it.
 */
export function afterConfirmedClosure<D>(
  close: CloseDay<D>,
  after: (d: D, signal?: AbortSignal) => Promise<void>,
): CloseDay<D> {
  return async (d, reason, signal, date) => {
    const record = await close(d, reason, signal, date);
    if (record.status === 'done') await after(d, signal);
    return record;
  };
}

/** The family's sentences the kit's driver shows. */
export interface RtDriverWords {
  addressUnknown(): Message;
  notAnswering(): Message;
  /** A staff action while a document waits for the printer to answer. */
  busySettling(): Message;
  /** The scheduler's words for a date it did not try (catalogue keys the journal keeps). */
  closure: { agentNotRunning(): Message; notAttempted(): Message };
}

/** One RT family: how its parts are made for a printer. */
export interface RtFamily<O extends RtOptions, L extends RtLink, P> {
  parts(host: RtHost<O>): RtParts<L, P>;
}
