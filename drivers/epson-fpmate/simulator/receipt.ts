import { DEFAULT_LINE_LENGTH } from '../protocol.js';
import { checkCodiceFiscale, checkLotteryCode, checkPartitaIva } from './codes.js';
import { readReference, SIM_MAX_CENTS, type SimReference } from './reference.js';

/**
 * The simulator's check of a `printerFiscalReceipt`, in the order a real RT enforces: optional
 * reference (type 4, first element only) and header lines (type 1), `beginFiscalReceipt`, lines,
 * payments, `endFiscalReceipt`. Amounts take a decimal comma, as Epson's own input samples write
 * them (EpsonFpSuite 2.2.0 `Italy/TxtExamples/ScoDocCommPayCash.txt`) and fiskaltrust `scu-it`
 * sends them (`Utilities/EpsonFormatters.cs`), or a decimal point, as OCA `fiscal_epos_print`
 * sends them, with at most two decimals and nine digits of cents; quantities at most three decimals.
 * A line is `quantity × unitPrice` rounded half up to the cent. Anything else is a wrong value
 * (status 13).
 *
 * Item adjustments (`printRecItemAdjustment adjustmentType`): 0–4 discounts, 5–9 surcharges
 * (lyancoder/fiscal-printer `xml-http.ts` maps discounts to 0/3 and surcharges to 5/8), 10 a
 * deposit (acconto: procassa `itemAcconto`), 11 free of charge (omaggio) and 12 a single-use
 * voucher (fiskaltrust `GenerateItems`) — those three deduct from the total. An adjustment larger
 * than what its department carries so far is a wrong value (13; our reading).
 *
 * Voids take the forms public drivers send: the reference line alone (lyancoder
 * `convertCancelToXmlDoc`), the reference with a bare `printRecTotal` and `endFiscalReceipt`
 * (procassa `annulloDirettoScontrino`), or a whole document whose lines (`printRecVoid`,
 * fiskaltrust `CreateVoidRequestContent`; `printRecRefund`, OCA `printFiscalReceipt`) the printer
 * ignores: a void repeats the original as it stands. A refund may name no original
 * (`REFUND 0000 0000 ddMMyyyy ND`, fiskaltrust `ProcessRefundReceipt`); a void must.
 *
 * The customer's codes: `directIO` 1060 (partita IVA) and 1061 (codice fiscale) with `data`
 * "01" + the code (fiskaltrust `AddCustomerTaxIdDirectIO`), the lottery code as
 * `printRecLotteryID code` (fiskaltrust `Models/FiscalReceipt.cs`) or `directIO` 1135 with "01" +
 * the code padded (OCA `epson_epos_print.js`, procassa `lib/epsonxml.js`); a code failing its
 * check is refused with status 30 ("CHECKSUM ERRATO", fiskaltrust `Models/ErrorInfoFactory.cs`).
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
  /** The line's effect on the total (negative for a discount or a deduction). */
  amountCents: number;
  department: number;
  adjustmentType?: number;
  /** The department's VAT class when printed: "22%", "N1" … (programming.ts). */
  vatClass?: string;
}

export interface PrintedPayment {
  description: string;
  paymentType: number;
  index: number;
  amountCents: number;
}

