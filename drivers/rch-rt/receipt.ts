import { createHash } from 'node:crypto';
import { AgentError } from '../../src/errors.js';
import type { DocumentLine, DocumentPayment, FiscalDocumentModel } from '../fiscal-it/model.js';
import { isNoReference } from '../fiscal-it/reference.js';
import {
  customerCodeLine,
  deductionLine,
  departmentDiscount,
  lotteryLine,
  payment,
  refundOpen,
  saleLine,
  textLine,
  voidOf,
} from './commands.js';
import { rchRefusals as r } from './messages.js';
import { formOf, type RchPayments } from './payment-forms.js';

/**
 * The fiscal core's document (`drivers/fiscal-it/model.ts`) as the native commands of one RCH web
 * service request (one document per request: lyancoder/fiscal-printer sends a sale's lines and its
 * payment in one `<Service>`, and the answer's `lastCmd` counts them). This file maps the core's
 * kinds to RCH's commands (`commands.ts`, each cited there) and decides no law.
 *
 * A sale: one `=R` per line (its quantity when it is whole and the line is its multiple, else its
 * amount once), the discounts as `=U` on their department, then the deposits and single-use
 * vouchers as the advance and voucher lines `=R…/&2`, `=R…/&3` (commands.ts `deductionLine`) on the
 * department of the rate they were receipted at (the core's choice), the customer's code, the
 * lottery code, the **marker line** (below), and the payments — all but the last with their
 * amount, the last without, so that it pays what is left and closes the document. A refund opens
 * with `=r` naming its original (its own printer's: `=r` has no field for another's serial,
 * rch-driver-js-core `returnGoods`) and follows with its lines, the original's lottery code when
 * the agent printed the original with one, the marker and its payments (`=T1` when the bill has
 * none: rch-driver-js `src/Driver.ts` `printReceipt`, which closes every refund so; the payment
 * form of the bill's own when it has one). A void is `=k` alone: it prints the whole void at once
 * (optyker-web `Emit-Receipt` acknowledges exactly one command).
 *
 * The **marker**: RCH answers no request id, so each document prints one short line of its own,
 * `RIF. ` and 13 characters derived from the command id and attempt, and the driver finds it again
 * in the electronic journal's last document after a lost answer — the technique of
 * Leahcim12/optyker-web (`Assert-FiscalDocument` `receiptMarker`, `Parse-ReceiptJournal`).
 */
export interface RchRendering {
  forms: RchPayments['codes'];
  serial: string | undefined;
  /** A refund's lottery code: the original's, printed with it (plan.ts `originalLottery`). */
  refundLottery?: string;
}

export interface RenderedDocument {
  commands: string[];
  /** Commands before the first payment (a void: before `=k`): a request stopped there closed nothing. */
  beforePayment: number;
  marker?: string;
}

/** The marker line of a command's attempt: `RIF. ` + 12 hex digits of its SHA-256 + the attempt's digit. */
export function markerOf(commandId: string, attempt: number): string {
  const hash = createHash('sha256').update(commandId).digest('hex').slice(0, 12).toUpperCase();
  return `RIF. ${hash}${Math.abs(Math.trunc(attempt)) % 10}`;
}

const MAX_QUANTITY = 9999;

function lineCommand(line: DocumentLine): string {
  const counted =
    Number.isInteger(line.quantity) &&
    line.quantity >= 1 &&
    line.quantity <= MAX_QUANTITY &&
    line.quantity * line.unitCents === line.totalCents;
  return counted
    ? saleLine(line.department, line.unitCents, line.quantity, line.description)
    : saleLine(line.department, line.totalCents, 1, line.description);
}

function paymentCommands(payments: readonly DocumentPayment[], forms: RchPayments['codes']): string[] {
  if (payments.length === 0) return [payment(1, undefined, 'CONTANTI')];
  return payments.map((p, i) => {
    const form = formOf(p, forms);
    if (form === undefined) {
      throw new AgentError('COMMAND_INVALID', `Payment ${p.key} (${p.kind}) has no RCH payment form`, {
        notes: r.paymentUnmapped({ key: p.key, kind: p.kind }),
      });
    }
    return payment(form, i === payments.length - 1 ? undefined : p.cents, p.description);
  });
}

/** The commands of `model` with `marker` (see above). Rejects what RCH cannot print, before any contact. */
export function renderDocument(
  model: FiscalDocumentModel,
  rendering: RchRendering,
  marker: string,
): RenderedDocument {
  const ref = model.reference;
  if (ref && isNoReference(ref)) {
    throw new AgentError('FISCAL_REJECTED', 'RCH prints a refund only with its original', {
      notes: r.noUnreferencedRefund(),
      retryable: false,
    });
  }
  if (model.kind === 'refund' && ref && rendering.serial && ref.serial !== rendering.serial.toUpperCase()) {
    throw new AgentError('FISCAL_REJECTED', `RCH refunds only its own receipts, not ${ref.serial}'s`, {
      notes: r.refundOfOtherPrinter({ serial: ref.serial }),
      retryable: false,
    });
  }
  // `=k` is the void's one command: it prints the void, or nothing.
  if (model.kind === 'void' && ref) return { commands: [voidOf(ref, rendering.serial)], beforePayment: 0 };
  const body: string[] = [];
  if (model.kind === 'refund' && ref) body.push(refundOpen(ref));
  body.push(...model.lines.map(lineCommand));
  for (const d of model.discounts) body.push(departmentDiscount(d.department, d.cents, d.description));
  for (const d of model.deductions) body.push(deductionLine(d.kind, d.department, d.cents, d.description));
  // No public source shows `="/?C` inside a refund (rch-driver-js-core `returnGoods` and the
  // JavaPOS driver's refunds carry none), and the simulator written from them refuses it there: a
  // refund goes without the customer's code rather than risk the whole document (README, what a
  // first printer must confirm). The code is optional on a return (it serves the guest's
  // deductions on the sale).
  if (model.customer && model.kind !== 'refund') body.push(customerCodeLine(model.customer.id));
  const lottery = model.kind === 'refund' ? rendering.refundLottery : model.lottery;
  if (lottery) body.push(lotteryLine(lottery));
  body.push(textLine(marker));
  return {
    commands: [...body, ...paymentCommands(model.payments, rendering.forms)],
    beforePayment: body.length,
    marker,
  };
}
