import { cents, description, digits, MAX_QUANTITY_MILLI, optionalDigits } from './attrs.js';
import { customerCode } from './customer.js';
import type { OpenReceipt } from './reference.js';
import { type CustomPrintedLine, CustomRefusal, ST, type VatGross } from './types.js';

/**
 * The body of a fiscal receipt, node by node, as the manual describes each element (Custom XML
 * manual rev 2.00): `printRecItem` p.89, `printRecItemVoid` p.92, `printRecItemAdjustment` p.90,
 * `printRecRefund` p.94, `printRecSubtotal` p.96, `printRecSubtotalAdjustment` p.97,
 * `printRecAdvancePayments` p.87, `printRecMessage` p.93, `fixedLines` p.55, `setLotteryCode`
 * p.115, `printRecTotal` p.99, `printRecVoid` p.100. Each node changes the open receipt or throws
 * a `CustomRefusal`; the nodes before a refused one stay applied and the receipt stays open
 * ("print up to the sub-element with the error", p.31).
 */

/** What the body needs from the printer: its VAT table and department programming. */
export interface ReceiptHost {
  vatRate(slot: number): number | undefined;
  departmentVat(department: number): number | undefined;
}

/** Payment codes that give change: cash only (DIO 3007 p.119, code 01). */
const CASH = 1;

export function grossByVat(lines: readonly CustomPrintedLine[]): VatGross {
  const out: VatGross = {};
  for (const l of lines) out[l.idVat] = (out[l.idVat] ?? 0) + l.amountCents;
  return out;
}

export const totalOf = (r: OpenReceipt) => r.lines.reduce((s, l) => s + l.amountCents, 0);
export const paidOf = (r: OpenReceipt) => r.payments.reduce((s, p) => s + p.amountCents, 0);

function needsBody(r: OpenReceipt | undefined): OpenReceipt {
  if (!r || r.cancelled) throw new CustomRefusal(ST.notPossible);
  return r;
}

/** Sale lines may not follow a payment. */
function beforePayments(r: OpenReceipt | undefined): OpenReceipt {
  const open = needsBody(r);
  if (open.payments.length > 0) throw new CustomRefusal(ST.notPossible);
  return open;
}

function itemLine(host: ReceiptHost, a: Record<string, string>, maxDept: number): CustomPrintedLine {
  const text = description(a.description);
  if (/totale/i.test(text)) throw new CustomRefusal(ST.totaleWord);
  const unitPriceCents = cents(a.unitPrice);
  const quantityMilli = optionalDigits(a.quantity, 1, MAX_QUANTITY_MILLI, ST.quantityTooLarge) ?? 1000;
  // "If the use of quantity is needed, the use of the idVat tag is mandatory" (p.89).
  if (a.quantity !== undefined && a.idVat === undefined) throw new CustomRefusal(ST.invalid);
  const department = optionalDigits(a.department, 1, maxDept) ?? 1;
  const deptVat = host.departmentVat(department);
  if (deptVat === undefined) throw new CustomRefusal(ST.departmentMissing);
  const idVat = optionalDigits(a.idVat, 1, 99) ?? deptVat;
  if (host.vatRate(idVat) === undefined) throw new CustomRefusal(ST.vatNotProgrammed);
  const amountCents = Math.round((unitPriceCents * quantityMilli) / 1000);
  return { type: 'item', description: text, quantityMilli, unitPriceCents, amountCents, department, idVat };
}

/** Spreads `amount` over the receipt's VAT slots pro rata (p.97), the last slot taking the rest. */
function spread(r: OpenReceipt, type: CustomPrintedLine['type'], text: string, amount: number): void {
  const gross = Object.entries(grossByVat(r.lines)).filter(([, g]) => g > 0);
  const base = gross.reduce((s, [, g]) => s + g, 0);
  if (base === 0) throw new CustomRefusal(ST.notPossible);
  let left = amount;
  gross.forEach(([slot, g], i) => {
    const part = i === gross.length - 1 ? left : Math.round((amount * g) / base);
    left -= part;
    r.lines.push({
      type,
      description: text,
      quantityMilli: 1000,
      unitPriceCents: Math.abs(part),
      amountCents: part,
      department: 0,
      idVat: Number(slot),
    });
  });
}

