import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { base64Length } from '../../src/transport/base64.js';
import { elementsOf, ORDERED_XML, type OrderedNode } from '../fiscal-it/rt/ordered-xml.js';
import { epsonRefusals as r } from './messages-refusals.js';
import { envelope, escapeXml } from './xml-build.js';

/**
 * The platform's ready-made fpmate documents (`ItalianFiscalMachinePayload`): Base64 of a SOAP
 * envelope or of a bare root. The platform is trusted with the content of a receipt, not with the
 * printer: only sale, refund and void documents pass, with nothing a printer could be told
 * besides printing them.
 *
 * A payload is exactly one fiscal document (issue 27): one envelope holding one `Body` and nothing
 * else (no `Header`, no second `Body`, no sibling element, no text), or the bare root; that root a
 * `printerFiscalReceipt` of receipt elements only. What goes to the printer is never the text the
 * platform sent: it is the element that was checked, written out again from what was parsed
 * (names, attributes, nothing else) in an envelope the agent builds, so whatever the check did
 * not look at cannot reach the printer.
 */

/** What a payload document is, from its reference line (`printRecMessage messageType="4"`). */
export type PayloadKind = 'sale' | 'refund' | 'void';

/** A platform payload, checked and ready to send. */
export interface PreparedPayload {
  kind: PayloadKind;
  /** The full SOAP document to POST: the checked receipt, written anew in the agent's envelope. */
  xml: string;
}

/**
 * The largest payload taken: 512 KiB of Base64 (≈ 384 KiB of XML). A receipt's elements are a
 * few hundred bytes each and a printer closes a receipt at about 1,000 operations (fiskaltrust
 * `scu-it` `Models/ErrorInfoFactory.cs`, status 23), so a real document stays far below it.
 */
export const MAX_PAYLOAD_BASE64_CHARS = 512 * 1024;

/** The elements of a `printerFiscalReceipt` (fiskaltrust `Models/FiscalReceipt.cs`, OCA `epson_epos_print.js`). */
const RECEIPT_ELEMENTS = new Set([
  'printRecMessage',
  'beginFiscalReceipt',
  'printRecItem',
  'printRecItemAdjustment',
  'printRecRefund',
  'printRecVoid',
  'printRecVoidItem',
  'printRecSubtotal',
  'printRecSubtotalAdjustment',
  'printRecTotal',
  'printRecLotteryID',
  'printBarCode',
  'displayText',
  'directIO',
  'endFiscalReceipt',
]);

/**
 * The only `directIO` commands a receipt may carry: the customer's partita IVA (1060) and codice
 * fiscale (1061) (fiskaltrust `UnitTest/CustomerTaxIdDirectIOTests.cs`) and the lottery code
 * (1135, OCA `fiscal_epos_print/static/src/js/epson_epos_print.js`). Any other native command
 * (printing text, programming the printer, a daily closure) is not the platform's to send.
 */
const RECEIPT_DIRECT_IO = new Set(['1060', '1061', '1135']);

/**
 * What only a Custom RT document carries (Custom XML protocol manual rev 2.00: the RT refund and
 * void nodes pp.36–39, `fixedLines` p.55, `setLotteryCode` p.115, `printRecAdvancePayments` p.87,
 * `endFiscalReceiptCut` p.50, and the `IdCmd`/`idVat` attributes pp.25, 89). A payload showing one
 * is another family's document: refused as such, with Notes asking for the bill data.
 */
const CUSTOM_ELEMENTS = new Set([
  'beginRtDocRefund',
  'beginRtDocAnnulment',
  'beginRtDocRefundSpecial',
  'beginRtDocAnnulmentSpecial',
  'fixedLines',
  'setLotteryCode',
  'printRecAdvancePayments',
  'endFiscalReceiptCut',
]);
const CUSTOM_ATTRIBUTES = ['IdCmd', 'idVat'];

export { elementsOf, ORDERED_XML } from '../fiscal-it/rt/ordered-xml.js';

