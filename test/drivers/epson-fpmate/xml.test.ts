import { describe, expect, it } from 'vitest';
import { referenceMessage } from '../../../drivers/epson-fpmate/receipt-xml.js';
import { readReference } from '../../../drivers/epson-fpmate/simulator/reference.js';
import {
  element,
  envelope,
  escapeXml,
  formatQuantity,
  printerText,
} from '../../../drivers/epson-fpmate/xml-build.js';
import { parseFpmateResponse } from '../../../drivers/epson-fpmate/xml-response.js';
import { refundReference } from '../../../drivers/fiscal-it/reference.js';
import { english } from '../../../src/messages/render.js';
import { thrownBy } from '../../helpers/rejection.js';

describe('building fpmate XML', () => {
  it('escapes every XML special character in attributes', () => {
    expect(escapeXml(`Tom & "Jerry" <B&B> l'hotel`)).toBe(
      'Tom &amp; &quot;Jerry&quot; &lt;B&amp;B&gt; l&apos;hotel',
    );
    expect(
      element('printRecItem', { description: 'A&B "<x>"', quantity: '1', department: 1, skip: undefined }),
    ).toBe('<printRecItem description="A&amp;B &quot;&lt;x&gt;&quot;" quantity="1" department="1" />');
  });

  it('wraps a root in the SOAP 1.1 envelope', () => {
    expect(envelope('<printerCommand />')).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><printerCommand /></s:Body></s:Envelope>',
    );
  });

  it('fits text on one printer line (38 characters), keeping Latin-1 accents', () => {
    expect(printerText('Pernottamento camera matrimoniale vista mare con balcone')).toBe(
      'Pernottamento camera matrimoniale vist',
    );
    expect(printerText('Caffè  e\tcornetto\n')).toBe('Caffè e cornetto');
    expect(printerText('Ŝpecial „quotes” 😀 Łódź – 5€')).toBe('Special "quotes" ? Lódz - 5EUR');
    expect(printerText('x'.repeat(50), 10)).toBe('xxxxxxxxxx');
  });

  // A decimal comma as in Epson's own samples (EpsonFpSuite 2.2.0 Italy/TxtExamples/
  // ScoDocCommPayCash.txt: quantity 1,234) and fiskaltrust scu-it Utilities/EpsonFormatters.cs.
  it('writes quantities with a decimal comma and at most three decimals', () => {
    expect([1, 2.5, 1 / 3, 10].map(formatQuantity)).toEqual(['1', '2,5', '0,333', '10']);
  });
});

describe('reading fpmate answers, whatever the namespace prefix', () => {
  const answer = (prefix: string) =>
    `<?xml version="1.0" encoding="utf-8"?><${prefix}Envelope xmlns${prefix ? `:${prefix.slice(0, -1)}` : ''}="http://schemas.xmlsoap.org/soap/envelope/"><${prefix}Body><response success="true" code="" status="2"><addInfo><elementList>printerStatus,fiscalReceiptNumber</elementList><lastCommand/><printerStatus>20110</printerStatus><fiscalReceiptNumber>0034</fiscalReceiptNumber><fiscalReceiptAmount>123,45</fiscalReceiptAmount><zRepNumber>12</zRepNumber></addInfo></response></${prefix}Body></${prefix}Envelope>`;

  it.each(['soapenv:', 's:', 'SOAP-ENV:', ''])('finds the response under prefix "%s"', (prefix) => {
    expect(parseFpmateResponse(answer(prefix))).toEqual({
      success: true,
      code: '',
      status: '2',
      addInfo: {
        elementList: 'printerStatus,fiscalReceiptNumber',
        lastCommand: '',
        printerStatus: '20110',
        fiscalReceiptNumber: '0034',
        fiscalReceiptAmount: '123,45',
        zRepNumber: '12',
      },
    });
  });

  it('reads a failure with its code and status', () => {
    const xml =
      '<soapenv:Envelope xmlns:soapenv="x"><soapenv:Body><fp:response xmlns:fp="y" success="false" code="PRINTER ERROR" status="40"><addInfo><printerStatus>00110</printerStatus></addInfo></fp:response></soapenv:Body></soapenv:Envelope>';
    expect(parseFpmateResponse(xml)).toMatchObject({ success: false, code: 'PRINTER ERROR', status: '40' });
  });

  it('gives undefined for HTML error pages and garbage, never throws', () => {
    expect(parseFpmateResponse('<html><body>500 Internal Server Error</body></html>')).toBeUndefined();
    expect(parseFpmateResponse('')).toBeUndefined();
    expect(parseFpmateResponse('<<<')).toBeUndefined();
  });

  it('refuses an answer that carries a DTD (entities a printer never needs)', () => {
    const inflating =
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
      '<response success="true" code="&b;" status="2"><addInfo/></response>';
    expect(parseFpmateResponse(inflating)).toBeUndefined();
  });

  it('never throws on XML nested deeper than the parser takes', () => {
    const deep = `${'<a>'.repeat(50_000)}${'</a>'.repeat(50_000)}`;
    expect(parseFpmateResponse(`<response success="true">${deep}</response>`)).toBeUndefined();
  });
});

describe('refund references (the one mapping from platform fields)', () => {
  it('maps sequence → Z, receipt number → document, UTC → Italian date, serial as given', () => {
    const ref = refundReference(
      { sequence: '12', receiptNumber: '34', dateTimeUtc: '2026-11-20T23:30:00Z' },
      '99mey123456',
      'OWN',
      'Europe/Rome',
    );
    expect(ref).toEqual({ kind: 'REFUND', z: 12, doc: 34, date: '21112026', serial: '99MEY123456' });
    expect(referenceMessage(ref)).toBe('REFUND 0012 0034 21112026 99MEY123456');
    // The simulated RT reads the line back as it was meant (its own reader, simulator/reference.ts).
    expect(readReference('REFUND 0012 0034 21112026 99MEY123456')).toEqual(ref);
  });

  it('uses the summer offset and this printer’s serial when the platform gives none', () => {
    const ref = refundReference(
      { sequence: '0003', receiptNumber: '0007', dateTimeUtc: '2026-07-31T22:15:00Z' },
      undefined,
      '99MEY000001',
      'Europe/Rome',
    );
    expect(referenceMessage(ref)).toBe('REFUND 0003 0007 01082026 99MEY000001');
  });

  it('accepts a combined "zzzz-nnnn" receipt number when the sequence is missing', () => {
    expect(
      refundReference(
        { receiptNumber: '0012-0034', dateTimeUtc: '2026-01-05T10:00:00Z' },
        'S1',
        undefined,
        'Europe/Rome',
      ),
    ).toMatchObject({ z: 12, doc: 34, date: '05012026' });
  });

  it.each([
    [{ receiptNumber: '34', dateTimeUtc: '2026-01-05T10:00:00Z' }, 'S1', 'Z number'],
    [{ sequence: '1', receiptNumber: '12345', dateTimeUtc: '2026-01-05T10:00:00Z' }, 'S1', 'receipt number'],
    [{ sequence: '1', receiptNumber: '2' }, 'S1', 'when the original receipt was printed'],
    [
      { sequence: '1', receiptNumber: '2', dateTimeUtc: '2026-01-05T10:00:00Z' },
      undefined,
      'which fiscal printer',
    ],
  ])('refuses an incomplete reference with COMMAND_INVALID', (rebated, serial, hint) => {
    const error = thrownBy(() => refundReference(rebated, serial, undefined, 'Europe/Rome'));
    expect(error.code).toBe('COMMAND_INVALID');
    expect(english(error.notes)).toContain(hint);
  });
});
