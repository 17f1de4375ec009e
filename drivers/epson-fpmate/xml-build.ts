import { type Attributes, attributeList, escapeXml } from '../fiscal-it/rt/xml-text.js';
import { DEFAULT_LINE_LENGTH } from './protocol.js';

/** Pure builders for the fpmate XML the driver sends. Amounts are already strings (money.ts). */

export const SOAP_ENV_NS = 'http://schemas.xmlsoap.org/soap/envelope/';

export { type Attributes, escapeXml };

/** A self-closing element; undefined attributes are left out, values are escaped. */
export function element(name: string, attributes: Attributes = {}): string {
  return `<${name}${attributeList(attributes)} />`;
}

/** Wraps one fpmate root in the SOAP 1.1 envelope fpmate.cgi expects. */
export function envelope(body: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    `<s:Envelope xmlns:s="${SOAP_ENV_NS}"><s:Body>${body}</s:Body></s:Envelope>`
  );
}

/** Characters outside Latin-1 with no decomposition, and their printable stand-ins. */
const STAND_INS: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Œ: 'OE',
  œ: 'oe',
  ı: 'i',
  '€': 'EUR',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '–': '-',
  '—': '-',
  '…': '...',
};

/**
 * Text the printer can print on one line: whitespace collapsed, control characters dropped,
 * characters outside Latin-1 reduced to their base letter (or "?"), cut to `max` characters.
 */
export function printerText(text: string, max = DEFAULT_LINE_LENGTH): string {
  let out = '';
  for (const ch of text.normalize('NFC').replace(/\s+/g, ' ').trim()) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    if (code <= 0xff) {
      out += ch;
      continue;
    }
    const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += STAND_INS[ch] ?? (base.length === 1 && (base.codePointAt(0) ?? 0) <= 0xff ? base : '?');
  }
  return [...out].slice(0, max).join('').trimEnd();
}

/**
 * A quantity: integers as is, fractions with a decimal comma and at most three decimals ("1",
 * "2,5", "0,333"), as Epson's samples and fiskaltrust's `QuantityFormatter` write them (money.ts).
 */
export function formatQuantity(quantity: number): string {
  return String(Math.round(quantity * 1000) / 1000).replace('.', ',');
}

/** `queryPrinterStatus`: statusType 1 also reports the RT state (files, certificates, day open). */
export function queryStatusXml(statusType: 0 | 1 = 1): string {
  return `<printerCommand>${element('queryPrinterStatus', { operator: '1', statusType })}</printerCommand>`;
}

/** A `directIO` native command; `data` starts with the operator ("01"). */
export function directIoXml(command: string, data: string): string {
  return `<printerCommand>${element('directIO', { command, data })}</printerCommand>`;
}

/** Clears any half-open document so the next one is not blocked. */
export function resetPrinterXml(operator: string): string {
  return `<printerCommand>${element('resetPrinter', { operator })}</printerCommand>`;
}
