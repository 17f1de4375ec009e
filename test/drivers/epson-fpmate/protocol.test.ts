import { describe, expect, it } from 'vitest';
import {
  formatLastDocument,
  formatSerialAnswer,
  LAST_DOCUMENT_COMMAND,
  parseLastDocument,
  parseSerialAnswer,
  SERIAL_COMMAND,
} from '../../../drivers/epson-fpmate/last-document.js';
import {
  comparePositions,
  ddMMyyyy,
  decodePrinterStatus,
  docLabel,
  hasOpenDocument,
  localDateTime,
  receiptDateTime,
} from '../../../drivers/epson-fpmate/protocol.js';

describe('document numbers', () => {
  it('shows a document as ZZZZ-NNNN and orders positions by Z then number', () => {
    expect(docLabel({ z: 12, doc: 34 })).toBe('0012-0034');
    expect(comparePositions({ z: 12, doc: 34 }, { z: 12, doc: 35 })).toBeLessThan(0);
    expect(comparePositions({ z: 13, doc: 1 }, { z: 12, doc: 900 })).toBeGreaterThan(0);
    expect(comparePositions({ z: 2, doc: 2 }, { z: 2, doc: 2 })).toBe(0);
  });
});

describe('printerStatus digits', () => {
  it('decodes printer, journal and document state', () => {
    expect(decodePrinterStatus('20110')).toEqual({
      printer: 'paper-low',
      journal: 'ok',
      document: 'closed',
      raw: '20110',
    });
    expect(decodePrinterStatus('31180')).toMatchObject({
      printer: 'offline',
      journal: 'near-full',
      document: 'fiscal-document-open',
    });
    expect(decodePrinterStatus('05130')).toMatchObject({
      printer: 'ok',
      journal: 'full',
      document: 'payment-in-progress',
    });
    expect(decodePrinterStatus('')).toMatchObject({
      printer: 'unknown',
      journal: 'unknown',
      document: 'unknown',
    });
  });

  it('tells an open document that needs a reset', () => {
    expect(hasOpenDocument(decodePrinterStatus('00100'))).toBe(true);
    expect(hasOpenDocument(decodePrinterStatus('00110'))).toBe(false);
  });
});

describe('dates in Italian local time', () => {
  const rome = (iso: string) => ddMMyyyy(new Date(iso), 'Europe/Rome');

  it('moves a late-evening UTC instant to the next Italian day (winter, UTC+1)', () => {
    expect(rome('2026-11-20T22:59:59Z')).toBe('20112026');
    expect(rome('2026-11-20T23:00:00Z')).toBe('21112026');
    expect(rome('2026-12-31T23:30:00Z')).toBe('01012027');
  });

  it('uses UTC+2 in summer', () => {
    expect(rome('2026-07-14T21:59:59Z')).toBe('14072026');
    expect(rome('2026-07-14T22:00:00Z')).toBe('15072026');
  });

  it('handles the spring-forward day (29 March 2026)', () => {
    expect(rome('2026-03-28T22:59:59Z')).toBe('28032026');
    expect(rome('2026-03-28T23:00:00Z')).toBe('29032026');
    expect(rome('2026-03-29T21:59:59Z')).toBe('29032026');
    expect(rome('2026-03-29T22:00:00Z')).toBe('30032026');
    expect(localDateTime(new Date('2026-03-29T01:00:00Z'), 'Europe/Rome')).toMatchObject({
      hour: 3,
      minute: 0,
    });
  });

  it('handles the fall-back day (25 October 2026)', () => {
    expect(rome('2026-10-24T21:59:59Z')).toBe('24102026');
    expect(rome('2026-10-24T22:00:00Z')).toBe('25102026');
    expect(rome('2026-10-25T22:59:59Z')).toBe('25102026');
    expect(rome('2026-10-25T23:00:00Z')).toBe('26102026');
    expect(localDateTime(new Date('2026-10-25T00:30:00Z'), 'Europe/Rome')).toMatchObject({
      hour: 2,
      minute: 30,
    });
    expect(localDateTime(new Date('2026-10-25T01:30:00Z'), 'Europe/Rome')).toMatchObject({
      hour: 2,
      minute: 30,
    });
  });

  it('reads the answer’s d/M/yyyy and HH:mm into yyyy-MM-dd HH:mm', () => {
    expect(receiptDateTime('1/2/2026', '9:05')).toBe('2026-02-01 09:05');
    expect(receiptDateTime('21/11/2026', '14:05')).toBe('2026-11-21 14:05');
    expect(receiptDateTime('21/11/2026', undefined)).toBe('2026-11-21');
    expect(receiptDateTime('2026-11-21', '14:05')).toBeUndefined();
  });
});

