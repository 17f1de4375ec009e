import { escapeXml } from '../xml-build.js';

/** Answers of the simulated fpmate.cgi, shaped like a real printer's (SOAP, `soapenv` prefix). */

export type AddInfo = Array<[string, string]>;

export function responseXml(success: boolean, code: string, status: string, addInfo: AddInfo): string {
  const list = addInfo.map(([k]) => k).join(',');
  const info = addInfo.map(([k, v]) => (v === '' ? `<${k}/>` : `<${k}>${escapeXml(v)}</${k}>`)).join('');
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>' +
    `<response success="${success}" code="${escapeXml(code)}" status="${escapeXml(status)}">` +
    `<addInfo><elementList>${list}</elementList>${info}</addInfo></response>` +
    '</soapenv:Body></soapenv:Envelope>'
  );
}

/** A refusal; `status` is the PRINTER ERROR status ("0" for the other codes). */
export function failureXml(code: string, status: string, printerStatus: string): string {
  return responseXml(false, code, status, [
    ['lastCommand', ''],
    ['printerStatus', printerStatus],
  ]);
}

/** An amount as the printer answers it: decimal comma. */
export function commaAmount(cents: number): string {
  return `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
}
