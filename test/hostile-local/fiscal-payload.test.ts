import { afterEach, describe, expect, it } from 'vitest';
import { envelope } from '../../drivers/epson-fpmate/xml-build.js';
import { AgentError } from '../../src/errors.js';
import { english } from '../../src/messages/render.js';
import { createHttpClient, type HttpClient } from '../../src/transport/http.js';
import { payloadJob, type Rig, rig } from '../drivers/epson-fpmate/helpers.js';
import { recordingExecuteContext } from '../helpers/driver-context.js';

/**
 * Issue 27, finding 8: the fiscal payload check could be bypassed through the SOAP wrapper. The
 * driver checked only the first `Body`'s child and then sent the platform's text as it came: a
 * `printZReport` in `<s:Header>`, a second `<s:Body>` with `printerFiscalReport`, or a
 * `printerCommand`/`directIO` beside the Body passed as a sale and reached the printer.
 *
 * Now a payload is exactly one fiscal document — one envelope, one Body, no Header, one allowed
 * root — and the printer gets the element that was checked, written anew in the agent's own
 * envelope, never the platform's text. These tests run the real driver against the simulated
 * RT printer and read every byte the driver sent it.
 */

const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';
const SALE =
  '<printerFiscalReceipt><beginFiscalReceipt operator="1"/><printRecItem operator="1" description="Minibar" quantity="1" unitPrice="4.50" department="1"/><printRecTotal operator="1" description="Contanti" payment="4.50" paymentType="0" index="0"/><endFiscalReceipt operator="1"/></printerFiscalReceipt>';
const Z_REPORT = '<printerFiscalReport><printZReport operator="1"/></printerFiscalReport>';
const DIRECT_IO = '<printerCommand><directIO command="4038" data="0212345"/></printerCommand>';

const SMUGGLED = [
  [
    'a Z report in the SOAP Header',
    `<s:Envelope xmlns:s="${SOAP}"><s:Header>${Z_REPORT}</s:Header><s:Body>${SALE}</s:Body></s:Envelope>`,
  ],
  [
    'a second Body holding a Z report',
    `<s:Envelope xmlns:s="${SOAP}"><s:Body>${SALE}</s:Body><s:Body>${Z_REPORT}</s:Body></s:Envelope>`,
  ],
  [
    'a printer command beside the Body',
    `<s:Envelope xmlns:s="${SOAP}"><s:Body>${SALE}</s:Body>${DIRECT_IO}</s:Envelope>`,
  ],
  [
    'a Z report before the Body',
    `<s:Envelope xmlns:s="${SOAP}">${Z_REPORT}<s:Body>${SALE}</s:Body></s:Envelope>`,
  ],
  [
    'text beside the receipt in the Body',
    `<s:Envelope xmlns:s="${SOAP}"><s:Body>${SALE}&lt;printZReport/&gt;</s:Body></s:Envelope>`,
  ],
] as const;

let r: Rig | undefined;
let sent: string[] = [];
afterEach(async () => {
  await r?.close();
  r = undefined;
  sent = [];
});

/** The agent's HTTP stack, keeping every body it sends to the printer. */
function recordingHttp(): HttpClient {
  const real = createHttpClient();
  return {
    close: () => real.close(),
    request: (request) => {
      sent.push(String(request.body ?? ''));
      return real.request(request);
    },
  };
}

describe('a fiscal payload is exactly one fiscal document', () => {
  it.each(SMUGGLED)('%s: COMMAND_INVALID, and the printer gets nothing', async (_name, xml) => {
    r = await rig({ http: recordingHttp });
    const error = await r.driver.execute(payloadJob(xml), recordingExecuteContext()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('COMMAND_INVALID');
    expect(english((error as AgentError).notes)).toContain('nothing was printed');
    expect(
      sent.filter((body) => /printZReport|printerFiscalReport|directIO|printerFiscalReceipt/.test(body)),
    ).toEqual([]);
    expect(r.sim.requests).not.toContain('printerFiscalReport');
  });

  it('a receipt that passes is sent as the agent writes it, never as the platform’s text', async () => {
    // Nothing here is refused, but nothing of the wrapper may travel: comments, attributes,
    // prefixes, the platform's spacing.
    const xml = `<?xml version="1.0"?><soap:Envelope xmlns:soap="${SOAP}" soap:encodingStyle="x"><!-- <printZReport/> --><soap:Body><!-- note -->${SALE}</soap:Body></soap:Envelope>`;
    r = await rig({ http: recordingHttp });
    await r.driver.execute(payloadJob(xml), recordingExecuteContext());
    const receipts = sent.filter((body) => body.includes('printerFiscalReceipt'));
    expect(receipts).toEqual([envelope(SALE.replaceAll('"/>', '" />'))]);
    expect(sent.join('\n')).not.toMatch(/printZReport|encodingStyle|<!--/);
  });
});