// Entities stay as sent: the payload is passed on to the printer, not interpreted here.
const orderedParser = new XMLParser({ ...ORDERED_XML, processEntities: false });

function invalid(message: string, why: Message): AgentError {
  return new AgentError('COMMAND_INVALID', `Fiscal payload rejected: ${message}`, {
    notes: r.payloadRefused({ why }),
  });
}

/** Strict Base64 (padding only at the end, length a multiple of 4), whitespace ignored; linear. */
export function decodeBase64(text: string): Buffer | undefined {
  const length = base64Length(text, 'whitespace');
  if (!length || length % 4 !== 0) return undefined;
  return Buffer.from(text, 'base64');
}

/**
 * The prolog rule: an XML declaration may open the document; no other processing instruction and
 * no DTD (`<!DOCTYPE`, `<!ENTITY` …) anywhere. Comments are fine. Returns the document without
 * its declaration, or undefined.
 */
function withoutProlog(text: string): string | undefined {
  const body = text.replace(/^<\?xml\s[^<>?]*\?>/, '');
  if (body.includes('<?')) return undefined;
  for (let at = body.indexOf('<!'); at >= 0; at = body.indexOf('<!', at + 2)) {
    if (!body.startsWith('<!--', at)) return undefined;
  }
  return body.trim();
}

function kindOf(elements: Array<{ name: string; node: OrderedNode }>): PayloadKind {
  for (const { name, node } of elements) {
    const attrs = (node[':@'] ?? {}) as Record<string, unknown>;
    if (name !== 'printRecMessage' || String(attrs.messageType) !== '4') continue;
    const message = String(attrs.message ?? '').trim();
    if (message.startsWith('REFUND')) return 'refund';
    if (message.startsWith('VOID')) return 'void';
  }
  return 'sale';
}

/**
 * Decodes and checks a platform payload. Rejects with COMMAND_INVALID — before anything is sent —
 * a payload over `MAX_PAYLOAD_BASE64_CHARS` (checked first), bad Base64, text that is not UTF-8
 * XML, a DTD or a processing instruction other than the XML declaration, and any document that is
 * not a sale, refund or void: another root (a report, a `printerCommand`, a non-fiscal text, the
 * platform docs' sample `<fvp_doc>`), or a receipt element outside the receipt vocabulary
 * (including a `directIO` other than the customer and lottery codes).
 */
export function preparePayload(base64: string): PreparedPayload {
  if (base64.length > MAX_PAYLOAD_BASE64_CHARS) {
    throw invalid(
      `${base64.length} characters of Base64, over the ${MAX_PAYLOAD_BASE64_CHARS} limit`,
      r.payloadTooLarge(),
    );
  }
  const bytes = decodeBase64(base64);
  if (!bytes) throw invalid('not valid Base64', r.payloadNotBase64());
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid('not UTF-8 text', r.payloadNotText());
  }
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  const body = withoutProlog(trimmed);
  if (body === undefined) {
    throw invalid('a DTD or processing instruction', r.payloadDtd());
  }
  if (!body.startsWith('<') || XMLValidator.validate(body) !== true) {
    throw invalid('not well-formed XML', r.payloadNotXml());
  }
  let top: unknown;
  try {
    top = orderedParser.parse(body);
  } catch {
    throw invalid('XML nested too deeply', r.payloadNotReceipt());
  }
  const root = theReceipt(top);
  const elements = elementsOf(root.node[root.name]);
  for (const { name, node } of elements) {
    const attributes = (node[':@'] ?? {}) as Record<string, unknown>;
    if (CUSTOM_ELEMENTS.has(name) || CUSTOM_ATTRIBUTES.some((a) => a in attributes)) {
      throw new AgentError('COMMAND_INVALID', `Fiscal payload rejected: a Custom document (<${name}>)`, {
        notes: r.payloadOtherFamily({ family: 'Custom' }),
      });
    }
    if (!RECEIPT_ELEMENTS.has(name) || elementsOf(node[name]).length > 0) {
      throw invalid(`<${name}> in a receipt`, r.payloadElement({ element: name }));
    }
    if (hasText(node[name])) throw invalid(`text inside <${name}>`, r.payloadText());
    const command = String(((node[':@'] ?? {}) as Record<string, unknown>).command ?? '');
    if (name === 'directIO' && !RECEIPT_DIRECT_IO.has(command)) {
      throw invalid(`directIO ${command} in a receipt`, r.payloadCommand({ command: command || '(none)' }));
    }
  }
  return { kind: kindOf(elements), xml: envelope(written(root)) };
}

