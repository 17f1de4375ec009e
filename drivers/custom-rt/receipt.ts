import { AgentError } from '../../src/errors.js';
import type { DocumentLine, FiscalDocumentModel } from '../fiscal-it/model.js';
import { type DocumentReference, isNoReference } from '../fiscal-it/reference.js';
import type { IdPair } from './idcmd.js';
import { customRefusals as r } from './messages.js';
import { type CustomPayments, customCodeOf } from './payment-codes.js';
import { element, printerText, request } from './xml.js';

/**
 * The fiscal core's document (`drivers/fiscal-it/model.ts`) as a Custom `printerFiscalReceipt`
 * (XML protocol manual rev 2.00, pages below): this file maps the core's kinds to Custom's
 * elements and codes and decides no law. Money is integer cents, quantities thousandths
 * (fiskaltrust `CustomRTPrinter` and the native 3301 with three decimals, directIO manual p.148),
 * descriptions at most 22 characters (p.89).
 *
 * A sale: `beginFiscalReceipt` (p.34), `setLotteryCode` (p.115), one `printRecItem` per line with
 * its department and `idVat` (mandatory with a quantity, p.89), the discounts as
 * `printRecItemAdjustment adjustmentType="3"` on their department (p.90), the deductions
 * (deposit, single-use voucher) the same way on the department of their own rate (below),
 * `printRecSubtotal` (p.96),
 * the customer's codice fiscale / partita IVA as `fixedLines pitch="B"` before the payments
 * (p.55; directIO manual 3010 p.124), one `printRecTotal` per payment (p.99), and one
 * `endFiscalReceipt` (p.49). A refund opens with `beginRtDocRefund` (p.38), lists the refunded
 * lines, positive, and pays them back with its payment form: the manual's structure of every
 * fiscal receipt, refunds included, is "Sale(s), Payment(s)" (p.16), one `printRecTotal` each
 * (p.99). A refund of another device's receipt, and an unreferenced one, open with
 * `beginRtDocRefundSpecial service="ND"` (p.39, "Returning a receipt of a different device"; p.15
 * "a receipt not present on the device"): the printer can look up only its own journal, so the
 * `checkOnly` step (pp.36, 38) would answer "not found". A void is `beginRtDocAnnulment` (p.36),
 * the original's lines (void-lines.ts) and the end node: the printer voids the original as it
 * stands. A refund or void of a sale that carried a lottery code carries it as `codLottery`
 * (pp.36, 38).
 *
 * A deposit uses the protocol's deposit form, `printRecAdvancePayments` (p.87, "the deposit amount
 * previously paid"), when the receipt has a single VAT slot: p.87 names no VAT, so only then is
 * its VAT the one the core decided (the deposit's own rate, deductions.ts) whatever the printer
 * does with it. With several slots the deposit stays an adjustment on its own rate's department.
 */

export interface CustomRendering {
  /** VAT rate (or nature) → the printer's VAT slot (config.ts `vatSlotTable`). */
  vatSlots: Readonly<Record<string, number>>;
  codes: CustomPayments['codes'];
  /** This printer's serial, written as `fiscalSerial` when the reference names no other. */
  serial: string | undefined;
  /** The original of a refund or void carried a lottery code (the agent's history says so). */
  originalCarriedLottery?: boolean;
}

/**
 * A refund whose reference names another device (its serial is not this printer's): opened with
 * `beginRtDocRefundSpecial` (p.39), never checked with `checkOnly` (this printer's journal cannot
 * hold it). With this printer's serial unknown, the reference counts as this printer's.
 */
export function isForeignRefund(ref: DocumentReference, serial: string | undefined): boolean {
  if (ref.kind !== 'REFUND' || isNoReference(ref) || !ref.serial || !serial) return false;
  return ref.serial.toUpperCase() !== serial.toUpperCase();
}

const DESCRIPTION = 22;
const DISCOUNT = 3;

