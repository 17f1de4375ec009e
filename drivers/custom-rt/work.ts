import type { ExecuteContext, JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { voidDocument } from '../fiscal-it/build.js';
import type { DepartmentUse } from '../fiscal-it/model.js';
import { type DocumentReference, isNoReference } from '../fiscal-it/reference.js';
import { readPatiently } from '../fiscal-it/rt/printer-read.js';
import type { ProgrammingCheck } from '../fiscal-it/rt/programming-check.js';
import { decideRead, type SendContext, sendContextOf, sendDocument } from '../fiscal-it/rt/send.js';
import { runStaffDocument, settleStaffDocument } from '../fiscal-it/rt/staff-document.js';
import type { VoidParams } from './actions.js';
import { CHECKPOINT_VERSION, readCheckpoint } from './checkpoint.js';
import { paymentsOf, vatSlotTable } from './config.js';
import { customDocument, type DocumentDeps } from './document.js';
import { idCmds } from './idcmd.js';
import type { CustomLink } from './link.js';
import { customActionWords, customResults, customRefusals as r } from './messages.js';
import type { CustomPlan } from './plan.js';
import { isForeignRefund, receiptXml, referenceCheckXml } from './receipt.js';
import { docLabel } from './results.js';
import type { SlotProgramming } from './vat-slots.js';
import { voidLinesOf } from './void-lines.js';
import { element, request } from './xml.js';

/**
 * Asks the printer whether the original of a refund or void exists and may be refunded or
 * voided: its begin node alone with `checkOnly="1"`, answered in `responseBuf` with 0 (not
 * found), 1 (found) or 2 (not allowed) (XML protocol manual rev 2.00 pp.36, 38, 72). Not found or
 * not allowed refuses the document before it is sent; a check the printer cannot answer leaves
 * the reference to the printer's own check when the document comes.
 */
export async function checkReference(
  d: DocumentDeps,
  ref: DocumentReference,
  signal: AbortSignal,
): Promise<void> {
  if (isNoReference(ref) || !d.options.checkReferences) return;
  // Another device's receipt: this printer's journal cannot hold it (p.39; receipt.ts).
  if (isForeignRefund(ref, d.serial())) return;
  const response = await d.link.exchange(referenceCheckXml(ref, d.serial()), signal);
  const answer = response?.success ? response.addInfo.responseBuf?.trim().charAt(0) : undefined;
  const args = {
    label: docLabel(ref.z, ref.doc),
    date: `${ref.date.slice(0, 2)}/${ref.date.slice(2, 4)}/${ref.date.slice(4)}`,
  };
  if (answer === '0') {
    throw new AgentError('FISCAL_REJECTED', 'The printer does not find the original receipt', {
      notes: r.referenceNotFound(args),
      retryable: false,
    });
  }
  if (answer === '2') {
    throw new AgentError('FISCAL_REJECTED', 'The printer does not allow this refund or void', {
      notes: r.referenceNotAllowed({ ...args, kind: ref.kind }),
      retryable: false,
    });
  }
  if (answer !== '1') d.log.warn('reference check unanswered: the printer checks the reference itself');
}

/**
 * The kit's send context for a Custom document. Proven unprinted, a document is not sent again
 * here: the engine sends the command again with the next attempt's IdCmds.
 */
export function sendContext(d: DocumentDeps): SendContext {
  return sendContextOf(d, CHECKPOINT_VERSION, { afterLost: 0, afterBusy: 0 });
}

/**
 * Prints a planned document: the check of its VAT slots against the printer's table (after one
 * more read when it would refuse: vat-slots.ts), the reference check, then the kit's exactly-once
 * sending.
 */
export async function printPlanned(
  d: DocumentDeps & { check?: ProgrammingCheck<CustomLink, SlotProgramming, DepartmentUse> },
  plan: CustomPlan,
  ectx: ExecuteContext,
): Promise<JobResult> {
  if (plan.lines && d.check) await d.check.check(plan.lines, d.link, ectx.signal);
  if (plan.reference) await checkReference(d, plan.reference, ectx.signal);
  return sendDocument(sendContext(d), customDocument(d, plan), ectx);
}

/**
 * A staff void: the core's void document of the receipt with the lines the agent remembered of it
 * (void-lines.ts), with the same check and exactly-once rules as a command's. Its checkpoint is
 * kept as the fiscal state's pending action, so that a kill in flight is settled from the
 * printer at the next start (`settlePendingVoid`).
 */
export async function staffVoid(
  d: DocumentDeps,
  params: VoidParams,
  signal: AbortSignal,
): Promise<JobResult> {
  const serial = d.serial();
  const ref: DocumentReference = {
    kind: 'VOID',
    z: params.z,
    doc: params.doc,
    date: params.date,
    serial: serial ?? '',
  };
  const label = docLabel(params.z, params.doc);
  const model = {
    ...voidDocument(ref, d.options.currency),
    lines: voidLinesOf(d.state.find(params.z, params.doc), label),
  };
  const ids = idCmds('V', `void-${label}-${params.date}`, d.clock.now());
  const xml = receiptXml(
    model,
    { vatSlots: vatSlotTable(d.options), codes: paymentsOf(d.options).codes, serial },
    ids,
  );
  const plan: CustomPlan = { label: 'void', xml, ids, reference: ref };
  return runStaffDocument(d, 'void', signal, (ectx) => printPlanned(d, plan, ectx));
}

/** A staff void a kill left in flight: the witnesses decide (the kit's `settleStaffDocument`). */
export function settlePendingVoid(d: DocumentDeps, signal: AbortSignal): Promise<void> {
  return settleStaffDocument(
    d,
    {
      read: readCheckpoint,
      decide: async (c, s) => {
        const doc = customDocument(d, { label: c.label, xml: '', ids: c.ids });
        const now = await readPatiently(doc.read, d.clock, d.options, s);
        return now.kind === 'away' ? 'away' : decideRead(doc, c.baseline, now);
      },
      words: {
        printed: () =>
          customResults.printedUnnumbered({ serial: d.serial() ?? customResults.unknownSerial() }),
        notPrinted: () => customResults.notPrintedSilent(),
        unknown: () => customResults.unconfirmed(),
      },
    },
    signal,
  );
}

/** A copy of the last receipt (`printDuplicateReceipt`, XML p.83): not a fiscal document. */
export async function reprintLast(
  d: DocumentDeps,
  receipt: string | undefined,
  last: string | undefined,
): Promise<JobResult> {
  if (receipt?.trim() && last && receipt.trim() !== last) {
    throw new AgentError('COMMAND_INVALID', 'Custom printers copy their last receipt only', {
      notes: customActionWords.copyOnlyLast({ last }),
      retryable: false,
    });
  }
  const answer = await d.link.exchange(request('printerFiscalReceipt', [element('printDuplicateReceipt')]));
  if (!answer) throw new AgentError('DEVICE_UNAVAILABLE', 'No answer to printDuplicateReceipt');
  if (!answer.success)
    throw new AgentError('DEVICE_ERROR', `printDuplicateReceipt refused (${answer.status})`);
  d.board.touched();
  return { notes: customResults.copyPrinted(), details: { report: 'copy' } };
}
