import type { FiscalJobData } from '../../src/connector/model.js';
import { jobDataOf } from '../../src/drivers-api/job-data.js';
import type { DeviceStore, Job } from '../../src/drivers-api/types.js';
import type { Message } from '../../src/messages/message.js';
import { type BuildContext, buildFiscalDocument } from '../fiscal-it/build.js';
import { departmentUses } from '../fiscal-it/model.js';
import type { DocumentReference } from '../fiscal-it/reference.js';
import type { Baseline } from './checkpoint.js';
import { type EpsonFpmateOptions, paymentsOf, rulesOf } from './config.js';
import type { LastDocument } from './last-document.js';
import { epsonRefusals } from './messages-refusals.js';
import { type PayloadKind, preparePayload } from './payload.js';
import type { PlannedLine } from './programming.js';
import { receiptXml } from './receipt-xml.js';
import { envelope } from './xml-build.js';

/**
 * A document ready to send, with what the driver must know to confirm it afterwards. Every
 * document a command can send is a fiscal receipt (sale, refund, void), whose fate the printer's
 * counters can settle; later document kinds (the daily closure of the Italian fiscal work) get
 * their own plans and their own confirmation.
 */
export interface Plan {
  kind: 'receipt';
  label: PayloadKind;
  root: 'printerFiscalReceipt';
  xml: string;
  /** The receipt's total when the driver built it (payloads are sent as they are). */
  expectedCents?: number;
  reference?: DocumentReference;
  /**
   * Every department the document prints in (lines, discounts, deductions) with the VAT rate or
   * nature the fiscal core decided for it, for the check against the printer's own programming
   * just before sending (`checkLines` in programming.ts).
   */
  lines?: PlannedLine[];
  /**
   * The same receipt without its lottery code, sent instead when the printer refuses the code's
   * check character (status 30: the kit's fallback, send.ts `epsonDocument`).
   */
  withoutLottery?: string;
  /** This is that receipt: its result says the code was not accepted. */
  lotteryRefused?: boolean;
  /** Sentences the fiscal core adds to the printed receipt's Notes (a customer code left off …). */
  notes?: Message[];
  /** English lines for the log (a lottery code left off, and why). */
  log?: string[];
}

/** The job's fiscal data; COMMAND_INVALID for any other command. */
export function fiscalData(job: Job): FiscalJobData {
  return jobDataOf(job, 'fiscal', epsonRefusals.notFiscalCommand());
}

/**
 * Turns a fiscal command into the document to send: a payload as the platform sent it, or the
 * fiscal core's document of the bill (`drivers/fiscal-it/build.ts`), rendered as fpmate XML, with
 * the departments it uses for the programming check made just before sending. Everything that can be refused is refused
 * here, before any contact with the printer (COMMAND_INVALID, FISCAL_REJECTED).
 */
export async function planJob(
  fiscal: FiscalJobData,
  options: EpsonFpmateOptions,
  ctx: BuildContext,
): Promise<Plan> {
  const doc = fiscal.document;
  if (doc.type === 'payload') {
    const payload = preparePayload(doc.base64);
    return { kind: 'receipt', label: payload.kind, root: 'printerFiscalReceipt', xml: payload.xml };
  }
  const model = await buildFiscalDocument(fiscal, rulesOf(options), ctx);
  const rendering = {
    operator: options.operator,
    header: options.headerLines,
    lineLength: options.lineLength,
    codes: paymentsOf(options).codes,
  };
  const xml = receiptXml(model, rendering);
  const plan: Plan = { kind: 'receipt', label: model.kind, root: 'printerFiscalReceipt', xml: envelope(xml) };
  if (model.lottery) {
    const { lottery: _left, ...withoutCode } = model;
    plan.withoutLottery = envelope(receiptXml(withoutCode, rendering));
  }
  // A void prints the original's total, which the bill of the cancellation need not repeat.
  if (model.kind !== 'void') plan.expectedCents = model.totalCents;
  if (model.reference) plan.reference = model.reference;
  plan.lines = departmentUses(model);
  if (model.notes.length > 0) plan.notes = model.notes;
  // Epson's refund and void name their original by the reference line alone (`printRecMessage`
  // messageType 4: fiskaltrust `EpsonCommandFactory.cs`); `printRecLotteryID` is a sale's
  // (fiskaltrust `Models/FiscalReceipt.cs`): the protocol has no field for the original's code.
  if (model.originalLottery) model.log.push(`lottery code left off: a ${model.kind} carries none on Epson`);
  if (model.log.length > 0) plan.log = model.log;
  return plan;
}

/**
 * What the driver keeps per printer across restarts (in the device store): the last confirmed
 * fiscal document (the baseline of exactly-once printing) and the printer's serial.
 */
export class PrinterMemory {
  constructor(
    private readonly store: DeviceStore,
    private readonly configuredSerial: string | undefined,
  ) {}

  /** The stored baseline; `fresh: false` since other tills may have printed since. */
  baseline(): Baseline | null {
    const value = this.store.get('baseline') as { z?: unknown; doc?: unknown } | undefined;
    if (value && Number.isInteger(value.z) && Number.isInteger(value.doc)) {
      return { z: value.z as number, doc: value.doc as number, fresh: false };
    }
    return null;
  }

  /** Records a confirmed fiscal document; persisted before returning. */
  confirm(z: number, doc: number): void {
    this.store.set('baseline', { z, doc });
  }

  /** The counters may have moved without the agent knowing: the next document reads them first. */
  forget(): void {
    this.store.set('baseline', null);
  }

  serial(): string | undefined {
    if (this.configuredSerial) return this.configuredSerial.toUpperCase();
    const value = this.store.get('serial');
    return typeof value === 'string' && value ? value : undefined;
  }

  /** Learns a serial read from the printer (`directIO 3217`). */
  learnSerial(serial: string): void {
    if (serial !== this.store.get('serial')) this.store.set('serial', serial);
  }

  /**
   * Learns from a last-document read: the serial, and the baseline — the document's position
   * when it is fiscal. An unreadable or non-fiscal last document leaves the counters unknown.
   */
  observe(last: LastDocument | undefined): void {
    if (last?.serial) this.learnSerial(last.serial);
    if (last?.fiscal) this.confirm(last.z, last.doc);
    else this.forget();
  }
}
