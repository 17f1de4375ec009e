/**
 * The printer's last document, from the native command 1017 carried in `directIO` (directIO
 * manual rev 6.00 p.40; 3rd and 5th generation devices only). The native answer is the command's
 * 4-byte echo followed by the data (p.20): day, month, year (2 digits each), hour, minute (2
 * each), the receipt number (4), its total in cents (9), its type (1: 0 non-fiscal, 1 fiscal,
 * 2 invoice, 3 credit note) and its state (1: 0 closed, 1 cancelled) — 29 characters.
 *
 * fiskaltrust (`CustomRTPrinterSCU.GetLastFiscalDocAsync`) reads the same fields from offset 0, as
 * if the echo were not there (25 characters), and takes a "Z number" from what the manual says is
 * the start of the total. This driver follows the manual, and reads the echo-less layout too when
 * the buffer has it: the two cannot be confused, since an echo-less buffer would start with a
 * day and a month, and `1017` would be month 17. **No Z number is ever taken from 1017**: it has
 * none. The Z comes from the answer's `nClose` or from `getInfo`'s `zSetNumber` (XML p.69).
 */
export interface LastDocument {
  /** `yyyy-mm-ddThh:mm` in the printer's local time. */
  dateTime: string;
  doc: number;
  totalCents: number;
  type: 'non-fiscal' | 'fiscal' | 'invoice' | 'credit-note';
  cancelled: boolean;
  /** Which layout the buffer had, for the log: the first real printer settles the question. */
  layout: 'echo' | 'no-echo';
}

export const LAST_DOCUMENT_COMMAND = '1017';

const TYPES = ['non-fiscal', 'fiscal', 'invoice', 'credit-note'] as const;

export function parseLastDocument(buffer: string | undefined): LastDocument | undefined {
  const raw = (buffer ?? '').trim();
  let layout: LastDocument['layout'];
  let data: string;
  if (raw.length >= 29 && raw.startsWith(LAST_DOCUMENT_COMMAND)) {
    layout = 'echo';
    data = raw.slice(4, 29);
  } else if (raw.length >= 25 && !raw.startsWith(LAST_DOCUMENT_COMMAND)) {
    layout = 'no-echo';
    data = raw.slice(0, 25);
  } else return undefined;
  if (!/^\d{25}$/.test(data)) return undefined;
  const n = (from: number, len: number) => Number(data.slice(from, from + len));
  const [day, month, year, hour, minute] = [n(0, 2), n(2, 2), n(4, 2), n(6, 2), n(8, 2)];
  if (day < 1 || day > 31 || month < 1 || month > 12 || hour > 24 || minute > 59) return undefined;
  const type = TYPES[n(23, 1)];
  const state = n(24, 1);
  if (!type || state > 1) return undefined;
  const two = (v: number) => String(v).padStart(2, '0');
  return {
    dateTime: `20${two(year)}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}`,
    doc: n(10, 4),
    totalCents: n(14, 9),
    type,
    cancelled: state === 1,
    layout,
  };
}

/**
 * Whether a 1017 buffer says the printer has printed no document yet: every digit zero (with or
 * without the echo), as a new fiscal memory answers. Told apart from a buffer that cannot be
 * read, which is never "no document".
 */
export function isNoDocument(buffer: string): boolean {
  const raw = buffer.trim();
  const data = raw.startsWith(LAST_DOCUMENT_COMMAND) && raw.length >= 29 ? raw.slice(4) : raw;
  return data.length >= 25 && /^0+$/.test(data);
}