const pad4 = (n: number) => String(n).padStart(4, '0');

/** ddMMyyyy → the DDMMYY a reference's `docDate` takes (p.38). */
export function docDate(ddMMyyyy: string): string {
  return `${ddMMyyyy.slice(0, 4)}${ddMMyyyy.slice(6, 8)}`;
}

/** The attributes naming the original of a refund or void (pp.36, 38). */
export function referenceAttributes(ref: DocumentReference, serial: string | undefined) {
  return {
    docRefZ: pad4(ref.z),
    docRefNumber: pad4(ref.doc),
    docDate: docDate(ref.date),
    fiscalSerial: ref.serial && ref.serial !== 'ND' ? ref.serial : serial,
  };
}

/** The feasibility check of a refund or void: its begin node with `checkOnly="1"` alone (p.72). */
export function referenceCheckXml(ref: DocumentReference, serial: string | undefined): string {
  const name = ref.kind === 'VOID' ? 'beginRtDocAnnulment' : 'beginRtDocRefund';
  return request('printerFiscalReceipt', [
    element(name, { ...referenceAttributes(ref, serial), checkOnly: 1 }),
  ]);
}

function beginNode(model: FiscalDocumentModel, r: CustomRendering, ids: IdPair): string {
  const ref = model.reference;
  if (!ref) return element('beginFiscalReceipt', { IdCmd: ids.begin });
  if (isNoReference(ref) || isForeignRefund(ref, r.serial)) {
    return element('beginRtDocRefundSpecial', {
      service: 'ND',
      docDate: docDate(ref.date),
      IdCmd: ids.begin,
    });
  }
  const name = model.kind === 'void' ? 'beginRtDocAnnulment' : 'beginRtDocRefund';
  return element(name, {
    ...referenceAttributes(ref, r.serial),
    printPreview: 0,
    checkOnly: 0,
    codLottery: r.originalCarriedLottery ? model.originalLottery : undefined,
    IdCmd: ids.begin,
  });
}

function slotOf(r: CustomRendering, use: { rate?: number; nature?: string; description: string }) {
  if (use.rate === undefined) return use.nature ? r.vatSlots[use.nature] : undefined;
  const slot = r.vatSlots[String(use.rate)];
  if (slot === undefined) {
    throw new AgentError('FISCAL_REJECTED', `No VAT slot for ${use.rate} % (vatSlots)`, {
      notes: r_noSlot(use.rate, use.description),
      retryable: false,
    });
  }
  return slot;
}

const r_noSlot = (rate: number, description: string) => r.noVatSlot({ rate, description });

/**
 * One sold (or voided) line. Without a slot (a nature the printer's VAT table does not list) the
 * department's class decides, and the line goes as its amount: a quantity would make idVat
 * mandatory (p.89).
 */
function itemNode(r: CustomRendering, line: DocumentLine): string {
  const idVat = slotOf(r, line);
  const counted = idVat !== undefined;
  return element('printRecItem', {
    description: printerText(line.description, DESCRIPTION) || 'ARTICOLO',
    unitPrice: counted ? line.unitCents : line.totalCents,
    department: line.department,
    idVat,
    quantity: counted ? Math.round(line.quantity * 1000) : undefined,
  });
}

/**
 * The deposits' amount for `printRecAdvancePayments` (p.87), or undefined when they stay item
 * adjustments: only a sale whose lines, discounts and deposits all print in one VAT slot (see the
 * module comment).
 */
function depositForm(model: FiscalDocumentModel, r: CustomRendering): number | undefined {
  const deposits = model.deductions.filter((d) => d.kind === 'deposit');
  if (model.kind !== 'sale' || deposits.length === 0) return undefined;
  const slots = new Set(
    [...model.lines, ...model.discounts, ...deposits].map((use) =>
      use.rate === undefined ? `nature ${use.nature}` : slotOf(r, use),
    ),
  );
  return slots.size === 1 ? deposits.reduce((sum, d) => sum + d.cents, 0) : undefined;
}

