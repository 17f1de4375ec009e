import { formatAmount } from './money.js';
import type { ReceiptModel } from './receipt-model.js';
import { referenceMessage } from './reference.js';
import { element, formatQuantity } from './xml-build.js';

/**
 * The `printerFiscalReceipt` element of a receipt (amounts with a dot, text escaped), in the
 * order public drivers send (fiskaltrust `scu-it` `Models/FiscalReceipt.cs`): the reference line
 * of a refund or void (`messageType="4"`, first), header lines, `beginFiscalReceipt`, the lines
 * and adjustments, the lottery code, the payments, the customer's tax code (`directIO`
 * 1060/1061), `endFiscalReceipt`.
 *
 * A void is the reference line, a bare `printRecTotal` and `endFiscalReceipt`: the printer voids
 * the original as it stands (721377/procassa `lib/epsonxml.js` `annulloDirettoScontrino`, "as
 * documented by an Epson technician").
 */
export function receiptXml(model: ReceiptModel, operator: string): string {
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
  model.header.forEach((message, i) => {
    parts.push(element('printRecMessage', { operator, messageType: 1, index: i + 1, font: 1, message }));
  });
  parts.push(element('beginFiscalReceipt', { operator }));
  for (const line of model.lines) {
    const common = { operator, description: line.description, department: line.department };
    if (line.type === 'discount' || line.type === 'deduction') {
      parts.push(
        element('printRecItemAdjustment', {
          ...common,
          adjustmentType: line.adjustmentType ?? 3,
          amount: formatAmount(line.unitCents),
          justification: line.type === 'deduction' ? 1 : 2,
        }),
      );
    } else {
      const name = line.type === 'refund' ? 'printRecRefund' : 'printRecItem';
      parts.push(
        element(name, {
          ...common,
          quantity: formatQuantity(line.quantity),
          unitPrice: formatAmount(line.unitCents),
          justification: 1,
        }),
      );
    }
  }
  if (model.lottery) parts.push(element('printRecLotteryID', { operator, code: model.lottery }));
  const payments =
    model.payments.length > 0
      ? model.payments
      : [{ description: 'CONTANTI', cents: 0, paymentType: 0, index: 0 }];
  for (const p of payments) {
    parts.push(
      element('printRecTotal', {
        operator,
        description: p.description,
        payment: formatAmount(p.cents),
        paymentType: p.paymentType,
        index: p.index,
        justification: 2,
      }),
    );
  }
  if (model.customer) {
    parts.push(element('directIO', { command: model.customer.command, data: `01${model.customer.id}` }));
  }
  parts.push(element('endFiscalReceipt', { operator }), '</printerFiscalReceipt>');
  return parts.join('');
}
