import { type DocPosition, pad4 } from './protocol.js';

/**
 * The two `directIO` reads the driver makes, as public drivers make them.
 *
 * **Last emitted document**: `directIO command="1387" data="01"` (fiskaltrust `scu-it`
 * `EpsonRTPrinter/Models/PrinterCommand.cs`, `GetLastEmittedDocStatusCommand`). The heart of
 * exactly-once printing: after a lost answer, comparing its (Z, document) pair with the baseline
 * known before sending tells whether the receipt was printed. Layout of `responseData`, fixed
 * width (fiskaltrust `EpsonRTPrinter/Models/LastEmittedDocStatus.cs`, after the Epson RT
 * Communication Protocol v8.1, p. 144):
 *
 * | field               | width | offset |
 * |---------------------|-------|--------|
 * | operator (echo)     | 2     | 0      |
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

export const LAST_DOCUMENT_COMMAND = { command: '1387', data: '01' } as const;
export const LAST_DOCUMENT_MIN_LENGTH = 61;
const TAIL_LENGTH = 132;

/**
 * **Serial number**: `directIO command="3217" data="00"` (fiskaltrust `PrinterCommand.cs`,
 * `GetSerialNrCommand`). `responseData` is 12 characters — operator echo (2), the serial's six
 * digits (2–7), its two letters (8–9) and its two leading digits (10–11) — and the printer's RT
 * type (`rtType` of `queryPrinterStatus statusType="1"`, one letter) completes it:
 * `[10..11] + rtType + [8..9] + [2..7]`, e.g. `XX123456EY99` with `M` → `99MEY123456`
 * (fiskaltrust `EpsonRTPrinterSCU.cs` `GetSerialNumberAsync` and
 * `UnitTest/ReprintSerialNumberTests.cs`; 721377/procassa `lib/epsonxml.js`
 * `getFiscalSerialNumber` reads the same offsets).
 */
export const SERIAL_COMMAND = { command: '3217', data: '00' } as const;

/** The serial from a 3217 answer and the RT type; undefined when either is malformed. */
export function parseSerialAnswer(
  responseData: string | undefined,
  rtType: string | undefined,
): string | undefined {
  const type = rtType?.trim() ?? '';
  if (!responseData || responseData.length < 12 || !/^[A-Z]$/i.test(type)) return undefined;
  const serial = `${responseData.slice(10, 12)}${type}${responseData.slice(8, 10)}${responseData.slice(2, 8)}`;
  return /^[0-9A-Z]{2}[A-Z][0-9A-Z]{8}$/i.test(serial) ? serial.toUpperCase() : undefined;
}

/** The 3217 answer for `serial` (the simulator's side): its inverse, with the operator echoed. */
export function formatSerialAnswer(serial: string, operator = '00'): string {
  return `${operator.slice(0, 2).padStart(2, '0')}${serial.slice(5, 11)}${serial.slice(3, 5)}${serial.slice(0, 2)}`;
}

/** The RT type letter inside a serial (`99MEY123456` → `M`), which the status answer reports. */
export function rtTypeOf(serial: string): string {
  return serial.charAt(2);
}

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

/** Builds the record (the simulator's side), with the operator echoed. */
export function formatLastDocument(d: LastDocumentFields, operator = '01'): string {
  return [
    operator.slice(0, 2).padStart(2, '0'),
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
