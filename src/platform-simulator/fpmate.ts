import { billTotals, type SimBill } from './bills.js';
import { DEFAULT_DEPARTMENTS, type VatRate, xmlAmount } from './money.js';
import { normalizeName } from './names.js';

/**
 * Builds the documents of `ItalianFiscalMachinePayload` commands: a real Epson Fiscal ePOS-Print
 * ("fpmate") `printerFiscalReceipt`, in a SOAP 1.1 envelope or as a bare root. Amounts use a dot
 * and two decimals; the payments (`printRecTotal`) add up to the items exactly, so a printer
 * accepts the document. Descriptions are folded to printable ASCII and cut to 38 characters (the
 * width of an RT receipt line).
 * Reference: Epson "Fiscal ePOS-Print XML" (FP-81 II RT / FP-90III), commands printRecItem,
 * printRecTotal; OCA l10n-italy fiscal_epos_print.
 */

export type Envelope = 'soap' | 'bare';

export interface ReceiptLine {
  description: string;
  quantity: number;
  /** Gross unit price, cents, positive. */
  unitPriceCents: number;
  department: number;
}

export interface ReceiptPayment {
  description: string;
  /** Cents, positive. */
  amountCents: number;
  /** 0 cash, 2 credit card. */
  paymentType: 0 | 2;
  index: number;
}

export interface FiscalReceipt {
  header: string[];
  lines: ReceiptLine[];
  payments: ReceiptPayment[];
}

const SOAP_NS = 'http://schemas.xmlsoap.org/soap/envelope/';

function attr(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Printable ASCII, at most 38 characters: what an RT printer prints on one line. */
export function printable(text: string): string {
  return (normalizeName(text) ?? 'ARTICOLO').slice(0, 38);
}

/** The receipt a sale bill prints: one line per item, one total per payment. */
export function receiptForBill(
  bill: SimBill,
  hotelName: string,
  departments: Readonly<Partial<Record<VatRate, number>>> = {},
): FiscalReceipt {
  const dept = (rate: VatRate) => departments[rate] ?? DEFAULT_DEPARTMENTS[rate];
  const lines = bill.items.map((item) => ({
    description: printable(item.description),
    quantity: item.unitCount,
    unitPriceCents: Math.abs(item.unitGrossCents),
    department: dept(item.rate),
  }));
  const payments = bill.payments.map((p): ReceiptPayment => {
    const card = p.type === 'CreditCardPayment';
    return {
      description: card ? 'CARTA DI CREDITO' : 'CONTANTI',
      amountCents: Math.abs(p.grossCents),
      paymentType: card ? 2 : 0,
      index: card ? 1 : 0,
    };
  });
  const { grossCents, paidCents } = billTotals(bill);
  if (Math.abs(grossCents) !== Math.abs(paidCents)) {
    throw new RangeError(`bill ${bill.id} is not balanced: items ${grossCents}, payments ${paidCents}`);
  }
  return { header: [printable(hotelName)], lines, payments };
}

/** The XML document (UTF-8 text) of a receipt. */
export function fpmateReceiptXml(receipt: FiscalReceipt, envelope: Envelope): string {
  const body = [
    '<printerFiscalReceipt>',
    ...receipt.header.map(
      (h, i) =>
        `  <printRecMessage operator="1" messageType="1" index="${i + 1}" font="1" message="${attr(h)}" />`,
    ),
    '  <beginFiscalReceipt operator="1" />',
    ...receipt.lines.map(
      (l) =>
        `  <printRecItem operator="1" description="${attr(l.description)}" quantity="${l.quantity}" unitPrice="${xmlAmount(l.unitPriceCents)}" department="${l.department}" justification="1" />`,
    ),
    '  <printRecSubtotal operator="1" option="1" />',
    ...receipt.payments.map(
      (p) =>
        `  <printRecTotal operator="1" description="${attr(p.description)}" payment="${xmlAmount(p.amountCents)}" paymentType="${p.paymentType}" index="${p.index}" justification="1" />`,
    ),
    '  <endFiscalReceipt operator="1" />',
    '</printerFiscalReceipt>',
  ];
  const declaration = '<?xml version="1.0" encoding="utf-8"?>';
  if (envelope === 'bare') return [declaration, ...body].join('\n');
  return [
    declaration,
    `<s:Envelope xmlns:s="${SOAP_NS}">`,
    '<s:Body>',
    ...body,
    '</s:Body>',
    '</s:Envelope>',
  ].join('\n');
}

export function toBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
