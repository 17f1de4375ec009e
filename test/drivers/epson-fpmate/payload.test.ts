import { describe, expect, it } from 'vitest';
import {
  decodeBase64,
  MAX_PAYLOAD_BASE64_CHARS,
  preparePayload,
} from '../../../drivers/epson-fpmate/payload.js';
import { envelope } from '../../../drivers/epson-fpmate/xml-build.js';
import { english } from '../../../src/messages/render.js';
import { thrownBy } from '../../helpers/rejection.js';

/**
 * The platform's fpmate payloads cross a trust boundary: the platform may send a receipt, not
 * command the printer. Only sale, refund and void documents pass (issue 13, "Fooled").
 */

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const SALE =
  '<printerFiscalReceipt><beginFiscalReceipt operator="1"/><printRecItem operator="1" description="Minibar" quantity="1" unitPrice="4.50" department="1"/><printRecTotal operator="1" description="Contanti" payment="4.50" paymentType="0" index="0"/><endFiscalReceipt operator="1"/></printerFiscalReceipt>';
const reference = (kind: string) =>
  `<printRecMessage operator="1" messageType="4" message="${kind} 0001 0002 21112026 99MEY123456"/>`;

/** SALE as the agent writes it out again: the same elements and attributes, its own spacing. */
const SALE_WRITTEN = SALE.replaceAll('"/>', '" />');

describe('platform payloads: what passes', () => {
  it('writes a bare sale anew in the agent’s envelope, dropping its XML declaration', () => {
    expect(preparePayload(b64(`<?xml version="1.0" encoding="utf-8"?>\n${SALE}`))).toEqual({
      kind: 'sale',
      xml: envelope(SALE_WRITTEN),
    });
  });

  it('takes the receipt out of a full envelope and writes it anew in the agent’s own (issue 27)', () => {
    const xml = `<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${SALE}</s:Body></s:Envelope>`;
    expect(preparePayload(b64(xml))).toEqual({ kind: 'sale', xml: envelope(SALE_WRITTEN) });
    const prefixed = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">\n  <soapenv:Body>\n    ${SALE}\n  </soapenv:Body>\n</soapenv:Envelope>`;
    expect(preparePayload(b64(prefixed)).xml).toBe(envelope(SALE_WRITTEN));
  });

  it('keeps attribute values as the printer would read them: entities, references and quotes', () => {
    const item = `<printRecItem operator="1" description="B&amp;B &lt;Suite&gt; &#233;t&#xE9; l&apos;ora" quantity="1" unitPrice="4.50" department="1"/>`;
    const doc = SALE.replace(/<printRecItem[^>]*\/>/, item);
    const written = preparePayload(b64(doc)).xml;
    expect(written).toContain('description="B&amp;B &lt;Suite&gt; été l&apos;ora"');
    expect(written).not.toContain('&#233;');
  });

  it('tells refunds and voids by their reference line', () => {
    const refund = SALE.replace('<beginFiscalReceipt', `${reference('REFUND')}<beginFiscalReceipt`);
    expect(preparePayload(b64(refund)).kind).toBe('refund');
    const voidDoc = `<printerFiscalReceipt>${reference('VOID')}<beginFiscalReceipt operator="1"/><endFiscalReceipt operator="1"/></printerFiscalReceipt>`;
    expect(preparePayload(b64(voidDoc)).kind).toBe('void');
  });

  it('accepts Base64 broken over lines, comments, and the customer and lottery codes', () => {
    const withCodes = SALE.replace(
      '<printRecTotal',
      '<!-- codes --><directIO command="1060" data="0112345678901"/><directIO command="1135" data="01ABCDEFGH"/><printRecTotal',
    );
    const encoded = b64(withCodes);
    expect(preparePayload(`${encoded.slice(0, 20)}\r\n${encoded.slice(20)}`).kind).toBe('sale');
  });
});

