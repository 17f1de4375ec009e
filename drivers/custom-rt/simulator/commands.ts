import { lastIdCmdNode } from './answer.js';
import { digits } from './attrs.js';
import { grossByVat } from './receipt.js';
import { refundable } from './reference.js';
import { dailyTotalsXml } from './reports.js';
import type { Exchange, PrinterState } from './state.js';
import { CustomRefusal, ST, type VatGross } from './types.js';
import { decimal, infoXml, responseXml, textNode, vatBlock } from './xml.js';

/**
 * `printerCommand` (XML pp.19–20), one node per request. Modelled: `queryPrinterStatus` (p.107,
 * its own node list with `cpuRel` and `mfStatus`), `getInfo` (p.69, root `infoResp`),
 * `getBusyStatus` (p.57, 16 flags), `getDailyTotals` (p.60), `getDateTime` (p.62, DDMMYYhhmmss),
 * `getVatRate` (p.71), `getVatTotalsOnDemand` (pp.72–74), `resetPrinter` (p.111), `setVatRate`
 * (p.116), `directIO`. Any other node is refused with 3.
 */
export function commandNode(p: PrinterState, ex: Exchange, name: string, a: Record<string, string>): void {
  switch (name) {
    case 'queryPrinterStatus':
      ex.answer = queryPrinterStatus(p);
      return;
    case 'getInfo':
      ex.answer = info(p);
      return;
    case 'getBusyStatus':
      ex.responseBuf = busyFlags(p);
      return;
    case 'getDailyTotals':
      ex.after.push(['dailyTotals', dailyTotalsXml(p.day, p.o.vatRates)]);
      return;
    case 'getDateTime': {
      const t = p.local();
      const two = (n: number) => String(n).padStart(2, '0');
      ex.responseBuf = `${two(t.day)}${two(t.month)}${two(t.year % 100)}${two(t.hour)}${two(t.minute)}${two(t.second)}`;
      return;
    }
    case 'getVatRate':
      ex.responseBuf = vatRateBuf(p, digits(a.numVat, 1, VAT_SLOTS));
      return;
    case 'setVatRate': {
      // p.116: numVat and vatRate (4 bytes, two integers and two decimals); p.253's 11 slots.
      const slot = digits(a.numVat, 1, VAT_SLOTS);
      p.o.vatRates.set(slot, digits(a.vatRate, 0, 9999));
      return;
    }
    case 'getVatTotalsOnDemand':
      ex.before.push(['getVatTotalsOnDemand', vatTotalsOnDemand(p, a)]);
      return;
    case 'resetPrinter':
      reset(p, ex);
      return;
    default:
      throw new CustomRefusal(ST.invalid);
  }
}

/** The VAT table's slots: 01 to 11 (directIO manual rev 6.00 p.253, 7112 `VATIDX`). */
const VAT_SLOTS = 11;

/**
 * `getVatRate`'s `responseBuf` (XML p.71, the layout of native 7112, directIO manual p.253):
 * VATIDX (2), VALUE (4: two integers, two decimals), EXCODE (1, the exempt code 1–6; 0 for a
 * rated slot), PROGFLAG (1: 1 programmable) and DESC (25). An unprogrammed slot reads 0000.
 */
function vatRateBuf(p: PrinterState, slot: number): string {
  const rate = p.o.vatRates.get(slot);
  const exempt = p.o.exemptCodes.get(slot) ?? 0;
  const desc = rate === undefined ? '' : rate === 0 && exempt ? `ESENTE ${exempt}` : `IVA ${decimal(rate)}%`;
  return `${String(slot).padStart(2, '0')}${String(rate ?? 0).padStart(4, '0')}${exempt}1${desc.padEnd(25)}`;
}

/** p.107: the exceptional answer. `lastIdCmd` is added too: p.25 says every later answer has it. */
function queryPrinterStatus(p: PrinterState): string {
  return responseXml(true, 0, [
    ...lastIdCmdNode(p),
    textNode('lastCommand', 'queryPrinterStatus'),
    textNode('dateTime', p.isoDateTime()),
    textNode('printerStatus', p.printerStatus()),
    textNode('fpStatus', p.fpStatus()),
    textNode('receiptStep', p.receiptStep()),
    textNode('cpuRel', 'Q3X SIMULATOR Rel. 1.00'),
    textNode('mfStatus', 'MF OK'),
  ]);
}