function paymentNode(p: FiscalDocumentModel['payments'][number], rendering: CustomRendering): string {
  const code = customCodeOf(p, rendering.codes);
  if (code === undefined) {
    throw new AgentError('COMMAND_INVALID', `Payment ${p.key} (${p.kind}) has no Custom payment number`, {
      notes: r.paymentUnmapped({ key: p.key, kind: p.kind }),
    });
  }
  return element('printRecTotal', {
    description: printerText(p.description, DESCRIPTION) || 'PAGAMENTO',
    payment: p.cents,
    paymentType: code,
  });
}

export function receiptXml(model: FiscalDocumentModel, rendering: CustomRendering, ids: IdPair): string {
  const text = (t: string, fallback: string) => printerText(t, DESCRIPTION) || fallback;
  const parts: string[] = [beginNode(model, rendering, ids)];
  if (model.kind !== 'void') {
    if (model.lottery) parts.push(element('setLotteryCode', { code: model.lottery }));
    // An item adjustment applies to the item sold just before it and cannot exceed it (p.90;
    // status 121 beyond 100 %). So each department's discounts, then its deductions (a deposit or
    // single-use voucher comes off the rate it was receipted at: XML's acconto element
    // `printRecAdvancePayments`, p.87, names no VAT and is spread pro rata), follow the items of
    // that department, each taking what the item before it can bear.
    const pending = new Map<
      number,
      Array<{ description: string; left: number; idVat: number | undefined }>
    >();
    const advance = depositForm(model, rendering);
    const adjustments = [
      ...model.discounts.map((d) => ({ ...d, fallback: 'SCONTO' })),
      ...model.deductions
        .filter((d) => !(advance && d.kind === 'deposit'))
        .map((d) => ({ ...d, fallback: 'ACCONTO' })),
    ];
    for (const adj of adjustments) {
      const queue = pending.get(adj.department) ?? [];
      queue.push({
        description: text(adj.description, adj.fallback),
        left: adj.cents,
        idVat: slotOf(rendering, adj),
      });
      pending.set(adj.department, queue);
    }
    for (const line of model.lines) {
      parts.push(itemNode(rendering, line));
      let room = line.totalCents;
      const queue = pending.get(line.department) ?? [];
      while (queue.length > 0 && room > 0) {
        const adj = queue[0] as (typeof queue)[number];
        const take = Math.min(adj.left, room);
        parts.push(
          element('printRecItemAdjustment', {
            adjustmentType: DISCOUNT,
            description: adj.description,
            amount: take,
            department: line.department,
            idVat: adj.idVat,
          }),
        );
        adj.left -= take;
        room -= take;
        if (adj.left === 0) queue.shift();
      }
    }
    const unplaced = [...pending.values()].flat().find((adj) => adj.left > 0);
    if (unplaced) {
      throw new AgentError(
        'FISCAL_REJECTED',
        `"${unplaced.description}" exceeds the lines of its department`,
        {
          notes: r.adjustmentTooLarge({ description: unplaced.description }),
          retryable: false,
        },
      );
    }
    if (advance) parts.push(element('printRecAdvancePayments', { amount: advance }));
    if (model.kind === 'sale') {
      parts.push(element('printRecSubtotal'));
      if (model.customer) parts.push(element('fixedLines', { description: model.customer.id, pitch: 'B' }));
    }
    // A sale pays, a refund pays back: "Sale(s), Payment(s)" for every fiscal receipt (p.16).
    for (const p of model.payments) parts.push(paymentNode(p, rendering));
  }
  // A void repeats the original's lines (p.16 "at least one sales line"; void-lines.ts).
  if (model.kind === 'void') for (const line of model.lines) parts.push(itemNode(rendering, line));
  parts.push(element('endFiscalReceipt', { IdCmd: ids.end }));
  return request('printerFiscalReceipt', parts);
}