describe('platform payloads: what is refused with COMMAND_INVALID before anything is sent', () => {
  it.each([
    ['bad Base64', 'not base64!', 'it is not valid Base64'],
    ['Base64 with padding inside', `${b64('<a')}${b64('/>')}`, 'it is not valid Base64'],
    ['truncated Base64', 'PHByaW50', 'it is not XML'],
    ['not XML', b64('hello, printer'), 'it is not XML'],
    ['unbalanced XML', b64('<printerFiscalReceipt><x></printerFiscalReceipt>'), 'it is not XML'],
    ['binary', Buffer.from([0xff, 0xfe, 0x00, 0x3c]).toString('base64'), 'it is not text'],
    [
      'a DTD (entities to expand)',
      b64(`<?xml version="1.0"?><!DOCTYPE printerFiscalReceipt [<!ENTITY x "Minibar">]>${SALE}`),
      'it carries a DTD or a processing instruction',
    ],
    [
      'a processing instruction besides the XML declaration',
      b64(`<?xml version="1.0"?><?xml-stylesheet href="x"?>${SALE}`),
      'it carries a DTD or a processing instruction',
    ],
    [
      'a processing instruction inside the document',
      b64(SALE.replace('<endFiscalReceipt', '<?epson run?><endFiscalReceipt')),
      'it carries a DTD or a processing instruction',
    ],
    [
      'the docs’ sample',
      b64('<?xml version="1.0"?><fvp_doc><header/></fvp_doc>'),
      '<fvp_doc> is not a sale, refund or void receipt',
    ],
    [
      'a Z report',
      b64('<printerFiscalReport><printZReport operator="1"/></printerFiscalReport>'),
      '<printerFiscalReport> is not a sale, refund or void receipt',
    ],
    [
      'a directIO command',
      b64('<printerCommand><directIO command="4038" data="0212345"/></printerCommand>'),
      '<printerCommand> is not a sale, refund or void receipt',
    ],
    [
      'a printer command in an envelope',
      b64(
        '<s:Envelope xmlns:s="x"><s:Body><printerCommand><resetPrinter operator="1"/></printerCommand></s:Body></s:Envelope>',
      ),
      '<printerCommand> is not a sale, refund or void receipt',
    ],
    [
      'non-fiscal text',
      b64('<printerNonFiscal><beginNonFiscal/><printNormal data="x"/><endNonFiscal/></printerNonFiscal>'),
      '<printerNonFiscal> is not a sale, refund or void receipt',
    ],
    [
      'a directIO that prints or programs, inside a receipt',
      b64(
        SALE.replace('<endFiscalReceipt', '<directIO command="1078" data="0140001HELLO"/><endFiscalReceipt'),
      ),
      'the native command 1078 is not part of a receipt',
    ],
    [
      'a Z report inside a receipt',
      b64(SALE.replace('<endFiscalReceipt', '<printZReport operator="1"/><endFiscalReceipt')),
      '<printZReport> does not belong in a receipt',
    ],
    [
      'a SOAP Header',
      b64(`<s:Envelope xmlns:s="x"><s:Header><a/></s:Header><s:Body>${SALE}</s:Body></s:Envelope>`),
      'its SOAP envelope holds something besides its one body',
    ],
    [
      'a second Body',
      b64(`<s:Envelope xmlns:s="x"><s:Body>${SALE}</s:Body><s:Body>${SALE}</s:Body></s:Envelope>`),
      'its SOAP envelope holds something besides its one body',
    ],
    [
      'text inside a receipt element',
      b64(
        SALE.replace(
          '<endFiscalReceipt operator="1"/>',
          '<endFiscalReceipt operator="1">x</endFiscalReceipt>',
        ),
      ),
      'it carries text outside the receipt’s elements',
    ],
    [
      'an entity XML does not define',
      b64(SALE.replace('description="Minibar"', 'description="&nbsp;"')),
      'it is not XML',
    ],
    [
      'a character reference XML does not allow',
      b64(SALE.replace('description="Minibar"', 'description="&#1114112;&#0;"')),
      'it is not XML',
    ],
    [
      'two roots in the body',
      b64(`<s:Envelope xmlns:s="x"><s:Body>${SALE}${SALE}</s:Body></s:Envelope>`),
      'its SOAP body is not one document',
    ],
  ])('refuses %s', (_name, base64, reason) => {
    const error = thrownBy(() => preparePayload(base64));
    expect(error.code).toBe('COMMAND_INVALID');
    expect(english(error.notes)).toContain(`(${reason}); nothing was printed`);
  });

  it('refuses a payload over the size limit first, without decoding it', () => {
    const huge = 'A'.repeat(MAX_PAYLOAD_BASE64_CHARS + 4);
    const error = thrownBy(() => preparePayload(huge));
    expect(error.code).toBe('COMMAND_INVALID');
    expect(error.message).toContain(`over the ${MAX_PAYLOAD_BASE64_CHARS} limit`);
    expect(english(error.notes)).toContain('it is larger than any receipt');
  });

  it('checks 50 MB of Base64 without overflowing the stack (issue 13: it used to throw RangeError)', () => {
    const fifty = 'QUFB'.repeat((50 * 1024 * 1024) / 4);
    expect(decodeBase64(fifty)?.length).toBe((fifty.length / 4) * 3);
    expect(decodeBase64(`${fifty}!`)).toBeUndefined();
    expect(thrownBy(() => preparePayload(fifty)).code).toBe('COMMAND_INVALID');
  });

  it('refuses XML nested deeper than any receipt without throwing past the check', () => {
    const deep = `<printerFiscalReceipt>${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}</printerFiscalReceipt>`;
    expect(thrownBy(() => preparePayload(b64(deep))).code).toBe('COMMAND_INVALID');
  });
});
