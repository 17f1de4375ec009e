import { description } from './attrs.js';
import { copyTotals, documentsIn, emptyTotals } from './reports.js';
import type { Exchange, PrinterState } from './state.js';
import { type CustomPrintedDocument, CustomRefusal, ST } from './types.js';

/**
 * The documents besides receipts: reports (XML p.18: `printXReport` p.103, `printXZReport`
 * p.104, `printZReport` p.105), non-fiscal receipts (p.17: `beginNotFiscal`, `printNormal`,
 * `endNotFiscal`) and the copy of the last receipt (`printDuplicateReceipt`, p.83).
 *
 * A Z closes the day: its answer comes at once with the closure's number in `nClose`, the next
 * documents are numbered from 1 in the next Z, and a Z with no fiscal document since the last is
 * refused with 71 ("second Z not allowed", XML-SG PDF p.137). Reports need no open document (5).
 */

type Extra = Partial<CustomPrintedDocument>;

function printReport(
  p: PrinterState,
  ex: Exchange,
  d: Pick<CustomPrintedDocument, 'kind' | 'z' | 'doc'> & Extra,
) {
  const at = p.o.clock.now();
  p.printed.push({
    at,
    dateTime: p.isoDateTime(at),
    serial: p.o.serial,
    totalCents: p.day.receipts.tot,
    lines: [],
    payments: [],
    vat: { ...p.day.vatSales },
    text: [],
    refunded: {},
    voided: false,
    totals: copyTotals(p.day),
    ...d,
  } as CustomPrintedDocument);
  ex.printed = true;
}

function xReport(p: PrinterState, ex: Exchange): void {
  printReport(p, ex, { kind: 'x-report', z: p.counters.z, doc: 0 });
}

function zReport(p: PrinterState, ex: Exchange, text: string): void {
  if (documentsIn(p.day) === 0) throw new CustomRefusal(ST.secondZ);
  const z = p.counters.z;
  printReport(p, ex, { kind: 'z-report', z, doc: 0, text: text ? [text] : [] });
  ex.nClose = z;
  p.counters.z += 1;
  p.counters.doc = 0;
  p.day = emptyTotals();
  p.dayOpenedAt = undefined;
  p.lastZAt = p.o.clock.now();
}

export function reportNode(p: PrinterState, ex: Exchange, name: string, a: Record<string, string>): void {
  if (p.open || p.notFiscal) throw new CustomRefusal(ST.notPossible);
  switch (name) {
    case 'printXReport':
      xReport(p, ex);
      return;
    case 'printZReport':
      zReport(p, ex, description(a.description, 42));
      return;
    case 'printXZReport':
      xReport(p, ex);
      zReport(p, ex, description(a.description, 42));
      return;
    default:
      throw new CustomRefusal(ST.invalid);
  }
}

export function notFiscalNode(p: PrinterState, ex: Exchange, name: string, a: Record<string, string>): void {
  switch (name) {
    case 'beginNotFiscal':
      if (p.open || p.notFiscal) throw new CustomRefusal(ST.notPossible);
      p.notFiscal = { text: [] };
      return;
    case 'printNormal':
    case 'printNotFiscalHeader':
    case 'printBarCode':
    case 'printGraphicCoupon': {
      if (!p.notFiscal) throw new CustomRefusal(ST.notPossible);
      if (name === 'printNormal') p.notFiscal.text.push(description(a.data, 42));
      return;
    }
    case 'endNotFiscal': {
      if (!p.notFiscal) throw new CustomRefusal(ST.notPossible);
      p.nonFiscalNumber += 1;
      const at = p.o.clock.now();
      p.printed.push({
        kind: 'non-fiscal',
        z: p.counters.z,
        doc: p.nonFiscalNumber,
        at,
        dateTime: p.isoDateTime(at),
        serial: p.o.serial,
        totalCents: 0,
        lines: [],
        payments: [],
        vat: {},
        text: p.notFiscal.text,
        refunded: {},
        voided: false,
      });
      p.notFiscal = undefined;
      ex.notFiscalDoc = p.nonFiscalNumber;
      ex.printed = true;
      return;
    }
    default:
      throw new CustomRefusal(ST.invalid);
  }
}

/** A non-fiscal copy of the last fiscal receipt (XML p.83); none yet, or one open: 5. */
export function duplicate(p: PrinterState, ex: Exchange): void {
  const last = p.lastDocument(true);
  if (!last || p.open || p.notFiscal) throw new CustomRefusal(ST.notPossible);
  const at = p.o.clock.now();
  p.printed.push({
    ...structuredClone(last),
    kind: 'copy',
    at,
    dateTime: p.isoDateTime(at),
    copyOf: { z: last.z, doc: last.doc },
  });
  ex.printed = true;
}
