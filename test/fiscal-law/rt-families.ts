import { customRtFactory, simulatedProgramming } from '../../drivers/custom-rt/index.js';
import { startCustomRtSimulator } from '../../drivers/custom-rt/simulator/index.js';
import { epsonFpmateFactory } from '../../drivers/epson-fpmate/index.js';
import { type DepartmentClass, startFpmateSimulator } from '../../drivers/epson-fpmate/simulator/index.js';
import { SIM_DEPARTMENTS } from '../../drivers/epson-fpmate/simulator/programming.js';
import type { WireOrderItem, WirePayment } from '../../src/connector/wire.js';
import type { Driver, JobResult } from '../../src/drivers-api/types.js';
import { type AgentError, isAgentError } from '../../src/errors.js';
import { english } from '../../src/messages/render.js';
import { QUICK_DRIVER } from '../drivers/epson-fpmate/helpers.js';
import { jobFor, recordingExecuteContext } from '../helpers/driver-context.js';
import { recordingContext, type WireCommandOptions, wireCommand } from './helpers.js';

/**
 * The fiscal law suite's RT families, one entry each (issue 39: "over every RT family"): a case
 * written once runs on every family registered in `LAW_FAMILIES`, through the family's real driver
 * to its printer simulator, and reads what the printer booked in one shape (`LawDoc`). A family
 * joins by adding its entry; a case that does not apply to a family names why in the family's
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
  /** A technician programs the 10 % class's slot or department at `rate` on the printer. */
  programTenPercent(rate: number): Promise<void>;
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

/** The cases of issue 39's second part a family cannot run, with why. */
export type LawItem = 'lotteryCheckRefused' | 'refundCarriesLottery';

export interface LawFamily {
  name: string;
  /** The driver's name in a configuration (`driver:`), to find the demo's printer. */
  driver: string;
  start(setup?: BenchSetup): Promise<FamilyBench>;
  /** The deposit form the family's receipt uses for a deposit on a single-rate bill. */
  depositForm: RegExp;
  notApplicable: Partial<Record<LawItem, string>>;
}

const never = () => new AbortController().signal;

/** The bench every family shares around its driver and its simulator's documents. */
function benchOf(parts: {
  serial: string;
  driver: Driver;
  items: WireOrderItem[];
  payments: WirePayment[];
  sent: string[];
  log: string[];
  printed: () => LawDoc[];
  programTenPercent(rate: number): Promise<void>;
  stop(): Promise<void>;
}): FamilyBench {
  let commands = 0;
  const action = (name: string) => {
    const found = parts.driver.actions?.().find((a) => a.name === name);
    if (!found) throw new Error(`no action ${name}`);
    return found.run(found.params.parse({}), never());
  };
  return {
    serial: parts.serial,
    driver: parts.driver,
    items: parts.items,
    payments: parts.payments,
    sent: parts.sent,
    async run(o = {}) {
      const printed = parts.printed().length;
      const sent = parts.sent.length;
      const logged = parts.log.length;
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
      const xml = parts.sent
        .slice(sent)
        .findLast((b) => /<printerFiscalReceipt>/.test(b) && !/checkOnly="1"/.test(b));
      if (xml) out.xml = xml;
      out.log = parts.log.slice(logged);
      return out;
    },
    programTenPercent: (rate) => parts.programTenPercent(rate),
    zReport: () => action('z-report'),
    warnings: () => (parts.driver.status().warnings ?? []).map(english),
    async close() {
      await parts.driver.close();
      await parts.stop();
    },
  };
}

const FISCAL = new Set(['sale', 'refund', 'void']);

/** What both simulators book of a document, as a `LawDoc`. */
interface Booked {
  kind: string;
  totalCents: number;
  payments: ReadonlyArray<{ amountCents: number }>;
  lottery?: string | undefined;
  z: number;
  doc: number;
  at: number;
}

