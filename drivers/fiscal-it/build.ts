import type { FiscalJobData } from '../../src/connector/model.js';
import { AgentError } from '../../src/errors.js';
import { type BillReader, priceBill } from './bill.js';
import { customerCode } from './customer-codes.js';
import { consumerLottery, lotteryCode } from './lottery.js';
import { lawNotes } from './messages.js';
import type { FiscalDocumentModel } from './model.js';
import { type DocumentReference, isUnreferenced, refundReference, unreferencedRefund } from './reference.js';
import type { FiscalRules } from './rules.js';

export interface BuildContext extends BillReader {
  timeZone: string;
  /** Now, for the date of a refund that names no original receipt. */
  now: number;
  /** This printer's serial, used in refund references when the platform gives none. */
  ownSerial?: string | undefined;
}

/**
 * The document a refund command asks for: a void of the original when the bill cancels it
 * (`CorrectionType: Cancellation`, with `voidCancellations`), a refund referring to it, or —
 * when the platform names no original at all and `unreferencedRefunds` allows it — an ND refund.
 * Rejects with COMMAND_INVALID otherwise: a refund requires the data of the original document
 * (AdE principio di diritto 21/2019), so without them nothing prints and the Notes say how to
 * issue it.
 */
function refundKind(
  fiscal: FiscalJobData,
  rules: FiscalRules,
  ctx: BuildContext,
): { kind: 'refund' | 'void'; reference: DocumentReference } {
  const doc = fiscal.document;
  if (doc.type !== 'data') throw new AgentError('INTERNAL', 'refundKind called for a payload');
  if (isUnreferenced(doc.rebated)) {
    if (!rules.unreferencedRefunds) {
      throw new AgentError('COMMAND_INVALID', 'Refund without a reference', {
        notes: lawNotes.noUnreferencedRefunds(),
      });
    }
    return { kind: 'refund', reference: unreferencedRefund(ctx.now, ctx.timeZone) };
  }
  const cancels = rules.voidCancellations && fiscal.bill.correctionType === 'Cancellation';
  const reference = refundReference(
    doc.rebated,
    doc.printerSerialNumber,
    ctx.ownSerial,
    ctx.timeZone,
    cancels ? 'VOID' : 'REFUND',
  );
  return { kind: cancels ? 'void' : 'refund', reference };
}

/** A void: the original as it stands, named by its reference (no lines, no customer code). */
export function voidDocument(reference: DocumentReference, currency: string): FiscalDocumentModel {
  return {
    kind: 'void',
    reference,
    lines: [],
    discounts: [],
    deductions: [],
    payments: [],
    totalCents: 0,
    currency,
    notes: [],
    log: [],
  };
}

/**
 * Builds the fiscal document of a `data` fiscal command from the bill (see README.md for every
 * rule and its source). A void is decided first and reads nothing else — not the bill, not the
 * customer's code. A sale or refund is priced from the bill (bill.ts), then gets the customer's
 * code (customer-codes.ts) and, a sale only, the consumer's lottery code when the law allows it
 * (lottery.ts). Everything that can be refused is refused here, before any printer is contacted:
 * FISCAL_REJECTED for a bill that cannot make a valid document, COMMAND_INVALID for a refund
 * without a usable reference or an invalid Italian customer code (`invalidTaxId: refuse`).
 */
export async function buildFiscalDocument(
  fiscal: FiscalJobData,
  rules: FiscalRules,
  ctx: BuildContext,
): Promise<FiscalDocumentModel> {
  const doc = fiscal.document;
  if (doc.type !== 'data')
    throw new AgentError('INTERNAL', 'buildFiscalDocument called for a payload command');
  let reference: DocumentReference | undefined;
  if (doc.isRefund) {
    const refund = refundKind(fiscal, rules, ctx);
    if (refund.kind === 'void') {
      const original = consumerLottery(fiscal.bill.buyer, rules.lottery);
      const model = voidDocument(refund.reference, rules.currency);
      return original ? { ...model, originalLottery: original } : model;
    }
    reference = refund.reference;
  }
  const kind = doc.isRefund ? 'refund' : 'sale';
  const code = customerCode(fiscal.taxIdentifier, rules);
  const { deductionsElectronic, ...priced } = await priceBill(fiscal, rules, ctx, kind);
  const model: FiscalDocumentModel = { kind, ...priced, notes: code.notes ? [code.notes] : [], log: [] };
  if (reference) model.reference = reference;
  if (code.customer) model.customer = code.customer;
  if (kind === 'sale') {
    const lottery = lotteryCode(
      {
        buyer: fiscal.bill.buyer,
        hasCustomerCode: code.customer !== undefined,
        paymentKinds: priced.payments.map((p) => p.kind),
        deductionsElectronic,
        totalCents: priced.totalCents,
      },
      rules.lottery,
    );
    if ('code' in lottery) model.lottery = lottery.code;
    else if ('leftOff' in lottery) model.log.push(lottery.leftOff);
  } else {
    const original = consumerLottery(fiscal.bill.buyer, rules.lottery);
    if (original) model.originalLottery = original;
  }
  return model;
}
