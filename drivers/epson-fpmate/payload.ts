import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { base64Length } from '../../src/transport/base64.js';
import { epsonRefusals as r } from './messages-refusals.js';
import { envelope } from './xml-build.js';

/**
 * The platform's ready-made fpmate documents (`ItalianFiscalMachinePayload`): Base64 of a SOAP
 * envelope or of a bare root. The platform is trusted with the content of a receipt, not with the
 * printer: only sale, refund and void documents pass, with nothing a printer could be told
 * besides printing them.
 */

/** What a payload document is, from its reference line (`printRecMessage messageType="4"`). */
export type PayloadKind = 'sale' | 'refund' | 'void';

/** A platform payload, checked and ready to send. */
export interface PreparedPayload {
  kind: PayloadKind;
  /** The full SOAP document to POST. */
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
 * How FPMate documents are read wherever their order matters (the payload check here, the
 * simulated printer): elements in document order, attributes as plain strings, namespaces dropped.
 */
export const ORDERED_XML = {
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  preserveOrder: true,
  parseTagValue: false,
  parseAttributeValue: false,
} as const;

// Entities stay as sent: the payload is passed on to the printer, not interpreted here.
const orderedParser = new XMLParser({ ...ORDERED_XML, processEntities: false });

type OrderedNode = Record<string, unknown>;

/** Element children of an ordered node list: skips text, comments, the XML declaration. */
export function elementsOf(nodes: unknown): Array<{ name: string; node: OrderedNode }> {
  if (!Array.isArray(nodes)) return [];
  const out: Array<{ name: string; node: OrderedNode }> = [];
  for (const node of nodes as OrderedNode[]) {
    const name = Object.keys(node).find((k) => k !== ':@');
    if (!name || name === '#text' || name === '#comment' || name.startsWith('?')) continue;
    out.push({ name, node });
  }
  return out;
}

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
  let top: ReturnType<typeof elementsOf>;
  try {
    top = elementsOf(orderedParser.parse(body));
  } catch {
    throw invalid('XML nested too deeply', r.payloadNotReceipt());
  }
  const first = top[0];
  if (!first || top.length !== 1) throw invalid('no single root element', r.payloadNoRoot());
  let root = first;
  let wrapped = false;
  if (first.name === 'Envelope') {
    const body = elementsOf(first.node.Envelope).find((e) => e.name === 'Body');
    const inner = elementsOf(body?.node.Body);
    if (!body || inner.length !== 1 || !inner[0]) {
      throw invalid('the SOAP body must hold exactly one element', r.payloadSoapBody());
    }
    root = inner[0];
    wrapped = true;
  }
  if (root.name !== 'printerFiscalReceipt') {
    throw invalid(
      `root <${root.name}>; only printerFiscalReceipt (sale, refund, void) is accepted`,
      r.payloadRoot({ element: root.name }),
    );
  }
  const elements = elementsOf(root.node[root.name]);
  for (const { name, node } of elements) {
    if (!RECEIPT_ELEMENTS.has(name) || elementsOf(node[name]).length > 0) {
      throw invalid(`<${name}> in a receipt`, r.payloadElement({ element: name }));
    }
    const command = String(((node[':@'] ?? {}) as Record<string, unknown>).command ?? '');
    if (name === 'directIO' && !RECEIPT_DIRECT_IO.has(command)) {
      throw invalid(`directIO ${command} in a receipt`, r.payloadCommand({ command: command || '(none)' }));
    }
  }
  return { kind: kindOf(elements), xml: wrapped ? trimmed : envelope(body) };
}