/** The fiscal documents a simulator booked, in one shape. */
function lawDocs(printed: readonly Booked[]): LawDoc[] {
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

const epson: LawFamily = {
  name: 'Epson',
  driver: 'epson-fpmate',
  depositForm: /<printRecItemAdjustment [^>]*adjustmentType="10"/,
  notApplicable: {
    refundCarriesLottery:
      'Epson’s refund and void name their original by the reference line alone (printRecMessage messageType 4, fiskaltrust EpsonCommandFactory.cs); printRecLotteryID is a sale’s (fiskaltrust Models/FiscalReceipt.cs): the protocol has no field for it',
  },
  async start(setup = {}) {
    const departments: Record<number, DepartmentClass> = { ...SIM_DEPARTMENTS };
    const sim = await startFpmateSimulator({
      host: '127.0.0.1',
      port: 0,
      departments,
      refusedLotteryCodes: setup.refusedLotteryCodes ?? [],
    });
    const items: WireOrderItem[] = [];
    const payments: WirePayment[] = [];
    const sent: string[] = [];
    const { ctx, lines } = recordingContext(items, payments, sent);
    const options = epsonFpmateFactory.configSchema.parse({
      url: sim.url,
      ...QUICK_DRIVER,
      dailyClosure: { enabled: false },
      ...setup.options,
    });
    const driver = epsonFpmateFactory.create(options, ctx);
    return benchOf({
      serial: '99MEY123456',
      driver,
      items,
      payments,
      sent,
      log: lines,
      printed: () => lawDocs(sim.printed),
      // Department 2 carries the 10 % lines (the driver's default map, the simulator's default).
      programTenPercent: async (rate) => {
        departments[2] = { rate };
      },
      stop: () => sim.close(),
    });
  },
};

const CUSTOM_SERIAL = 'STMTE501091';

const custom: LawFamily = {
  name: 'Custom',
  driver: 'custom-rt',
  depositForm: /<printRecAdvancePayments amount="\d+">/,
  notApplicable: {
    lotteryCheckRefused:
      'Custom’s manuals name no status for a wrong lottery check character (XML status guide pp.132–149, directIO manual pp.299–312): nothing to fall back from',
  },
  async start(setup = {}) {
    const options = customRtFactory.configSchema.parse({
      url: 'http://127.0.0.1:1',
      serialNumber: CUSTOM_SERIAL,
      statusIntervalMs: 0,
      settleUnansweredForMinutes: 0,
      dailyClosure: { enabled: false },
      ...setup.options,
    });
    const sim = await startCustomRtSimulator({
      host: '127.0.0.1',
      port: 0,
      serial: CUSTOM_SERIAL,
      ...simulatedProgramming(options),
    });
    options.url = sim.url;
    const items: WireOrderItem[] = [];
    const payments: WirePayment[] = [];
    const sent: string[] = [];
    const { ctx, lines } = recordingContext(items, payments, sent);
    const driver = customRtFactory.create(options, ctx);
    return benchOf({
      serial: CUSTOM_SERIAL,
      driver,
      items,
      payments,
      sent,
      log: lines,
      printed: () => lawDocs(sim.printed),
      // The technician's `setVatRate` (XML p.116) on slot 2, the driver's 10 % slot.
      programTenPercent: async (rate) => {
        const auth = Buffer.from(`${CUSTOM_SERIAL}:${CUSTOM_SERIAL}`).toString('base64');
        const body = `<printerCommand><setVatRate numVat="2" vatRate="${String(rate * 100).padStart(4, '0')}"></setVatRate></printerCommand>`;
        const answer = await fetch(`${sim.url}/xml/printer.htm`, {
          method: 'POST',
          headers: { authorization: `Basic ${auth}` },
          body,
        });
        if (!(await answer.text()).includes('success="true"')) throw new Error('setVatRate refused');
      },
      stop: () => sim.close(),
    });
  },
};

/** Every RT family the suite renders its cases for; a family joins by adding its entry. */
export const LAW_FAMILIES: readonly LawFamily[] = [epson, custom];
