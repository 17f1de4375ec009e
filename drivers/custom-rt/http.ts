import { AgentError } from '../../src/errors.js';
import { customRefusals } from './messages.js';

/**
 * The Custom web service's one endpoint: `POST http(s)://host[:port]/xml/printer.htm` (XML
 * protocol manual rev 2.00 p.13; fiskaltrust `CustomRTPrinterClient`, lyancoder `xml-custom-http.ts`).
 * An address that already names `printer.htm` keeps its path. Rejects with COMMAND_INVALID for
 * anything that is not an http(s) address. User and password are never taken from the address.
 */
export function customEndpoint(address: string): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new AgentError('COMMAND_INVALID', 'Printer address is not a URL', {
      notes: customRefusals.addressRefused({ what: customRefusals.addressNotUrl() }),
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AgentError('COMMAND_INVALID', `Printer address "${url.origin}" is not http(s)`, {
      notes: customRefusals.addressRefused({ what: customRefusals.addressNotHttp() }),
    });
  }
  if (!url.pathname.endsWith('printer.htm')) url.pathname = '/xml/printer.htm';
  url.search = '';
  url.hash = '';
  url.username = '';
  url.password = '';
  return url;
}

/**
 * HTTP Basic for the printer. The manual documents no authentication; every public client sends
 * Basic with the printer's serial as user and password (fiskaltrust `CustomRTPrinterConfiguration`
 * and its tests, lyancoder `send()`), which is the default here. The header is built once and
 * never logged.
 */
export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}
