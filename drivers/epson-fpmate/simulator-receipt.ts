import { MAX_CENTS } from './money.js';
import { DEFAULT_LINE_LENGTH } from './protocol.js';
import { type DocumentReference, parseReferenceMessage } from './reference.js';

/**
 * The simulator's check of a `printerFiscalReceipt`, in the order a real RT enforces: optional
 * reference (type 4, first element only) and header lines (type 1), `beginFiscalReceipt`, lines,
 * payments, `endFiscalReceipt`. Amounts take a decimal point or a decimal comma, as printers do
 * (fiskaltrust `scu-it` writes commas: `Utilities/EpsonFormatters.cs`; OCA and our driver write
 * dots), with at most two decimals and nine digits of cents; quantities at most three decimals.
 * A line is `quantity × unitPrice` rounded half up to the cent. Anything else is a wrong value
 * (status 13). Adjustment types 0–4 are discounts and 5–9 surcharges (our reading).
 */

export interface SimElement {
  name: string;
  attrs: Record<string, string>;
}

export interface PrintedLine {
  type: 'item' | 'adjustment' | 'refund';
  description: string;
  quantity: number;
  unitPriceCents: number;
  /** The line's effect on the total (negative for a discount). */
  amountCents: number;
  department: number;
}

export interface PrintedPayment {
  description: string;
  paymentType: number;
  index: number;
  amountCents: number;
}

export interface CheckedReceipt {
  kind: 'sale' | 'refund' | 'void';
  reference?: DocumentReference;
  header: string[];
  lines: PrintedLine[];
  payments: PrintedPayment[];
  totalCents: number;
}

/** A refusal: the fpmate `code` and, for PRINTER ERROR, its `status`. */
export class SimRefusal extends Error {
  constructor(
    readonly code: string,
    readonly status = '0',
  ) {
    super(`${code} ${status}`);
  }
}

const wrongValue = () => new SimRefusal('PRINTER ERROR', '13');
const wrongSequence = () => new SimRefusal('PRINTER ERROR', '11');

function money(text: string | undefined): number {
  const m = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text ?? '');
  if (!m) throw wrongValue();
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (cents > MAX_CENTS) throw new SimRefusal('PRINTER ERROR', '20');
  return cents;
}

/** A quantity in thousandths. */
function quantityMilli(text: string | undefined): number {
  const m = /^(\d{1,5})(?:[.,](\d{1,3}))?$/.exec(text ?? '');
  const milli = m ? Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0')) : 0;
  if (milli <= 0) throw wrongValue();
  return milli;
}

function int(text: string | undefined, min: number, max: number, fallback?: number): number {
  if (text === undefined && fallback !== undefined) return fallback;
  if (text === undefined || !/^\d{1,3}$/.test(text) || Number(text) < min || Number(text) > max)
    throw wrongValue();
  return Number(text);
}

function description(text: string | undefined): string {
  const value = text ?? '';
  if ([...value].length > DEFAULT_LINE_LENGTH) throw wrongValue();
  return value;
}

const IGNORED = new Set([
  'displayText',
  'printBarCode',
  'directIO',
  'printRecSubtotal',
  'printRecSubtotalAdjustment',
]);

export function checkReceipt(elements: SimElement[]): CheckedReceipt {
  let phase: 'start' | 'lines' | 'payments' | 'end' = 'start';
  const out: CheckedReceipt = { kind: 'sale', header: [], lines: [], payments: [], totalCents: 0 };
  for (const [position, el] of elements.entries()) {
    const a = el.attrs;
    if (phase === 'end') throw new SimRefusal('Non valid XML command');
    if (el.name === 'printRecMessage') {
      const type = a.messageType ?? '1';
      if (type === '4') {
        const ref = parseReferenceMessage(a.message ?? '');
        if (position !== 0) throw wrongSequence();
        if (!ref) throw wrongValue();
        out.reference = ref;
        out.kind = ref.kind === 'VOID' ? 'void' : 'refund';
      } else if (type === '1' && phase === 'start') {
        out.header.push(description(a.message));
      } else if (phase === 'start') {
        throw wrongSequence();
      }
      continue;
    }
    if (IGNORED.has(el.name)) continue;
    switch (el.name) {
      case 'beginFiscalReceipt':
        if (phase !== 'start') throw wrongSequence();
        phase = 'lines';
        continue;
      case 'printRecItem':
      case 'printRecRefund': {
        if (phase !== 'lines') throw wrongSequence();
        if ((el.name === 'printRecRefund') !== (out.kind === 'refund')) throw wrongSequence();
        const milli = quantityMilli(a.quantity);
        const q = milli / 1000;
        const unit = money(a.unitPrice);
        const amount = Math.floor((milli * unit + 500) / 1000);
        const type = el.name === 'printRecItem' ? 'item' : 'refund';
        out.lines.push({
          type,
          description: description(a.description),
          quantity: q,
          unitPriceCents: unit,
          amountCents: amount,
          department: int(a.department, 1, 99),
        });
        continue;
      }
      case 'printRecItemAdjustment': {
        if (phase !== 'lines' || out.kind !== 'sale' || out.lines.length === 0) throw wrongSequence();
        const adjustment = int(a.adjustmentType, 0, 9);
        const amount = money(a.amount);
        out.lines.push({
          type: 'adjustment',
          description: description(a.description),
          quantity: 1,
          unitPriceCents: amount,
          amountCents: adjustment <= 4 ? -amount : amount,
          department: int(a.department, 1, 99),
        });
        continue;
      }
      case 'printRecTotal':
        if (phase !== 'lines' && phase !== 'payments') throw wrongSequence();
        if (out.kind === 'void') throw wrongSequence();
        phase = 'payments';
        out.payments.push({
          description: description(a.description),
          paymentType: int(a.paymentType, 0, 6),
          index: int(a.index, 0, 10, 0),
          amountCents: money(a.payment),
        });
        continue;
      case 'endFiscalReceipt':
        if (phase === 'start') throw wrongSequence();
        phase = 'end';
        continue;
      default:
        throw new SimRefusal('Non valid XML command');
    }
  }
  if (phase !== 'end') throw new SimRefusal('INCOMPLETE FILE');
  out.totalCents = out.lines.reduce((sum, l) => sum + l.amountCents, 0);
  if (out.totalCents > MAX_CENTS) throw new SimRefusal('PRINTER ERROR', '20');
  if (out.kind === 'void') {
    if (out.lines.length > 0) throw wrongSequence();
    return out;
  }
  if (out.lines.length === 0 || out.totalCents <= 0) throw wrongSequence();
  const paid = out.payments.reduce((sum, p) => sum + p.amountCents, 0);
  if (paid < out.totalCents) throw wrongSequence();
  const cash = out.payments.filter((p) => p.paymentType === 0).reduce((sum, p) => sum + p.amountCents, 0);
  if (paid - out.totalCents > cash) throw new SimRefusal('PRINTER ERROR', '20');
  return out;
}
