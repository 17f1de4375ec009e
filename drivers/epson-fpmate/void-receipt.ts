import type { JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { voidDocument } from '../fiscal-it/build.js';
import { type DocumentReference, parseReceiptLabel } from '../fiscal-it/reference.js';
import { ddMMyyyyOf } from '../fiscal-it/rt/actions.js';
import type { FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import { readPatiently } from '../fiscal-it/rt/printer-read.js';
import { decideRead } from '../fiscal-it/rt/send.js';
import { runStaffDocument, settleStaffDocument } from '../fiscal-it/rt/staff-document.js';
import { readCheckpoint } from './checkpoint.js';
import type { LastDocument } from './last-document.js';
import { fiscalNotes } from './messages.js';
import { epsonResults } from './messages-results.js';
import type { Plan } from './plan.js';
import { docLabel } from './protocol.js';
import { receiptXml } from './receipt-xml.js';

import { checkReference } from './reference-check.js';
import { recoveredResult } from './results.js';
import { epsonDocument, type SendDeps, sendPlanned } from './send.js';
import { envelope } from './xml-build.js';

/**
 * Voiding a receipt as a staff action (the page's "Void a receipt", `frontdesk-agent void`): for
 * the case an unknown outcome's Notes describe — a receipt printed after all, and issued again.
 * The receipt is named `ZZZZ-NNNN`; its date comes from the form, else from what the agent
 * printed itself (`history`), else from the printer's last document. The printer is asked first
 * (`directIO 9205`, reference-check.ts), then the void is sent with the same exactly-once rules
 * as a receipt; its checkpoint lives in the device store (`pendingAction`), so a kill in between
 * is settled from the printer's counters at the next start.
 */

export interface VoidParams {
  receipt: string;
  /** YYYY-MM-DD or DD/MM/YYYY; optional when the agent knows the receipt. */
  date?: string | undefined;
}

function invalid(message: string, notes: Message): AgentError {
  return new AgentError('COMMAND_INVALID', message, { notes });
}

export { ddMMyyyyOf } from '../fiscal-it/rt/actions.js';

/** "yyyy-MM-dd HH:mm" → "ddMMyyyy". */
export function fromStamp(stamp: string): string {
  return `${stamp.slice(8, 10)}${stamp.slice(5, 7)}${stamp.slice(0, 4)}`;
}

export interface VoidDeps extends SendDeps {
  state: FiscalState;
  checkReferences: boolean;
  /** The printer's serial, learning it from the printer when it is not known yet. */
  serial(signal: AbortSignal): Promise<string | undefined>;
}

/** Voids receipt `params.receipt`; resolves to the void's Notes, rejects with Notes for staff. */
export async function voidReceipt(d: VoidDeps, params: VoidParams, signal: AbortSignal): Promise<JobResult> {
  const position = parseReceiptLabel(params.receipt);
  if (!position) throw invalid(`Not a receipt number: ${params.receipt}`, fiscalNotes.voidReceiptMissing());
  const label = docLabel(position);
  const known = d.state.find(position.z, position.doc);
  let date = params.date ? ddMMyyyyOf(params.date) : undefined;
  if (params.date && !date) throw invalid(`Not a date: ${params.date}`, fiscalNotes.voidDateMissing(label));
  date ??= known?.dateTime ? fromStamp(known.dateTime) : undefined;
  if (!date) {
    const last: LastDocument | undefined = await d.link.readLastDocument(signal);
    if (last && last.z === position.z && last.doc === position.doc) date = fromStamp(last.dateTime);
  }
  if (!date) throw invalid(`No date for receipt ${label}`, fiscalNotes.voidDateMissing(label));
  const serial = await d.serial(signal);
  if (!serial) throw invalid('Serial unknown', fiscalNotes.voidSerialUnknown());
  const reference: DocumentReference = { kind: 'VOID', z: position.z, doc: position.doc, date, serial };
  const shown = `${date.slice(0, 2)}/${date.slice(2, 4)}/${date.slice(4)}`;
  if (d.checkReferences && (await checkReference(d.link, reference, signal)) === 'refused') {
    throw new AgentError('FISCAL_REJECTED', `The printer refuses to void ${label}`, {
      notes: fiscalNotes.referenceRefused('void', label, shown),
    });
  }
  const model = voidDocument(reference, d.options.currency);
  const plan: Plan = {
    kind: 'receipt',
    label: 'void',
    root: 'printerFiscalReceipt',
    xml: envelope(
      receiptXml(model, {
        operator: d.options.operator,
        header: [],
        lineLength: d.options.lineLength,
        codes: {},
      }),
    ),
    reference,
  };
  if (known?.totalCents !== undefined && known.kind === 'sale') plan.expectedCents = known.totalCents;
  return runStaffDocument(d, 'void', signal, (ectx) => sendPlanned(d, plan, ectx));
}

/**
 * A void left in flight by a kill: the printer's counters tell whether it was printed (the kit's
 * `settleStaffDocument`); the outcome becomes the last action shown on the page.
 */
export function settlePendingAction(d: VoidDeps, signal: AbortSignal): Promise<void> {
  return settleStaffDocument(
    d,
    {
      read: readCheckpoint,
      decide: async (c, s) => {
        const plan: Plan = { kind: 'receipt', label: 'void', root: 'printerFiscalReceipt', xml: '' };
        if (c.expectedCents !== undefined) plan.expectedCents = c.expectedCents;
        const doc = epsonDocument(d, plan);
        return decideRead(doc, c.baseline, await readPatiently(doc.read, d.clock, d.options, s));
      },
      words: {
        printed: (c, decision) =>
          decision.document
            ? recoveredResult(
                decision.document,
                { kind: 'void', reference: c.reference },
                d.memory.serial(),
                d.options.currency,
              ).notes
            : fiscalNotes.lastActionUnknown('void'),
        notPrinted: () => epsonResults.voidNotPrinted(),
        unknown: () => fiscalNotes.lastActionUnknown('void'),
      },
    },
    signal,
  );
}
