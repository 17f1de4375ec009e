import { file, type PrinterState, type Programming } from './state.js';
import type { RchDayTotals, RchDocument, RchLine } from './types.js';

/**
 * The electronic journal's text of each document, 48 columns wide (iconic gutenbergPrinter-rch
 * `FiscalPrinterDriver.java` `getReceiptFromEj` splits the journal stream into 48-character
 * lines). What the public sources fix, the layout keeps: a line `DOCUMENTO COMMERCIALE` heading a
 * sale, `TOTALE COMPLESSIVO <amount>` with an Italian amount ("12,50"), the date alone on a line as
 * `dd-MM-yyyy HH:mm`, `DOCUMENTO N. zzzz-nnnn` alone on a line, and the serial as a word (optyker-web
 * `rch-connector/rch-optyker-connector.ps1` `Parse-ReceiptJournal`; rch-driver-js
 * `src/RegexUtils.ts` `fiscalDocumentPattern`, which also shows `di cui IVA`, `Importo pagato` and,
 * for a closure, `CHIUSURA GIORNALIERA N.` and `DOC.GESTIONALE N.`); a text line printed on the
 * receipt (`="/?A/(…)`) stands alone on its line, so a marker can be found again (optyker
 * `Parse-ReceiptJournal` matches `^\s*<marker>\s*$`).
 *
 * **Inferred**: everything else about the layout (column positions, labels of payments, codes and
 * references). The void and refund headings follow optyker's only sample
 * (`tests/rch-annulli-offline-20260917.ps1`: "DOCUMENTO COMMERCIALE DI ANNULLAMENTO",
 * "Riferimento 0001-0001 del 17-09-2026"), which is synthetic.
 */

const WIDTH = 48;

