import type { FiscalJobData } from '../../src/connector/model.js';
import type { Job } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { type BuildContext, buildFiscalDocument } from '../fiscal-it/build.js';
import type { DocumentReference } from '../fiscal-it/reference.js';
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
  notes?: Message[];
  log?: string[];
}

export function fiscalData(job: Job): FiscalJobData {
  if (job.data.kind !== 'fiscal') {
    throw new AgentError('COMMAND_INVALID', `A ${job.data.kind} command cannot run on a fiscal printer`, {
      notes: rchRefusals.notFiscalCommand(),
    });
  }
  return job.data.fiscal;
}

/**
 * A fiscal command as the RCH request to send: the fiscal core's document of the bill
 * (`drivers/fiscal-it/build.ts`) rendered by receipt.ts. A ready-made document (payload) is
 * refused: the platform writes them for Epson printers, and no source shows one for RCH. Every
 * refusal happens here, before any contact with the printer.
 */
export async function planJob(
  job: Job,
  options: RchRtOptions,
  ctx: BuildContext,
  serial: string | undefined,
): Promise<RchPlan> {
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
  const rendered = renderDocument(
    model,
    { forms: paymentsOf(options).forms, serial },
    markerOf(job.commandId, job.attempt),
  );
  const plan: RchPlan = { label: model.kind, ...rendered };
  if (model.kind !== 'void') plan.expectedCents = model.totalCents;
  if (model.reference) plan.reference = model.reference;
  if (model.notes.length > 0) plan.notes = model.notes;
  if (model.log.length > 0) plan.log = model.log;
  return plan;
}
