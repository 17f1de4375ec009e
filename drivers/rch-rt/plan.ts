import type { FiscalJobData } from '../../src/connector/model.js';
import { jobDataOf } from '../../src/drivers-api/job-data.js';
import type { Job } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { buildFiscalDocument } from '../fiscal-it/build.js';
import type { FiscalDocumentModel } from '../fiscal-it/model.js';
import type { DocumentReference } from '../fiscal-it/reference.js';
import type { RtPlanContext } from '../fiscal-it/rt/family.js';
import { paymentsOf, type RchRtOptions, rulesOf } from './config.js';
import { rchRefusals } from './messages.js';
import { markerOf, renderDocument } from './receipt.js';

/** A document ready to send, with what its witnesses need afterwards. */
export interface RchPlan {
  label: 'sale' | 'refund' | 'void';
  commands: string[];
  beforePayment: number;
  marker?: string | undefined;
  /** The total the printer must book (a void's is the original's, which the agent may not know). */
  expectedCents?: number;
  reference?: DocumentReference;
  /** A sale that prints the consumer's lottery code: its history entry says so, for its refund. */
  lottery?: true;
  notes?: Message[];
  log?: string[];
}

/**
 * The lottery code a refund prints: the consumer's (the core's `originalLottery`) when the agent
 * printed the original with one — a refund carries it after its lines (rch-driver-js `src/Driver.ts`
 * `printReceipt`; the JavaPOS driver as it closes a refund: linokoetting/iconic.mytrade.
 * gutenbergPrinter-rch `PrinterCommands.java` `printRecTotal`, `SendLotteryCode`). A void is one
 * `=k` with no field for it (rch-driver-js-core `src/Core.ts` `returnReceipt`). Each code left off
 * is a line in `model.log`.
 */
function originalLottery(
  model: FiscalDocumentModel,
  carriedLottery: (ref: DocumentReference) => boolean,
): string | undefined {
  if (!model.originalLottery || !model.reference) return undefined;
  if (model.kind === 'void') {
    model.log.push('lottery code left off: a void carries none on RCH');
    return undefined;
  }
  if (carriedLottery(model.reference)) return model.originalLottery;
  model.log.push('lottery code left off: the agent did not print the original refunded with one');
  return undefined;
}

/** The job's fiscal data; COMMAND_INVALID for any other command. */
export function fiscalData(job: Job): FiscalJobData {
  return jobDataOf(job, 'fiscal', rchRefusals.notFiscalCommand());
}

/**
 * A fiscal command as the RCH request to send: the fiscal core's document of the bill
 * (`drivers/fiscal-it/build.ts`) rendered by receipt.ts. A ready-made document (payload) is
 * refused: the platform writes them for Epson printers, and no source shows one for RCH. Every
 * refusal happens here, before any contact with the printer.
 */
export async function planJob(job: Job, options: RchRtOptions, ctx: RtPlanContext): Promise<RchPlan> {
  const fiscal = fiscalData(job);
  if (fiscal.document.type === 'payload') {
    throw new AgentError(
      'COMMAND_INVALID',
      'An RCH printer prints from the bill data, not a ready-made document',
      {
        notes: rchRefusals.payloadRefused(),
      },
    );
  }
  const model = await buildFiscalDocument(fiscal, rulesOf(options), ctx);
  const refundLottery = originalLottery(model, ctx.carriedLottery);
  const rendered = renderDocument(
    model,
    { forms: paymentsOf(options).codes, serial: ctx.ownSerial, ...(refundLottery ? { refundLottery } : {}) },
    markerOf(job.commandId, job.attempt),
  );
  const plan: RchPlan = { label: model.kind, ...rendered };
  if (model.kind !== 'void') plan.expectedCents = model.totalCents;
  if (model.lottery) plan.lottery = true;
  if (model.reference) plan.reference = model.reference;
  if (model.notes.length > 0) plan.notes = model.notes;
  if (model.log.length > 0) plan.log = model.log;
  return plan;
}
