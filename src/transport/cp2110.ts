/**
 * The report layout of a CP2110-style HID-to-UART bridge, as pure functions. Source: Silicon Labs
 * AN434 "CP2110/4 Interface Specification" (https://www.silabs.com/documents/public/application-notes/AN434-CP2110-4-Interface-Specification.pdf).
 *
 * - Interrupt (output and input) reports 0x01–0x3F carry UART data; the report id IS the number of
 *   data bytes that follow (so at most 63 per report).
 * - Feature report 0x41 "Get/Set UART Enable": one byte, 1 = enabled. The UART is disabled after
 *   power-on, so nothing flows until it is enabled.
 * - Feature report 0x43 "Set Purge FIFOs": 1 = transmit, 2 = receive, 3 = both.
 * - Feature report 0x50 "Get/Set UART Config": baud rate (4 bytes, big-endian), parity (0 none,
 *   1 odd, 2 even, 3 mark, 4 space), flow control (0 none, 1 RTS/CTS), data bits (0 = 5 … 3 = 8),
 *   stop bits (0 short = 1, 1 long = 1.5 or 2). Not stored in PROM: set it after every open.
 */

export const CP2110_VENDOR_ID = 0x10c4;
export const CP2110_PRODUCT_ID = 0xea80;

export const REPORT_UART_ENABLE = 0x41;
export const REPORT_PURGE_FIFOS = 0x43;
export const REPORT_UART_CONFIG = 0x50;
export const MAX_DATA_PER_REPORT = 63;
export const PURGE_BOTH = 0x03;

export type Parity = 'none' | 'odd' | 'even' | 'mark' | 'space';

export interface UartConfig {
  baudRate: number;
  parity: Parity;
  flowControl: boolean;
  dataBits: 5 | 6 | 7 | 8;
  stopBits: 1 | 2;
}

const PARITY_CODES: Record<Parity, number> = { none: 0, odd: 1, even: 2, mark: 3, space: 4 };

/** The 9-byte Set UART Config feature report (report id first, as node-hid expects). */
export function uartConfigReport(config: UartConfig): number[] {
  const baud = Math.round(config.baudRate);
  if (!Number.isInteger(baud) || baud < 300 || baud > 1_000_000) {
    throw new RangeError(`baud rate ${config.baudRate} is outside the CP2110's 300..1000000`);
  }
  return [
    REPORT_UART_CONFIG,
    (baud >>> 24) & 0xff,
    (baud >>> 16) & 0xff,
    (baud >>> 8) & 0xff,
    baud & 0xff,
    PARITY_CODES[config.parity],
    config.flowControl ? 1 : 0,
    config.dataBits - 5,
    config.stopBits === 1 ? 0 : 1,
  ];
}

/** Reads a UART Config report back (with or without its leading report id). */
export function parseUartConfigReport(report: ArrayLike<number>): UartConfig | undefined {
  const bytes = Array.from(report);
  const body = bytes.length >= 9 && bytes[0] === REPORT_UART_CONFIG ? bytes.slice(1) : bytes;
  if (body.length < 8) return undefined;
  const [b0, b1, b2, b3, parity, flow, dataBits, stopBits] = body as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const parityName = (Object.keys(PARITY_CODES) as Parity[]).find((p) => PARITY_CODES[p] === parity);
  if (!parityName || dataBits > 3) return undefined;
  return {
    baudRate: ((b0 << 24) | (b1 << 16) | (b2 << 8) | b3) >>> 0,
    parity: parityName,
    flowControl: flow === 1,
    dataBits: (dataBits + 5) as UartConfig['dataBits'],
    stopBits: stopBits === 0 ? 1 : 2,
  };
}

/** Splits outgoing bytes into output reports: `[count, ...bytes]`, count 1..63. */
export function dataToReports(data: Uint8Array): number[][] {
  const reports: number[][] = [];
  for (let offset = 0; offset < data.length; offset += MAX_DATA_PER_REPORT) {
    const chunk = data.subarray(offset, offset + MAX_DATA_PER_REPORT);
    reports.push([chunk.length, ...chunk]);
  }
  return reports;
}

/**
 * Extracts the UART bytes of one input report (`[count, ...bytes, padding…]`). Reports whose id is
 * not a data report yield nothing; a count larger than what arrived is clipped.
 */
export function reportToData(report: Uint8Array): Buffer {
  const id = report[0];
  if (id === undefined || id < 1 || id > MAX_DATA_PER_REPORT) return Buffer.alloc(0);
  return Buffer.from(report.subarray(1, 1 + id));
}
