import type { ExecuteContext, JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { voidDocument } from '../fiscal-it/build.js';
import { type DocumentReference, isNoReference } from '../fiscal-it/reference.js';
import type { VoidParams } from './actions.js';
import { paymentsOf, vatSlotTable } from './config.js';
import { idCmds } from './idcmd.js';
import { customActionWords, customResults, customRefusals as r } from './messages.js';
import type { CustomPlan } from './plan.js';
import { receiptXml, referenceCheckXml } from './receipt.js';
import { decide, readCheckpoint } from './recovery.js';
import { docLabel } from './results.js';
import { type SendDeps, sendPlanned } from './send.js';
import { element, request } from './xml.js';

/**
 * Asks the printer whether the original of a refund or void exists and may be refunded or
 * voided: its begin node alone with `checkOnly="1"`, answered in `responseBuf` with 0 (not
 * found), 1 (found) or 2 (not allowed) (XML protocol manual rev 2.00 pp.36, 38, 72). Not found or
 * not allowed refuses the document before it is sent; a check the printer cannot answer leaves
 * the reference to the printer's own check when the document comes.
 */
export async function checkReference(
  d: SendDeps,
  ref: DocumentReference,
  signal: AbortSignal,
): Promise<void> {
  if (isNoReference(ref) || !d.options.checkReferences) return;
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

/** Prints a planned document: the reference check, then exactly-once sending. */
export async function printPlanned(d: SendDeps, plan: CustomPlan, ectx: ExecuteContext): Promise<JobResult> {
  if (plan.reference) await checkReference(d, plan.reference, ectx.signal);
  return sendPlanned(d, plan, ectx);
}

/**
 * A staff void: the core's void document of the receipt, with the same check and exactly-once
 * rules as a command's. Its checkpoint is kept as the fiscal state's pending action, so that a
 * kill in flight is settled from the printer at the next start (`settlePendingVoid`).
 */
export async function staffVoid(d: SendDeps, params: VoidParams, signal: AbortSignal): Promise<JobResult> {
  const serial = d.serial();
  const ref: DocumentReference = {
    kind: 'VOID',
    z: params.z,
    doc: params.doc,
    date: params.date,
    serial: serial ?? '',
  };
  const model = voidDocument(ref, d.options.currency);
  const ids = idCmds('V', `void-${docLabel(params.z, params.doc)}-${params.date}`, d.clock.now());
  const xml = receiptXml(
    model,
    { vatSlots: vatSlotTable(d.options), codes: paymentsOf(d.options).codes, serial },
    ids,
  );
  const plan: CustomPlan = { label: 'void', xml, ids, reference: ref };
  const ectx: ExecuteContext = {
    signal,
    progress: () => undefined,
    checkpoint: async (value) => {
      d.state.setPendingAction({ action: 'void', checkpoint: value });
      await d.state.flush();
    },
  };
  try {
    return await printPlanned(d, plan, ectx);
  } finally {
    const pending = d.state.pendingAction();
    const read = readCheckpoint(pending?.checkpoint);
    if (read.kind !== 'ok' || read.checkpoint.phase === 'done') d.state.setPendingAction(null);
  }
}

/** A staff void a kill left in flight: the printer's memory decides, and the page says so. */
export async function settlePendingVoid(d: SendDeps, signal: AbortSignal): Promise<void> {
  const pending = d.state.pendingAction();
  if (!pending) return;
  const read = readCheckpoint(pending.checkpoint);
  if (read.kind !== 'ok' || read.checkpoint.phase === 'done') {
    d.state.setPendingAction(null);
    return;
  }
  const counters = await d.link.settleCounters(d.clock, signal);
  if (counters.kind === 'unreachable') return;
  const c = read.checkpoint;
  const decision = decide(
    c.baseline,
    c.ids,
    counters.kind === 'read' ? counters.counters : undefined,
    undefined,
  );
  const notes =
    decision.outcome === 'printed'
      ? customResults.printedUnnumbered({ serial: d.serial() ?? customResults.unknownSerial() })
      : decision.outcome === 'not-printed'
        ? customResults.notPrintedSilent()
        : customResults.unconfirmed();
  d.state.setLastAction({ action: 'void', at: d.clock.now(), ok: decision.outcome === 'printed', notes });
  d.state.setPendingAction(null);
}

/** A copy of the last receipt (`printDuplicateReceipt`, XML p.83): not a fiscal document. */
export async function reprintLast(
  d: SendDeps,
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