/** Whether a node list holds text (CDATA included) besides whitespace. */
function hasText(nodes: unknown): boolean {
  if (!Array.isArray(nodes)) return false;
  return (nodes as OrderedNode[]).some((node) => '#text' in node && String(node['#text']).trim() !== '');
}

/**
 * The one `printerFiscalReceipt` of a parsed payload: the bare root, or the only element of the
 * only child of the envelope, its `Body`. Anything beside them — a `Header`, a second `Body`, a
 * sibling element, text — is refused: the printer's own SOAP reader would act on more than the
 * element checked here.
 */
function theReceipt(parsed: unknown): { name: string; node: OrderedNode } {
  const top = elementsOf(parsed);
  const first = top[0];
  if (!first || top.length !== 1 || hasText(parsed))
    throw invalid('no single root element', r.payloadNoRoot());
  let root = first;
  if (first.name === 'Envelope') {
    const parts = elementsOf(first.node.Envelope);
    const body = parts[0];
    if (parts.length !== 1 || body?.name !== 'Body' || hasText(first.node.Envelope)) {
      const names = parts.map((p) => `<${p.name}>`).join(', ') || 'nothing';
      throw invalid(
        `the SOAP envelope must hold one Body and nothing else, not ${names}`,
        r.payloadEnvelope(),
      );
    }
    const inner = elementsOf(body.node.Body);
    if (inner.length !== 1 || !inner[0] || hasText(body.node.Body)) {
      throw invalid('the SOAP body must hold exactly one element', r.payloadSoapBody());
    }
    root = inner[0];
  }
  if (root.name !== 'printerFiscalReceipt') {
    throw invalid(
      `root <${root.name}>; only printerFiscalReceipt (sale, refund, void) is accepted`,
      r.payloadRoot({ element: root.name }),
    );
  }
  if (hasText(root.node[root.name])) throw invalid('text inside the receipt', r.payloadText());
  return root;
}

/**
 * An element as parsed, written out again: its name, its attributes (namespace declarations
 * left out: the agent's envelope declares its own) and its child elements; comments and
 * whitespace go. Attribute values are read as XML reads them (line breaks are spaces, the five
 * entities and character references decoded) and escaped again, so the printer reads the same
 * values the check read.
 */
function written({ name, node }: { name: string; node: OrderedNode }): string {
  const attributes = Object.entries((node[':@'] ?? {}) as Record<string, unknown>)
    .filter(([key]) => key !== 'xmlns' && !key.startsWith('xmlns:'))
    .map(([key, value]) => ` ${key}="${attributeText(String(value))}"`)
    .join('');
  const children = elementsOf(node[name]).map(written).join('');
  return children === '' ? `<${name}${attributes} />` : `<${name}${attributes}>${children}</${name}>`;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const REFERENCE = /&(?:(lt|gt|amp|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));/g;

/** A character XML 1.0 allows (its `Char` production). */
function xmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** A raw attribute value (entities as written) → its escaped text for the agent's document. */
function attributeText(raw: string): string {
  if (raw.replace(REFERENCE, '').includes('&')) {
    throw invalid('an entity XML does not define', r.payloadNotXml());
  }
  const value = raw.replace(/[\t\n\r]/g, ' ').replace(REFERENCE, (_, named, dec, hex) => {
    if (named) return ENTITIES[named] as string;
    const code = dec ? Number(dec) : Number.parseInt(hex, 16);
    if (!xmlChar(code)) throw invalid('a character reference XML does not allow', r.payloadNotXml());
    return String.fromCodePoint(code);
  });
  return escapeXml(value).replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}