/** Applies one body node to the open receipt; returns false when `name` is no body node. */
export function applyBodyNode(
  host: ReceiptHost,
  r: OpenReceipt | undefined,
  name: string,
  a: Record<string, string>,
): boolean {
  switch (name) {
    case 'printRecItem': {
      const open = beforePayments(r);
      open.lines.push(itemLine(host, a, 999));
      return true;
    }
    case 'printRecRefund': {
      // A goods return inside a sale (p.94), not the RT refund document.
      const open = beforePayments(r);
      if (open.kind !== 'sale') throw new CustomRefusal(ST.notPossible);
      const line = itemLine(host, a, 99);
      open.lines.push({ ...line, type: 'return', amountCents: -line.amountCents });
      return true;
    }
    case 'printRecItemVoid': {
      const open = beforePayments(r);
      const line = itemLine(host, a, 999);
      const voided = open.lines.filter(
        (l) =>
          l.type === 'item-void' &&
          l.description === line.description &&
          l.unitPriceCents === line.unitPriceCents &&
          l.idVat === line.idVat,
      ).length;
      const matching = open.lines.filter(
        (l) =>
          l.type === 'item' &&
          l.description === line.description &&
          l.unitPriceCents === line.unitPriceCents &&
          l.idVat === line.idVat,
      );
      if (matching.length <= voided) throw new CustomRefusal(ST.invalid);
      open.lines.push({ ...line, type: 'item-void', amountCents: -line.amountCents });
      return true;
    }
    case 'printRecItemAdjustment': {
      const open = beforePayments(r);
      const type = digits(a.adjustmentType, 2, 3);
      const amount = cents(a.amount);
      const last = open.lines.at(-1);
      if (last?.type !== 'item') throw new CustomRefusal(ST.notPossible);
      if (type === 3 && amount > last.amountCents) throw new CustomRefusal(ST.discountOver100);
      const idVat = optionalDigits(a.idVat, 1, 99) ?? last.idVat;
      if (host.vatRate(idVat) === undefined) throw new CustomRefusal(ST.vatNotProgrammed);
      open.lines.push({
        type: 'adjustment',
        description: description(a.description),
        quantityMilli: 1000,
        unitPriceCents: amount,
        amountCents: type === 3 ? -amount : amount,
        department: last.department,
        idVat,
      });
      return true;
    }
    case 'printRecSubtotalAdjustment': {
      const open = beforePayments(r);
      const type = digits(a.adjustmentType, 2, 3);
      const amount = cents(a.amount);
      if (type === 3 && amount > totalOf(open)) throw new CustomRefusal(ST.discountOver100);
      spread(open, 'subtotal-adjustment', description(a.description), type === 3 ? -amount : amount);
      return true;
    }
    case 'printRecAdvancePayments': {
      const open = beforePayments(r);
      const amount = cents(a.amount);
      if (amount > totalOf(open)) throw new CustomRefusal(ST.discountOver100);
      spread(open, 'advance', 'ACCONTO', -amount);
      return true;
    }
    case 'printRecSubtotal':
      needsBody(r);
      return true;
    case 'printRecMessage': {
      const open = needsBody(r);
      digits(a.messageType, 1, 4);
      open.text.push(description(a.message, 42));
      return true;
    }
    case 'fixedLines': {
      const open = needsBody(r);
      const text = description(a.description, 44);
      if (a.pitch === 'B') {
        const code = customerCode(text);
        if (code) open.customerId = code;
      } else open.text.push(text);
      return true;
    }
    case 'setLotteryCode':
      setLottery(needsBody(r), a.code);
      return true;
    case 'printRecTotal':
      pay(needsBody(r), a);
      return true;
    case 'printRecVoid':
      needsBody(r).cancelled = true;
      return true;
    default:
      return false;
  }
}

/**
 * The lottery code (XML p.115; native 3019 takes 6–22 bytes, DIO p.135), on a sale only. The law
 * lets only purchases paid wholly by electronic means take part (L. 160/2019 art. 1 c. 540 as
 * amended by L. 178/2020 c. 1095), so a cash payment on a lottery receipt is refused with 137
 * "payment type not allowed for the operation in progress" (DIO-SG p.306). The manual itself does
 * not state this check, and its lottery example (DIO p.136) even shows a cash payment: our reading.
 */
function setLottery(r: OpenReceipt, code: string | undefined): void {
  if (r.kind !== 'sale') throw new CustomRefusal(ST.notPossible);
  if (!/^[A-Za-z0-9]{6,22}$/.test(code ?? '')) throw new CustomRefusal(ST.invalid);
  if (r.payments.some((p) => p.paymentType === CASH)) throw new CustomRefusal(ST.paymentNotAllowed);
  r.lottery = code;
}

/**
 * A payment (p.99): `paymentType` 1–30 per the printer's programming, and the native prefixed
 * codes 50–53 (DIO 3007 p.119: not collected – services / invoices / DCR to SSN, discount on
 * payment), which XML p.99's range leaves out but which the same printer programs. A payment of 0
 * settles what is left (DIO 3007 p.119, "se AM = 0 … viene chiuso direttamente il pagamento").
 */
function pay(r: OpenReceipt, a: Record<string, string>): void {
  const paymentType = digits(a.paymentType, 1, 53);
  if (paymentType > 30 && paymentType < 50) throw new CustomRefusal(ST.invalid);
  if (r.lottery && paymentType === CASH) throw new CustomRefusal(ST.paymentNotAllowed);
  const paymentQty = optionalDigits(a.paymentQty, 0, 99);
  const given = cents(a.payment);
  const amountCents = given === 0 ? Math.max(0, totalOf(r) - paidOf(r)) : given;
  r.payments.push({
    description: description(a.description),
    paymentType,
    ...(paymentQty === undefined ? {} : { paymentQty }),
    amountCents,
  });
}

/**
 * What a sale needs at its end node: a non-negative total (p.16 rule 3, status 23), payments
 * covering it (p.31: no payment, an error at `endFiscalReceipt`; 25 "payment not completed"), and
 * change only out of cash (142 "change above maximum" otherwise). The receipt stays open on error.
 */
export function checkSaleEnd(r: OpenReceipt): void {
  if (!r.lines.some((l) => l.type === 'item')) throw new CustomRefusal(ST.notPossible);
  const total = totalOf(r);
  if (total < 0) throw new CustomRefusal(ST.negativeTotal);
  const paid = paidOf(r);
  if (paid < total || r.payments.length === 0) throw new CustomRefusal(ST.paymentNotCompleted);
  const cash = r.payments.filter((p) => p.paymentType === CASH).reduce((s, p) => s + p.amountCents, 0);
  if (paid - total > cash) throw new CustomRefusal(ST.changeTooLarge);
}
