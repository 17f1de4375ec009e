import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLastDocument, parseSerialAnswer } from '../../../drivers/epson-fpmate/last-document.js';
import { preparePayload } from '../../../drivers/epson-fpmate/payload.js';
import { envelope } from '../../../drivers/epson-fpmate/xml-build.js';
import { parseFpmateResponse } from '../../../drivers/epson-fpmate/xml-response.js';
import { toUnits } from '../../../drivers/fiscal-it/money.js';
import { AgentError } from '../../../src/errors.js';

/**
 * Property-based checks (issue 13, "Fuzzing in CI"): whatever the platform puts in a payload and
 * whatever a printer answers, the checks and parsers either accept it or refuse it with their own
 * answer — nothing escapes as an exception. Seeded, so a failure reproduces; a few thousand inputs
 * per property.
 */
const SEED = 0x5eed13;
const RUNS = 2000;

/** XML-ish text: fragments a receipt, a SOAP envelope and a hostile document are made of. */
const xmlish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '<printerFiscalReceipt>',
        '</printerFiscalReceipt>',
        '<beginFiscalReceipt operator="1"/>',
        '<printRecItem description="A" quantity="1" unitPrice="1.00" department="1"/>',
        '<printRecTotal payment="1.00" paymentType="0"/>',
        '<endFiscalReceipt/>',
        '<directIO command="1060" data="01"/>',
        '<directIO command="4038"/>',
        '<printerCommand>',
        '</printerCommand>',
        '<s:Envelope xmlns:s="x"><s:Body>',
        '</s:Body></s:Envelope>',
        '<?xml version="1.0"?>',
        '<?pi x?>',
        '<!DOCTYPE r [<!ENTITY e "x">]>',
        '&e;',
        '<!--',
        '-->',
        '<![CDATA[',
        ']]>',
        '<a>',
        '</a>',
        '"',
        '<',
        '>',
        '&',
      ),
      fc.string({ maxLength: 12 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

function refusedOrAccepted(run: () => unknown): boolean {
  try {
    run();
    return true;
  } catch (e) {
    return e instanceof AgentError && e.code === 'COMMAND_INVALID';
  }
}

describe('fuzzing the fpmate payload check', () => {
  it('any string as Base64: accepted or COMMAND_INVALID, never another error', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => refusedOrAccepted(() => preparePayload(text))),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('any XML-ish document, encoded: accepted only as a receipt, else COMMAND_INVALID', () => {
    fc.assert(
      fc.property(xmlish, (xml) => {
        const base64 = Buffer.from(xml, 'utf8').toString('base64');
        try {
          const prepared = preparePayload(base64);
          // What passes is one printerFiscalReceipt, without DTD or stray processing instruction.
          return (
            prepared.xml.includes('printerFiscalReceipt') &&
            !prepared.xml.includes('<!DOCTYPE') &&
            !prepared.xml.slice(5).includes('<?')
          );
        } catch (e) {
          return e instanceof AgentError && e.code === 'COMMAND_INVALID';
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('random bytes, encoded: accepted or COMMAND_INVALID', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) =>
        refusedOrAccepted(() => preparePayload(Buffer.from(bytes).toString('base64'))),
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('fuzzing what a printer answers', () => {
  it('parseFpmateResponse never throws on any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), xmlish), (text) => {
        const parsed = parseFpmateResponse(text);
        return parsed === undefined || typeof parsed.success === 'boolean';
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('parseFpmateResponse never throws on answers shaped like a printer’s with hostile content', () => {
    fc.assert(
      fc.property(xmlish, fc.string({ maxLength: 40 }), (inner, code) => {
        const answer = envelope(
          `<response success="false" code="${code}" status="2"><addInfo>${inner}</addInfo></response>`,
        );
        const parsed = parseFpmateResponse(answer);
        return parsed === undefined || typeof parsed.code === 'string';
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('the 1387 and 3217 records: parsed or undefined, never a throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 220 }), fc.string({ maxLength: 3 }), (data, rtType) => {
        const last = parseLastDocument(data);
        const serial = parseSerialAnswer(data, rtType);
        return (
          (last === undefined || (Number.isInteger(last.z) && Number.isInteger(last.doc))) &&
          (serial === undefined || serial.length === 11)
        );
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('fuzzing amounts', () => {
  it('any JSON value as an amount: integer units within range, or FISCAL_REJECTED', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.jsonValue()), (value) => {
        try {
          const units = toUnits(value, { kind: 'line' });
          return Number.isSafeInteger(units) && Math.abs(units) <= 999_999_999 * 100;
        } catch (e) {
          return e instanceof AgentError && e.code === 'FISCAL_REJECTED';
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(toUnits(0.125, { kind: 'line' })).toBe(1250);
  });
});