function info(p: PrinterState): string {
  return infoXml([
    ['serialNumber', p.o.serial],
    ['fiscalized', 'SI'],
    ['fpuState', 'IN SERVIZIO'],
    ['fmPresent', 'SI'],
    ['mfExhausted', 'NO'],
    ['zSetNumber', String(p.counters.z - 1)],
    ['ejPresent', 'SI'],
    ['ejFull', 'NO'],
    ['simulation', 'NO'],
    ['demoMode', 'NO'],
    ['certificate', 'SI'],
    ['certValidFrom', '01/01/2025'],
    ['certValidTo', '31/12/2030'],
    ['certExpired', 'NO'],
    ['timeSync', 'SI'],
  ]);
}

/** The 16 busy flags (p.57): 1 XML export (217), 2 lottery export (218), 3 lottery search (221),
 * 4 refund/void update (75), 5 PDF (76); a telematic operation (213) has no flag here. */
function busyFlags(p: PrinterState): string {
  const flags = Array.from({ length: 16 }, () => '0');
  const busy = p.faults.busy;
  const status = busy === true ? 213 : busy ? busy.status : 0;
  const flag = ({ 217: 0, 218: 1, 221: 2, 75: 3, 76: 4 } as Record<number, number>)[status];
  if (flag !== undefined) flags[flag] = '1';
  return flags.join('');
}

/**
 * pp.72–74: `vatgroup` 0 the day, 1 the period (here: since the simulator started), 2 what the
 * last `checkOnly` refund check found still refundable, 3 the receipt in progress; `doctype` 0
 * sales, 1 invoices (none here), 2 refunds, 3 voids. Amounts are decimal strings, as p.73 shows;
 * `lastDocument` is the last fiscal document with seconds and `flagDocCanc`.
 */
function vatTotalsOnDemand(p: PrinterState, a: Record<string, string>): string {
  const group = digits(a.vatgroup, 0, 3);
  const type = digits(a.doctype, 0, 3);
  let vat: VatGross = {};
  if (group === 0 || group === 1) {
    const t = group === 0 ? p.day : p.period;
    vat = type === 0 ? t.vatSales : type === 2 ? t.vatRefunds : type === 3 ? t.vatVoids : {};
  } else if (group === 2) {
    const target = p.lastCheck?.target;
    vat = target && p.lastCheck?.result === 1 ? refundable(target) : {};
  } else if (p.open) vat = grossByVat(p.open.lines);
  const last = p.lastDocument(true);
  const lastDocument = last
    ? `<lastDocument><number>${last.doc}</number><dateTime>${last.dateTime}</dateTime>` +
      `<total>${decimal(last.totalCents)}</total><flagDocCanc>${last.kind === 'cancelled' ? 1 : 0}</flagDocCanc></lastDocument>`
    : '';
  const blocks = Array.from({ length: 12 }, (_, i) =>
    vatBlock(i + 1, p.o.vatRates.get(i + 1) ?? 0, vat[i + 1] ?? 0, 'decimal'),
  );
  return (
    `<getVatTotalsOnDemand vatgroup="${group}" doctype="${type}">${lastDocument}` +
    `<vatTotals>${blocks.join('')}</vatTotals></getVatTotalsOnDemand>`
  );
}

/**
 * p.111: cancels whatever is open. A sale with lines becomes a cancelled receipt under the next
 * number (1017 STATUS 1, DIO p.40; `canceledReceips` in getDailyTotals, XML p.60) — our reading
 * of what a cancelled receipt costs; a refund or void in progress, or an empty sale, is dropped.
 */
function reset(p: PrinterState, ex: Exchange): void {
  const r = p.open;
  if (r?.foreign) p.foreignResets += 1;
  if (r && r.kind === 'sale' && r.lines.length > 0) {
    p.emit(ex, {
      kind: 'cancelled',
      totalCents: r.lines.reduce((s, l) => s + l.amountCents, 0),
      vat: grossByVat(r.lines),
      lines: r.lines,
      payments: r.payments,
      text: r.text,
    });
  }
  p.open = undefined;
  p.notFiscal = undefined;
}
