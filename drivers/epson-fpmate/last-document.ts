import { type DocPosition, pad4 } from './protocol.js';

/**
 * The printer's "last emitted document" record, read with a `directIO` status command and the
 * heart of exactly-once printing: after a lost answer, comparing its (Z, document) pair with the
 * baseline taken before sending tells whether the receipt was printed.
 *
 * Layout of `responseData` (fixed width, our reading of the Epson RT Communication Protocol as
 * also used by fiskaltrust `scu-it`):
 *
 * | field               | width | offset |
 * |---------------------|-------|--------|
 * | operator            | 2     | 0      |
 * | total doc amount ¢  | 9     | 2      |
 * | total VAT amount ¢  | 9     | 11     |
 * | date DDMMYY         | 6     | 20     |
 * | time HHMMSS         | 6     | 26     |
 * | Z number            | 4     | 32     |
 * | document number     | 4     | 36     |
 * | printer serial      | 11    | 40     |
 * | lottery installed   | 1     | 51     |
 * | lottery code        | 8     | 52     |
 * | fiscal (1) / not (0)| 1     | 60     |
 * | e-receipt UUID, PDF name, spare | 132 | 61 |
 */
export interface LastDocument extends DocPosition {
  totalCents: number;
  vatCents: number;
  /** "yyyy-MM-dd HH:mm" in the printer's clock (Italian local time). */
  dateTime: string;
  serial: string;
  /** A fiscal document (receipt, refund, void) rather than a non-fiscal one. */
  fiscal: boolean;
}

export const LAST_DOCUMENT_MIN_LENGTH = 61;
const TAIL_LENGTH = 132;

/** Parses the record; undefined when it is too short or a field is not what it should be. */
export function parseLastDocument(responseData: string | undefined): LastDocument | undefined {
  if (!responseData || responseData.length < LAST_DOCUMENT_MIN_LENGTH) return undefined;
  const field = (offset: number, width: number) => responseData.slice(offset, offset + width);
  const digits = (offset: number, width: number) => {
    const text = field(offset, width).trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  };
  const total = digits(2, 9);
  const vat = digits(11, 9);
  const date = field(20, 6);
  const time = field(26, 6);
  const z = digits(32, 4);
  const doc = digits(36, 4);
  const flag = field(60, 1);
  if (total === undefined || vat === undefined || z === undefined || doc === undefined) return undefined;
  if (!/^\d{6}$/.test(date) || !/^\d{6}$/.test(time) || (flag !== '0' && flag !== '1')) return undefined;
  return {
    totalCents: total,
    vatCents: vat,
    dateTime: `20${date.slice(4, 6)}-${date.slice(2, 4)}-${date.slice(0, 2)} ${time.slice(0, 2)}:${time.slice(2, 4)}`,
    z,
    doc,
    serial: field(40, 11).trim(),
    fiscal: flag === '1',
  };
}

export interface LastDocumentFields extends DocPosition {
  totalCents: number;
  vatCents: number;
  /** DDMMYY */
  date: string;
  /** HHMMSS */
  time: string;
  serial: string;
  fiscal: boolean;
}

/** Builds the record (the simulator's side). */
export function formatLastDocument(d: LastDocumentFields): string {
  return [
    '01',
    String(Math.abs(d.totalCents)).padStart(9, '0'),
    String(Math.abs(d.vatCents)).padStart(9, '0'),
    d.date,
    d.time,
    pad4(d.z),
    pad4(d.doc),
    d.serial.padEnd(11, ' ').slice(0, 11),
    '0',
    ' '.repeat(8),
    d.fiscal ? '1' : '0',
    ' '.repeat(TAIL_LENGTH),
  ].join('');
}
