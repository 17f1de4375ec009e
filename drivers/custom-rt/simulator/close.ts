import { checkSaleEnd, grossByVat, totalOf } from './receipt.js';
import type { Exchange, PrinterState } from './state.js';
import { type CustomPrintedDocument, CustomRefusal, ST } from './types.js';

/**
 * The end node (XML pp.49–50): closes what is open under the next document number. A sale must
 * pass `checkSaleEnd` (payments, total); a refund or a void needs at least one sale line (p.16
 * rule 2), a refund no payment (FT's field-tested body has none; one is accepted too); a void
 * takes back the whole original whatever lines repeat it; after `printRecVoid` (p.100) the receipt closes cancelled.
 * A refused end leaves the document open (p.31).
 */
export function closeReceipt(p: PrinterState, ex: Exchange, idCmd: string | undefined): void {
  const r = p.open;
  // fiskaltrust ends every sale with both end nodes (`Models/Requests/PrinterFiscalReceipt.cs`),
  // a body its field tests print with: a second end right after a close does nothing.
  if (!r && ex.closed) return;
  if (!r) throw new CustomRefusal(ST.notPossible);
  let kind: CustomPrintedDocument['kind'] = r.kind;
  let vat = grossByVat(r.lines);
  let total = totalOf(r);
  if (r.cancelled) kind = 'cancelled';
  else if (r.kind === 'sale') checkSaleEnd(r);
  else if ((r.kind === 'refund' || r.kind === 'void') && !r.lines.some((l) => l.type === 'item'))
    // "Each fiscal receipt … must include at least one sales line" (XML p.16, rule 2): a refund or
    // a void with none is refused, as an independent reading of the manual does (issue 42).
    throw new CustomRefusal(ST.notPossible);
  else if (r.kind === 'void' && r.target) {
    // A void takes back the whole original, whatever lines repeat it.
    vat = { ...r.target.vat };
    total = r.target.totalCents;
  }
  const doc = p.emit(ex, {
    kind,
    totalCents: total,
    vat,
    lines: r.lines,
    payments: r.payments,
    text: r.text,
    ...(r.reference ? { reference: r.reference } : {}),
    ...(r.customerId ? { customerId: r.customerId } : {}),
    ...(r.lottery ? { lottery: r.lottery } : {}),
    ...(idCmd ? { idCmd } : {}),
  });
  if (kind === 'void' && r.target) r.target.voided = true;
  if (kind === 'refund' && r.target) {
    for (const [slot, g] of Object.entries(vat))
      r.target.refunded[Number(slot)] = (r.target.refunded[Number(slot)] ?? 0) + g;
  }
  p.open = undefined;
  ex.closed = doc;
}