export interface CheckedReceipt {
  kind: 'sale' | 'refund' | 'void';
  reference?: SimReference;
  header: string[];
  lines: PrintedLine[];
  payments: PrintedPayment[];
  totalCents: number;
  customer?: { command: '1060' | '1061'; id: string };
  lottery?: string;
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
const badChecksum = () => new SimRefusal('PRINTER ERROR', '30');

function money(text: string | undefined): number {
  const m = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text ?? '');
  if (!m) throw wrongValue();
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (cents > SIM_MAX_CENTS) throw new SimRefusal('PRINTER ERROR', '20');
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

const IGNORED = new Set(['displayText', 'printBarCode', 'printRecSubtotal', 'printRecSubtotalAdjustment']);
/** In a void the printer repeats the original: these lines change nothing. */
const VOID_LINES = new Set(['printRecVoid', 'printRecRefund', 'printRecItem', 'printRecItemAdjustment']);
/** Adjustment types that take an amount off the total besides discounts. */
const DEDUCTIONS = new Set([10, 11, 12]);

function customerCode(el: SimElement, out: CheckedReceipt): void {
  const command = el.attrs.command ?? '';
  const data = el.attrs.data ?? '';
  if (command === '1060' || command === '1061') {
    const id = data.slice(2).trim();
    const ok = command === '1060' ? checkPartitaIva(id) : checkCodiceFiscale(id);
    if (!ok) throw badChecksum();
    out.customer = { command, id };
  } else if (command === '1135') {
    const code = data.slice(2, 18).trim();
    if (!checkLotteryCode(code)) throw badChecksum();
    out.lottery = code;
  }
}

function reference(el: SimElement, position: number, out: CheckedReceipt): void {
  const ref = readReference(el.attrs.message ?? '');
  if (position !== 0) throw wrongSequence();
  if (!ref || !/^\d{2}(0[1-9]|1[0-2])\d{4}$/.test(ref.date)) throw wrongValue();
  const unreferenced = ref.serial === 'ND';
  if (unreferenced && (ref.kind === 'VOID' || ref.z !== 0 || ref.doc !== 0)) throw wrongValue();
  if (!unreferenced && (ref.z === 0 || ref.doc === 0)) throw wrongValue();
  out.reference = ref;
  out.kind = ref.kind === 'VOID' ? 'void' : 'refund';
}

export function checkReceipt(elements: SimElement[]): CheckedReceipt {
  let phase: 'start' | 'lines' | 'payments' | 'end' = 'start';
  const out: CheckedReceipt = { kind: 'sale', header: [], lines: [], payments: [], totalCents: 0 };
  const perDepartment = new Map<number, number>();
  for (const [position, el] of elements.entries()) {
    const a = el.attrs;
    if (phase === 'end') throw new SimRefusal('Non valid XML command');
    if (el.name === 'printRecMessage') {
      const type = a.messageType ?? '1';
      if (type === '4' && position === 0) reference(el, position, out);
      else if (type === '1' && phase === 'start') out.header.push(description(a.message));
      else if (phase === 'start') throw wrongSequence();
      continue;
    }
    if (IGNORED.has(el.name)) continue;
    if (el.name === 'directIO') {
      customerCode(el, out);
      continue;
    }
    if (out.kind === 'void' && VOID_LINES.has(el.name)) {
      if (phase === 'start') throw wrongSequence();
      continue;
    }
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
        const unit = money(a.unitPrice);
        const amount = Math.floor((milli * unit + 500) / 1000);
        const department = int(a.department, 1, 99);
        perDepartment.set(department, (perDepartment.get(department) ?? 0) + amount);
        out.lines.push({
          type: el.name === 'printRecItem' ? 'item' : 'refund',
          description: description(a.description),
          quantity: milli / 1000,
          unitPriceCents: unit,
          amountCents: amount,
          department,
        });
        continue;
      }
      case 'printRecItemAdjustment': {
        if (phase !== 'lines' || out.kind !== 'sale' || out.lines.length === 0) throw wrongSequence();
        const adjustment = int(a.adjustmentType, 0, 12);
        const amount = money(a.amount);
        const department = int(a.department, 1, 99);
        const reduces = adjustment <= 4 || DEDUCTIONS.has(adjustment);
        const carried = perDepartment.get(department) ?? 0;
        if (reduces && amount > carried) throw wrongValue();
        perDepartment.set(department, carried + (reduces ? -amount : amount));
        out.lines.push({
          type: 'adjustment',
          description: description(a.description),
          quantity: 1,
          unitPriceCents: amount,
          amountCents: reduces ? -amount : amount,
          department,
          adjustmentType: adjustment,
        });
        continue;
      }
      case 'printRecLotteryID':
        if (phase === 'start' || out.kind !== 'sale') throw wrongSequence();
        if (!checkLotteryCode((a.code ?? '').trim())) throw badChecksum();
        out.lottery = (a.code ?? '').trim();
        continue;
      case 'printRecTotal':
        if (out.kind === 'void') {
          phase = 'payments';
          continue;
        }
        if (phase !== 'lines' && phase !== 'payments') throw wrongSequence();
        phase = 'payments';
        out.payments.push({
          description: description(a.description),
          paymentType: int(a.paymentType, 0, 6),
          index: int(a.index, 0, 10, 0),
          amountCents: money(a.payment),
        });
        continue;
      case 'endFiscalReceipt':
        if (phase === 'start' && out.kind !== 'void') throw wrongSequence();
        phase = 'end';
        continue;
      default:
        throw new SimRefusal('Non valid XML command');
    }
  }
  if (out.kind === 'void') {
    // The reference alone is a whole void (lyancoder); otherwise the document must be closed.
    if (phase !== 'end' && elements.length > 1) throw new SimRefusal('INCOMPLETE FILE');
    return out;
  }
  if (phase !== 'end') throw new SimRefusal('INCOMPLETE FILE');
  out.totalCents = out.lines.reduce((sum, l) => sum + l.amountCents, 0);
  if (out.totalCents > SIM_MAX_CENTS) throw new SimRefusal('PRINTER ERROR', '20');
  const deducted = out.lines.some((l) => l.adjustmentType !== undefined && DEDUCTIONS.has(l.adjustmentType));
  if (out.lines.length === 0 || out.totalCents < 0 || (out.totalCents === 0 && !deducted))
    throw wrongSequence();
  const paid = out.payments.reduce((sum, p) => sum + p.amountCents, 0);
  if (paid < out.totalCents) throw wrongSequence();
  const cash = out.payments.filter((p) => p.paymentType === 0).reduce((sum, p) => sum + p.amountCents, 0);
  if (paid - out.totalCents > cash) throw new SimRefusal('PRINTER ERROR', '20');
  return out;
}