/** "1.234,50" from 123450; negative amounts keep their sign. */
export function euro(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}${whole},${String(abs % 100).padStart(2, '0')}`;
}

const pad4 = (n: number) => String(n).padStart(4, '0');

function row(left: string, right: string): string {
  const room = WIDTH - right.length - 1;
  return `${left.slice(0, room).padEnd(room)} ${right}`;
}

function centre(text: string): string {
  return text.padStart(Math.floor((WIDTH + text.length) / 2));
}

const RULE = '-'.repeat(WIDTH);

function vatLabel(p: Programming, slot: number | undefined): string {
  const v = slot === undefined ? undefined : p.vat[slot];
  if (!v) return '';
  return 'rateBp' in v ? `${(v.rateBp / 100).toFixed(2).replace('.', ',')}%` : v.nature;
}

/** The VAT a gross amount holds at a slot's rate, in cents. */
export function taxOf(p: Programming, slot: number, gross: number): number {
  const v = p.vat[slot];
  if (!v || !('rateBp' in v)) return 0;
  return Math.round(gross - (gross * 10000) / (10000 + v.rateBp));
}

function lineRows(p: Programming, line: RchLine): string[] {
  const slot = line.department === undefined ? undefined : p.departments[line.department]?.vat;
  switch (line.kind) {
    case 'text':
      return [line.description];
    case 'barcode':
      return [`[${line.description}]`];
    case 'sale':
    case 'free':
    case 'advance':
    case 'voucher': {
      const price = (line.unitPriceCents ?? 0) * (line.quantity ?? 1);
      const label = line.kind === 'free' ? `${line.description} OMAGGIO` : line.description;
      const rows = [row(label, `${vatLabel(p, slot).padStart(6)} ${euro(price).padStart(10)}`)];
      if ((line.quantity ?? 1) !== 1) rows.push(`  n.${line.quantity} * ${euro(line.unitPriceCents ?? 0)}`);
      return rows;
    }
    default:
      return [row(line.description, euro(line.amountCents))];
  }
}

function trailer(p: Programming, doc: RchDocument, label: string): string[] {
  return [doc.dateTime, `${label} N. ${pad4(doc.z)}-${pad4(doc.number)}`, `RT ${p.serial}`];
}

function commercial(p: Programming, doc: RchDocument): string[] {
  const title =
    doc.kind === 'void'
      ? 'DOCUMENTO COMMERCIALE DI ANNULLAMENTO'
      : doc.kind === 'refund'
        ? 'DOCUMENTO COMMERCIALE DI RESO'
        : 'DOCUMENTO COMMERCIALE';
  const out = [centre(title)];
  if (doc.reference) {
    const r = doc.reference;
    const date = `${r.date.slice(0, 2)}-${r.date.slice(2, 4)}-20${r.date.slice(4, 6)}`;
    out.push(`Riferimento ${pad4(r.z)}-${pad4(r.number)} del ${date}`);
  }
  out.push(row('DESCRIZIONE', `${'IVA'.padStart(6)} ${'Prezzo(EUR)'.padStart(10)}`));
  for (const line of doc.lines) out.push(...lineRows(p, line));
  out.push(RULE, row('TOTALE COMPLESSIVO', euro(doc.totalCents)));
  const tax = Object.entries(doc.vat).reduce((a, [slot, gross]) => a + taxOf(p, Number(slot), gross), 0);
  out.push(row('di cui IVA', euro(tax)));
  if (doc.payments.length > 0) {
    out.push(RULE);
    for (const pay of doc.payments) out.push(row(pay.description, euro(pay.amountCents)));
    const paid = doc.payments.reduce((a, x) => a + x.amountCents, 0);
    out.push(RULE, row('Importo pagato', euro(paid)));
    if (doc.changeCents > 0) out.push(row('Resto', euro(doc.changeCents)));
  }
  if (doc.customerId) out.push(`C.F./P.IVA ACQUIRENTE ${doc.customerId}`);
  if (doc.lottery) out.push(`CODICE LOTTERIA ${doc.lottery}`);
  return [...out, ...trailer(p, doc, 'DOCUMENTO')];
}

function totalsRows(p: Programming, totals: RchDayTotals, grandTotal: number): string[] {
  const out = [row('VENDITE', euro(totals.sales.cents)), row('GRAN TOTALE', euro(grandTotal))];
  for (const [slot, gross] of Object.entries(totals.vatSales)) {
    out.push(row(`IVA ${slot} ${vatLabel(p, Number(slot))}`, euro(gross)));
  }
  out.push(row('RESI', euro(totals.refunds.cents)), row('TOT.DOC.ANNULLATI', euro(totals.voids.cents)));
  for (const [form, cents] of Object.entries(totals.payments)) {
    out.push(row(`PAGATO ${p.payments[Number(form)]?.description ?? form}`, euro(cents)));
  }
  return out;
}

/** The journal lines of a filed document. */
export function renderDocument(p: Programming, doc: RchDocument, grandTotal: number): string[] {
  switch (doc.kind) {
    case 'sale':
    case 'refund':
    case 'void':
      return commercial(p, doc);
    case 'non-fiscal':
      return [...doc.lines.map((l) => l.description), ...trailer(p, doc, 'DOC.GESTIONALE')];
    case 'x-report':
    case 'z-report': {
      const t = doc.totals;
      const count = t ? t.sales.count + t.refunds.count + t.voids.count : 0;
      const head = doc.kind === 'z-report' ? `CHIUSURA GIORNALIERA N. ${pad4(doc.z)}` : 'LETTURA GIORNALIERA';
      return [
        centre('DOCUMENTO GESTIONALE'),
        ...(t ? totalsRows(p, t, grandTotal) : []),
        RULE,
        head,
        row('DOCUMENTI COMMERCIALI', pad4(count)),
        RULE,
        ...trailer(p, doc, 'DOC.GESTIONALE'),
      ];
    }
    case 'cancelled':
      return [];
  }
}

/** Files a finished document (numbering, `state.ts` `file`) with its journal text. */
export function fileDocument(p: Programming, s: PrinterState, doc: Parameters<typeof file>[2]): RchDocument {
  return file(p, s, doc, (filed) => renderDocument(p, filed, s.grandTotalCents));
}
