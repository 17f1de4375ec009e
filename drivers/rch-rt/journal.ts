import { createHash } from 'node:crypto';
import type { DocumentReference } from '../fiscal-it/reference.js';

/**
 * The electronic journal's last document (`=C453/$0` → `<EJ>`, its literal text), read as the
 * client that ran against a real Print!F reads it (Leahcim12/optyker-web
 * `rch-connector/rch-optyker-connector.ps1` `Parse-ReceiptJournal`, `receipt-reference-functions.ps1`
 * `Get-ReceiptEvidence`): exactly one line `DOCUMENTO [COMMERCIALE] N. zzzz-nnnn`, one date line
 * `dd-MM-yyyy HH:mm[:ss]` and one `TOTALE COMPLESSIVO <amount>` (an Italian amount, `1.234,50`),
 * a printed text line standing alone on its line. rch-driver-js `src/RegexUtils.ts` adds the
 * management documents' `DOC.GESTIONALE N. zzzz-nnnn` (reports). A void's heading reads
 * `DOCUMENTO COMMERCIALE DI ANNULLAMENTO` and names its original as `Riferimento zzzz-nnnn del
 * dd-mm-yyyy` (optyker `tests/rch-annulli-offline-20260917.ps1`, a synthetic sample: a first real
 * printer must confirm it, README).
 */
export interface JournalDocument {
  /** `DOCUMENTO N.`'s numbers; undefined for a management document (a report). */
  number?: { z: number; doc: number };
  /** `yyyy-mm-ddThh:mm` in the printer's local time. */
  dateTime?: string;
  totalCents?: number;
  /** The heading says it voids a document (ANNULLAMENTO). */
  voiding: boolean;
  /** The document's lines, trimmed, for a marker or a reference. */
  lines: string[];
  /** Names the document without keeping its text (which may hold a customer's code): a checkpoint keeps this. */
  fingerprint: string;
}

const NUMBER = /^DOCUMENTO(?:\s+COMMERCIALE)?\s+N[.°]?\s*(\d{4})-(\d{4})$/;
const MANAGEMENT = /^DOC\.\s?GESTIONALE\s+N[.°]?\s*\d{4}-\d{4}$/;
const DATE = /^(\d{2})[-/](\d{2})[-/](\d{4})\s+(\d{2}):(\d{2})(?::\d{2})?$/;
const TOTAL = /^TOTALE COMPLESSIVO\s+(\d{1,3}(?:\.\d{3})*,\d{2}|\d+,\d{2})\s*(?:EUR|€)?$/;

/**
 * The journal's last document; `empty` for a journal with none (a new printer); undefined when the
 * text is not one readable document (no number, or two of anything: optyker's rule).
 */
export function readJournalDocument(text: string): JournalDocument | 'empty' | undefined {
  const lines = text
    .replace(/\r/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length === 0) return 'empty';
  const numbers = lines.map((l) => NUMBER.exec(l)).filter((m) => m !== null);
  const management = lines.some((l) => MANAGEMENT.test(l));
  const dates = lines.map((l) => DATE.exec(l)).filter((m) => m !== null);
  const totals = lines.map((l) => TOTAL.exec(l)).filter((m) => m !== null);
  if (numbers.length > 1 || dates.length > 1 || totals.length > 1) return undefined;
  if (numbers.length === 0 && !management) return undefined;
  const doc: JournalDocument = {
    voiding: /ANNULL/i.test(lines[0] ?? ''),
    lines,
    fingerprint: createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 24),
  };
  const n = numbers[0];
  if (n) doc.number = { z: Number(n[1]), doc: Number(n[2]) };
  const d = dates[0];
  if (d) doc.dateTime = `${d[3]}-${d[2]}-${d[1]}T${d[4]}:${d[5]}`;
  const t = totals[0];
  if (t) doc.totalCents = Number((t[1] as string).replace(/[.,]/g, ''));
  return doc;
}

/** Whether `line` stands alone on one of the document's lines (optyker matches `^\s*<marker>\s*$`). */
export function printsLine(doc: JournalDocument, line: string): boolean {
  return doc.lines.includes(line.trim());
}

/** Whether a voiding document names `ref` as its original (`Riferimento zzzz-nnnn del dd-mm-yyyy`). */
export function voidsReference(doc: JournalDocument, ref: DocumentReference): boolean {
  if (!doc.voiding) return false;
  const pad = (n: number) => String(n).padStart(4, '0');
  const date = `${ref.date.slice(0, 2)}-${ref.date.slice(2, 4)}-${ref.date.slice(4)}`;
  return doc.lines.some(
    (l) => l.includes(`${pad(ref.z)}-${pad(ref.doc)}`) && l.replace(/\//g, '-').includes(date),
  );
}