describe('the last-emitted-document record (directIO 1387)', () => {
  it('is read with 1387/01, as fiskaltrust reads it (scu-it EpsonRTPrinter/Models/PrinterCommand.cs)', () => {
    expect(LAST_DOCUMENT_COMMAND).toEqual({ command: '1387', data: '01' });
  });

  it('parses a record laid out field by field as fiskaltrust documents it (Models/LastEmittedDocStatus.cs)', () => {
    const record =
      '01' + // OP
      '000012345' + // TOTAL DOC AMOUNT, cents
      '000002226' + // TOTAL VAT AMOUNT, cents
      '211126' + // DATE DDMMYY
      '140512' + // TIME HHMMSS
      '0012' + // Z NUM
      '0034' + // DOC NUM
      '99MEY123456' + // PRINTER SN
      '0' + // INST LOTT
      '        ' + // LOTT CODE
      '1' + // FISC / NON FISC
      ' '.repeat(40) + // UUID
      ' '.repeat(60) + // PDF NAME
      ' '.repeat(32); // SPARE
    expect(parseLastDocument(record)).toEqual({
      totalCents: 12345,
      vatCents: 2226,
      dateTime: '2026-11-21 14:05',
      z: 12,
      doc: 34,
      serial: '99MEY123456',
      fiscal: true,
    });
    expect(parseLastDocument(record.slice(0, 61))?.doc).toBe(34);
  });

  const fields = {
    totalCents: 12345,
    vatCents: 2226,
    date: '211126',
    time: '140512',
    z: 12,
    doc: 34,
    serial: '99MEY123456',
    fiscal: true,
  };

  it('round-trips through the fixed-width layout', () => {
    const data = formatLastDocument(fields);
    expect(data).toHaveLength(193);
    expect(data.slice(0, 40)).toBe('010000123450000022262111261405120012' + '0034');
    expect(parseLastDocument(data)).toEqual({
      totalCents: 12345,
      vatCents: 2226,
      dateTime: '2026-11-21 14:05',
      z: 12,
      doc: 34,
      serial: '99MEY123456',
      fiscal: true,
    });
    expect(parseLastDocument(formatLastDocument({ ...fields, fiscal: false }))?.fiscal).toBe(false);
  });

  it('refuses records that are short or malformed', () => {
    const data = formatLastDocument(fields);
    expect(parseLastDocument(undefined)).toBeUndefined();
    expect(parseLastDocument(data.slice(0, 60))).toBeUndefined();
    expect(parseLastDocument(`${data.slice(0, 32)}00A2${data.slice(36)}`)).toBeUndefined();
    expect(parseLastDocument(`${data.slice(0, 60)}X${data.slice(61)}`)).toBeUndefined();
  });
});

describe('the serial number (directIO 3217)', () => {
  it('is read with 3217/00 (fiskaltrust PrinterCommand.cs GetSerialNrCommand)', () => {
    expect(SERIAL_COMMAND).toEqual({ command: '3217', data: '00' });
  });

  it('takes [10..11] + rtType + [8..9] + [2..7], as fiskaltrust’s test fixes it (UnitTest/ReprintSerialNumberTests.cs)', () => {
    expect(parseSerialAnswer('XX123456AB99', 'M')).toBe('99MAB123456');
    expect(parseSerialAnswer('01040473EB99', 'I')).toBe('99IEB040473');
  });

  it('needs the RT type and twelve characters', () => {
    expect(parseSerialAnswer('XX123456AB99', undefined)).toBeUndefined();
    expect(parseSerialAnswer('XX123456AB99', '')).toBeUndefined();
    expect(parseSerialAnswer('XX123456AB9', 'M')).toBeUndefined();
    expect(parseSerialAnswer(undefined, 'M')).toBeUndefined();
    expect(parseSerialAnswer('XX12#456AB99', 'M')).toBeUndefined();
  });

  it('round-trips through the simulator’s answer', () => {
    expect(formatSerialAnswer('99MEY123456', '00')).toBe('00123456EY99');
    expect(parseSerialAnswer(formatSerialAnswer('99MEY123456'), 'M')).toBe('99MEY123456');
  });
});
