import type { ExecuteContext, JobResult } from '../../src/drivers-api/types.js';
import { voidDocument } from '../fiscal-it/build.js';
import type { DocumentReference } from '../fiscal-it/reference.js';
import type { ReceiptByNumber } from '../fiscal-it/rt/actions.js';
import { rtCardWords } from '../fiscal-it/rt/messages.js';
import { readPatiently } from '../fiscal-it/rt/printer-read.js';
import { decideRead, type SendContext, sendContextOf, sendDocument } from '../fiscal-it/rt/send.js';
import { runStaffDocument, settleStaffDocument } from '../fiscal-it/rt/staff-document.js';
import { CHECKPOINT_VERSION, readCheckpoint } from './checkpoint.js';
import { type DocumentDeps, printedResult, rchDocument } from './document.js';
import { rchResults } from './messages.js';
import type { RchPlan } from './plan.js';
import { renderDocument } from './receipt.js';

/**
 * The kit's send context for an RCH document. Proven unprinted, a document is not sent again here:
 * the engine sends the command again, with the next attempt's marker.
 */
export function sendContext(d: DocumentDeps): SendContext {
  return sendContextOf(d, CHECKPOINT_VERSION, { afterLost: 0, afterBusy: 0 });
}

/** Prints a planned document with the kit's exactly-once sending (the reference check is in `before`). */
export function printPlanned(d: DocumentDeps, plan: RchPlan, ectx: ExecuteContext): Promise<JobResult> {
  return sendDocument(sendContext(d), rchDocument(d, plan), ectx);
}

/**
 * A staff void: `=k` naming the receipt (checked first), with the same exactly-once rules as a
 * command's. Its checkpoint is kept as the fiscal state's pending action, so that a kill in flight
 * is settled from the printer at the next start (`settlePendingVoid`). RCH voids by reference
 * alone: the agent need not know the receipt's lines.
 */
export function staffVoid(d: DocumentDeps, params: ReceiptByNumber, signal: AbortSignal): Promise<JobResult> {
  const ref: DocumentReference = { kind: 'VOID', ...params, serial: d.serial() ?? '' };
  const rendered = renderDocument(
    voidDocument(ref, d.options.currency),
    { forms: {}, serial: d.serial() },
    '',
  );
  const plan: RchPlan = { label: 'void', ...rendered, marker: undefined, reference: ref };
  return runStaffDocument(d, 'void', signal, (ectx) => printPlanned(d, plan, ectx));
}

/** A staff void a kill left in flight: the witnesses decide (the kit's `settleStaffDocument`). */
export function settlePendingVoid(d: DocumentDeps, signal: AbortSignal): Promise<void> {
  return settleStaffDocument(
    d,
    {
      read: readCheckpoint,
      decide: async (c, s) => {
        const doc = rchDocument(d, c);
        const now = await readPatiently(doc.read, d.clock, d.options, s);
        return now.kind === 'away' ? 'away' : decideRead(doc, c.baseline, now);
      },
      words: {
        printed: (c, decision) => printedResult(d, c, { document: decision.document, recovered: true }).notes,
        notPrinted: () => rchResults.notPrintedProven(),
        unknown: () => rtCardWords.outcomeUnknown(),
      },
    },
    signal,
  );
}
