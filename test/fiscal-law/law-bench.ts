import type { WireOrderItem, WirePayment } from '../../src/connector/wire.js';
import type { Driver, DriverContext, JobResult } from '../../src/drivers-api/types.js';
import { type AgentError, isAgentError } from '../../src/errors.js';
import { english } from '../../src/messages/render.js';
import { jobFor, type RigContext, recordingExecuteContext } from '../helpers/driver-context.js';
import { recordingContext, type WireCommandOptions, wireCommand } from './helpers.js';

/**
 * What the fiscal law suite's cases see of an RT family (issue 39: "over every RT family"): one
 * printer simulator and the family's real driver on it (`FamilyBench`), the documents the printer
 * booked in one shape (`LawDoc`), and the family's entry (`LawFamily`, registered in
 * `rt-families.ts`). A case that does not apply to a family names why in the family's
 * `notApplicable`, with the source.
 */

/** A printed fiscal document as every family's simulator books it. */
export interface LawDoc {
  kind: string;
  totalCents: number;
  /** What its payments add up to (a sale's tender, a refund's money back). */
  paidCents: number;
  lottery?: string | undefined;
  z: number;
  doc: number;
  at: number;
}

export interface LawOutcome {
  result?: JobResult;
  error?: AgentError;
  doc?: LawDoc;
  /** The request that carried the document, if the driver sent one. */
  xml?: string;
  log: string[];
}

/** One printer and its driver, as a case drives them. */
export interface FamilyBench {
  readonly serial: string;
  readonly driver: Driver;
  readonly items: WireOrderItem[];
  readonly payments: WirePayment[];
  /** Every request body the driver sent, in order. */
  readonly sent: string[];
  run(o?: WireCommandOptions): Promise<LawOutcome>;
  /**
   * A technician programs the 10 % class's slot or department at `rate` on the printer; absent
   * for a family whose programming the suite cannot check (its `notApplicable` says why).
   */
  programTenPercent?(rate: number): Promise<void>;
  /** The staff Z report action. */
  zReport(): Promise<JobResult>;
  /** The status page's warnings, in English. */
  warnings(): string[];
  close(): Promise<void>;
}

export interface BenchSetup {
  /** Driver options over the suite's quick defaults. */
  options?: Record<string, unknown>;
  /** Lottery codes whose check character the printer refuses (a family with such a status). */
  refusedLotteryCodes?: string[];
}

/** Every case of issue 39's second part (items 1, 3 and 4) a family can opt out of, with why. */
export type LawItem =
  | 'programmingReadBeforeRefusing'
  | 'programmingReadAfterZ'
  | 'refundPaymentForm'
  | 'refundOfOtherPrinter'
  | 'depositForm'
  | 'invoicePayment'
  | 'lotteryCheckRefused'
  | 'refundCarriesLottery'
  | 'voidCarriesLottery';

/** How a family's requests read: which one carries a document, which one only checks a reference. */
export interface RequestShapes {
  /** A request carrying a fiscal document (a check-only request aside). */
  document: RegExp;
  /** A request that only asks whether a refund's or void's original may be refunded or voided. */
  check: RegExp;
}

export interface LawFamily {
  name: string;
  /** The driver's name in a configuration (`driver:`), to find the demo's printer. */
  driver: string;
  start(setup?: BenchSetup): Promise<FamilyBench>;
  requests: RequestShapes;
  /** The deposit form the family's request uses for a deposit on a single-rate bill. */
  depositForm: RegExp;
  notApplicable: Partial<Record<LawItem, string>>;
  /**
   * The family's README, whose list of what a first real printer must confirm carries every
   * `notApplicable` reason that says "no public source shows …".
   */
  readme: string;
}

const never = () => new AbortController().signal;

/** The bill a bench publishes, and a driver context that records every request body and log line. */
export interface Recorder {
  items: WireOrderItem[];
  payments: WirePayment[];
  sent: string[];
  log: string[];
  ctx: DriverContext;
  /** Another context (a family's test rig's) reading this bill, logging and posting through this one. */
  wrap(ctx: DriverContext): DriverContext;
}

export function recorder(): Recorder {
  const items: WireOrderItem[] = [];
  const payments: WirePayment[] = [];
  const sent: string[] = [];
  const { ctx, lines } = recordingContext(items, payments, sent);
  return { items, payments, sent, log: lines, ctx, wrap: (c) => ({ ...c, log: ctx.log, http: ctx.http }) };
}

/**
 * A family's test rig (`test/drivers/<family>/helpers.ts`) reading a new recorder's bill and
 * logging and posting through it, with the case's driver `options`.
 */
export async function recordedRig<R>(
  rig: (o: RigContext & { driver?: Record<string, unknown> }) => Promise<R>,
  options: Record<string, unknown> = {},
): Promise<{ rec: Recorder; rig: R }> {
  const rec = recorder();
  return {
    rec,
    rig: await rig({ items: rec.items, payments: rec.payments, driver: options, ctx: rec.wrap }),
  };
}

/** The bench every family shares around its driver, its recorder and its simulator's documents. */
export function benchOf(
  rec: Recorder,
  parts: {
    serial: string;
    driver: Driver;
    requests: RequestShapes;
    printed: () => LawDoc[];
    programTenPercent?: (rate: number) => Promise<void>;
    stop(): Promise<void>;
  },
): FamilyBench {
  let commands = 0;
  const action = (name: string) => {
    const found = parts.driver.actions?.().find((a) => a.name === name);
    if (!found) throw new Error(`no action ${name}`);
    return found.run(found.params.parse({}), never());
  };
  const bench: FamilyBench = {
    serial: parts.serial,
    driver: parts.driver,
    items: rec.items,
    payments: rec.payments,
    sent: rec.sent,
    async run(o = {}) {
      const printed = parts.printed().length;
      const sent = rec.sent.length;
      const logged = rec.log.length;
      const out: LawOutcome = { log: [] };
      try {
        out.result = await parts.driver.execute(
          jobFor(wireCommand(o), { commandId: `law-${++commands}` }),
          recordingExecuteContext(),
        );
      } catch (e) {
        if (!isAgentError(e)) throw e;
        out.error = e;
      }
      const doc = parts.printed().slice(printed).at(-1);
      if (doc) out.doc = doc;
      const xml = rec.sent
        .slice(sent)
        .findLast((b) => parts.requests.document.test(b) && !parts.requests.check.test(b));
      if (xml) out.xml = xml;
      out.log = rec.log.slice(logged);
      return out;
    },
    zReport: () => action('z-report'),
    warnings: () => (parts.driver.status().warnings ?? []).map(english),
    async close() {
      await parts.driver.close();
      await parts.stop();
    },
  };
  if (parts.programTenPercent) bench.programTenPercent = parts.programTenPercent;
  return bench;
}

const FISCAL = new Set(['sale', 'refund', 'void']);

/** What every simulator books of a document, as a `LawDoc` (`doc` its number within the Z). */
export interface Booked {
  kind: string;
  totalCents: number;
  payments: ReadonlyArray<{ amountCents: number }>;
  lottery?: string | undefined;
  z: number;
  doc: number;
  at: number;
}

/** The fiscal documents a simulator booked, in one shape. */
export function lawDocs(printed: readonly Booked[]): LawDoc[] {
  return printed
    .filter((d) => FISCAL.has(d.kind))
    .map((d) => ({
      kind: d.kind,
      totalCents: d.totalCents,
      paidCents: d.payments.reduce((s, p) => s + p.amountCents, 0),
      lottery: d.lottery,
      z: d.z,
      doc: d.doc,
      at: d.at,
    }));
}
