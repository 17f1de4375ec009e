import type { FiscalDocumentModel } from '../fiscal-it/model.js';
import type { DocumentReference } from '../fiscal-it/reference.js';
import { formatAmount } from './money.js';
import { type EpsonPayments, epsonCodeOf } from './payment-codes.js';
import { pad4 } from './protocol.js';
import { element, formatQuantity, printerText } from './xml-build.js';

/**
 * The fiscal core's document (`drivers/fiscal-it/model.ts`) as an fpmate `printerFiscalReceipt`:
 * this file maps the core's kinds to Epson's codes and decides no law. Amounts with a decimal
 * comma (money.ts), text escaped and cut to the printer's line; the order public drivers send
 * (fiskaltrust `scu-it` `Models/FiscalReceipt.cs`): the reference line of a refund or void
 * (`messageType="4"`, first), header lines, `beginFiscalReceipt`, the lines, the discounts
 * (`printRecItemAdjustment` type 3 on their department), the deductions (type 10 a deposit,
 * procassa `itemAcconto`; type 12 a single-use voucher, fiskaltrust `GenerateItems`), the lottery
 * code (`printRecLotteryID`, before the payments: fiskaltrust Order 10), the payments
 * (payment-codes.ts), the customer's tax code (`directIO` 1060 partita IVA / 1061 codice fiscale,
 * `data` "01" + the code, after the payments: fiskaltrust `AddCustomerTaxIdDirectIO`),
 * `endFiscalReceipt`.
 *
 * A void is the reference line, a bare `printRecTotal` and `endFiscalReceipt`: the printer voids
 * the original as it stands (721377/procassa `lib/epsonxml.js` `annulloDirettoScontrino`, "as
 * documented by an Epson technician").
 */

export interface EpsonRendering {
  operator: string;
  /** Header lines above the receipt (`headerLines`). */
  header: readonly string[];
  lineLength: number;
  /** Payment codes configured as such (payment-codes.ts). */
  codes: EpsonPayments['codes'];
}

/** Adjustment types of the core's deductions (lyancoder/fiscal-printer: DEPOSIT 10, SINGLE_USE_VOUCHER 12). */
const DEDUCTION_ADJUSTMENT = { deposit: 10, 'single-use-voucher': 12 } as const;
const DISCOUNT_ON_DEPARTMENT = 3;
const CUSTOMER_COMMAND = { 'partita-iva': '1060', 'codice-fiscale': '1061' } as const;

/** `REFUND zzzz nnnn ddMMyyyy SERIAL` (or `VOID …`): the `printRecMessage messageType="4"` text. */
export function referenceMessage(ref: DocumentReference): string {
  return `${ref.kind} ${pad4(ref.z)} ${pad4(ref.doc)} ${ref.date} ${ref.serial}`;
}

export function receiptXml(model: FiscalDocumentModel, r: EpsonRendering): string {
  const operator = r.operator;
  const text = (t: string, fallback: string) => printerText(t, r.lineLength) || fallback;
  const parts: string[] = ['<printerFiscalReceipt>'];
  if (model.reference) {
    parts.push(
      element('printRecMessage', { operator, messageType: 4, message: referenceMessage(model.reference) }),
    );
  }
  if (model.kind === 'void') {
    parts.push(element('printRecTotal', { operator }), element('endFiscalReceipt', { operator }));
    parts.push('</printerFiscalReceipt>');
    return parts.join('');
  }
  r.header.forEach((line, i) => {
    parts.push(
      element('printRecMessage', {
        operator,
        messageType: 1,
        index: i + 1,
        font: 1,
        message: printerText(line, r.lineLength),
      }),
    );
  });
  parts.push(element('beginFiscalReceipt', { operator }));
  for (const line of model.lines) {
    parts.push(
      element(model.kind === 'refund' ? 'printRecRefund' : 'printRecItem', {
        operator,
        description: text(line.description, 'ARTICOLO'),
        department: line.department,
        quantity: formatQuantity(line.quantity),
        unitPrice: formatAmount(line.unitCents),
        justification: 1,
      }),
    );
  }
  for (const discount of model.discounts) {
    parts.push(
      element('printRecItemAdjustment', {
        operator,
        description: text(discount.description, 'SCONTO'),
        department: discount.department,
        adjustmentType: DISCOUNT_ON_DEPARTMENT,
        amount: formatAmount(discount.cents),
        justification: 2,
      }),
    );
  }
  for (const deduction of model.deductions) {
    parts.push(
      element('printRecItemAdjustment', {
        operator,
        description: text(deduction.description, 'ACCONTO'),
        department: deduction.department,
        adjustmentType: DEDUCTION_ADJUSTMENT[deduction.kind],
        amount: formatAmount(deduction.cents),
        justification: 1,
      }),
    );
  }
  if (model.lottery) parts.push(element('printRecLotteryID', { operator, code: model.lottery }));
  const payments =
    model.payments.length > 0
      ? model.payments
      : [{ kind: 'cash' as const, key: '', description: 'CONTANTI', cents: 0 }];
  for (const p of payments) {
    const code = epsonCodeOf(p, r.codes);
    parts.push(
      element('printRecTotal', {
        operator,
        description: text(p.description, 'PAGAMENTO'),
        payment: formatAmount(p.cents),
        paymentType: code.paymentType,
        index: code.index,
        justification: 2,
      }),
    );
  }
  if (model.customer) {
    parts.push(
      element('directIO', { command: CUSTOMER_COMMAND[model.customer.kind], data: `01${model.customer.id}` }),
    );
  }
  parts.push(element('endFiscalReceipt', { operator }), '</printerFiscalReceipt>');
  return parts.join('');
}
