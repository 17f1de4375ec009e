import { AgentError } from '../../src/errors.js';
import { fiscalNotes } from './messages.js';
import type { ReceiptLine } from './receipt-model.js';

/** An amount taken off a sale receipt's total: a deposit (10) or a single-use voucher (12). */
export interface Deduction {
  adjustmentType: number;
  description: string;
  cents: number;
}

/**
 * Turns deductions into `printRecItemAdjustment` lines. An adjustment applies to one department
 * (procassa `itemAcconto` sends the department of the deposit), so each deduction is spread over
 * the receipt's departments, the largest first, never taking a department below zero; the
 * department keeps its rate or nature. A deduction larger than what is left of the receipt is
 * refused with FISCAL_REJECTED — before anything is printed. Our reading: the platform does not
 * say which VAT rate a deposit paid for, and the accommodation normally carries most of a hotel
 * bill, so the largest department goes first.
 */
export function allocateDeductions(
  lines: readonly ReceiptLine[],
  deductions: readonly Deduction[],
): ReceiptLine[] {
  if (deductions.length === 0) return [];
  const left = new Map<number, { cents: number; rate?: number; nature?: string }>();
  for (const line of lines) {
    const entry = left.get(line.department) ?? {
      cents: 0,
      ...(line.nature !== undefined ? { nature: line.nature } : {}),
      ...(line.rate !== undefined ? { rate: line.rate } : {}),
    };
    entry.cents += line.type === 'discount' ? -line.totalCents : line.totalCents;
    left.set(line.department, entry);
  }
  const out: ReceiptLine[] = [];
  for (const deduction of deductions) {
    let due = deduction.cents;
    const order = [...left.entries()].filter(([, e]) => e.cents > 0).sort((a, b) => b[1].cents - a[1].cents);
    for (const [department, entry] of order) {
      if (due === 0) break;
      const take = Math.min(due, entry.cents);
      entry.cents -= take;
      due -= take;
      out.push({
        type: 'deduction',
        description: deduction.description,
        quantity: 1,
        unitCents: take,
        totalCents: take,
        department,
        adjustmentType: deduction.adjustmentType,
        ...(entry.nature !== undefined ? { nature: entry.nature } : {}),
        ...(entry.rate !== undefined ? { rate: entry.rate } : {}),
      });
    }
    if (due > 0) {
      const what = deduction.adjustmentType === 10 ? 'deposit' : 'voucher';
      throw new AgentError('FISCAL_REJECTED', `The ${what} exceeds the receipt by ${due} cents`, {
        notes: fiscalNotes.deductionTooLarge(what),
      });
    }
  }
  return out;
}
