import type { FiscalJobData } from '../../src/connector/model.js';
import { jobDataOf } from '../../src/drivers-api/job-data.js';
import type { Job } from '../../src/drivers-api/types.js';
import type { Message } from '../../src/messages/message.js';
import { priceBill } from '../fiscal-it/bill.js';
import { buildFiscalDocument } from '../fiscal-it/build.js';
import { type DepartmentUse, departmentUses } from '../fiscal-it/model.js';
import type { DocumentReference } from '../fiscal-it/reference.js';
import type { RtPlanContext } from '../fiscal-it/rt/family.js';
import { type CustomRtOptions, paymentsOf, rulesOf, vatSlotTable } from './config.js';
import { type DocumentKind, type IdPair, idCmds } from './idcmd.js';
import { customRefusals } from './messages.js';
import { prepareCustomPayload } from './payload.js';
import { receiptXml } from './receipt.js';
import { type SoldLine, soldLines } from './void-lines.js';

/** A document ready to send, with what the driver needs to confirm it afterwards. */
export interface CustomPlan {
  label: 'sale' | 'refund' | 'void';
  xml: string;
  ids: IdPair;
  /** The total when the driver built the document (a payload's is not known). */
  expectedCents?: number;
  reference?: DocumentReference;
  lines?: DepartmentUse[];
  /** What the document sells per department, remembered for a later staff void (void-lines.ts). */
  sold?: SoldLine[];
  /** The sale carries a lottery code: remembered, so that its refund or void carries one too. */
  lottery?: boolean;
  notes?: Message[];
  log?: string[];
}

/** The job's fiscal data; COMMAND_INVALID for any other command. */
export function fiscalData(job: Job): FiscalJobData {
  return jobDataOf(job, 'fiscal', customRefusals.notFiscalCommand());
}

const KIND: Record<CustomPlan['label'], DocumentKind> = { sale: 'C', refund: 'R', void: 'V' };

/**
 * A fiscal command as the Custom document to send: the fiscal core's document of the bill
 * (`drivers/fiscal-it/build.ts`) rendered by receipt.ts, or a checked Custom payload. Every
 * refusal happens here, before any contact with the printer.
 */
export async function planJob(job: Job, options: CustomRtOptions, ctx: RtPlanContext): Promise<CustomPlan> {
  const fiscal = fiscalData(job);
  const doc = fiscal.document;
  if (doc.type === 'payload') {
    const payload = prepareCustomPayload(doc.base64);
    const ids = idCmds(KIND[payload.kind], job.commandId, job.attempt);
    return { label: payload.kind, xml: payload.xml(ids), ids };
  }
  let model = await buildFiscalDocument(fiscal, rulesOf(options), ctx);
  if (model.kind === 'void') {
    // A Custom void repeats the original's lines (XML p.16: "at least one sales line"; fiskaltrust
    // `CustomRTPrinterSCU.cs` and lyancoder `fiscal-printer` send the voided items): the
    // cancelling bill's items, priced as a refund's.
    const priced = await priceBill(fiscal, rulesOf(options), ctx, 'refund');
    model = { ...model, lines: priced.lines, totalCents: priced.totalCents };
  }
  const ids = idCmds(KIND[model.kind], job.commandId, job.attempt);
  const originalCarriedLottery =
    model.originalLottery !== undefined &&
    model.reference !== undefined &&
    ctx.carriedLottery(model.reference);
  if (model.originalLottery && !originalCarriedLottery)
    model.log.push(
      `lottery code left off: the agent did not print the original ${model.kind === 'void' ? 'voided' : 'refunded'} with one`,
    );
  const xml = receiptXml(
    model,
    {
      vatSlots: vatSlotTable(options),
      codes: paymentsOf(options).codes,
      serial: ctx.ownSerial,
      originalCarriedLottery,
    },
    ids,
  );
  const plan: CustomPlan = { label: model.kind, xml, ids, lines: departmentUses(model) };
  if (model.kind !== 'void') plan.expectedCents = model.totalCents;
  if (model.kind === 'sale') plan.sold = soldLines(model);
  if (model.lottery) plan.lottery = true;
  if (model.reference) plan.reference = model.reference;
  if (model.notes.length > 0) plan.notes = model.notes;
  if (model.log.length > 0) plan.log = model.log;
  return plan;
}
