import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { base64Length } from '../../src/transport/base64.js';
import { elementsOf, type OrderedNode as Node, ORDERED_XML } from '../fiscal-it/rt/ordered-xml.js';
import type { IdPair } from './idcmd.js';
import { customRefusals as r } from './messages.js';
import { element, request } from './xml.js';

/**
 * The platform's ready-made documents (`ItalianFiscalMachinePayload`, Base64) on a Custom
 * printer. A payload is one family's document: only a bare Custom `printerFiscalReceipt` (no SOAP
 * envelope: XML protocol manual rev 2.00 p.14) of Custom receipt elements passes. An Epson
 * document — a SOAP envelope, or Epson's own elements and attributes (`operator`,
 * `justification`, `printRecLotteryID`) — ends Error before anything is sent, with Notes saying
 * the printer needs the bill data. What is sent is never the platform's text: the checked
 * elements are written out again, the begin and end nodes carrying the driver's `IdCmd`s.
 */

export const MAX_PAYLOAD_BASE64_CHARS = 512 * 1024;

/** The elements of a Custom receipt, refund or void (XML pp.34–115, the pages in receipt.ts). */
const CUSTOM_ELEMENTS = new Set([
  'beginFiscalReceipt',
  'beginRtDocRefund',
  'beginRtDocAnnulment',
  'beginRtDocRefundSpecial',
  'beginRtDocAnnulmentSpecial',
  'printRecItem',
  'printRecItemAdjustment',
  'printRecSubtotal',
  'printRecSubtotalAdjustment',
  'printRecAdvancePayments',
  'printRecMessage',
  'printRecTotal',
  'fixedLines',
  'setLotteryCode',
  'endFiscalReceipt',
  'endFiscalReceiptCut',
]);
const BEGIN = /^begin/;
const END = /^endFiscalReceipt/;
/** What only an Epson (fpmate) document carries (Epson Fiscal ePOS-Print; fiskaltrust `Models/FiscalReceipt.cs`). */
const EPSON_ELEMENTS = new Set([
  'Envelope',
  'printRecLotteryID',
  'printRecVoidItem',
  'displayText',
  'printBarCode',
]);
const EPSON_ATTRIBUTES = new Set(['operator', 'justification', 'index']);

export interface CustomPayload {
  kind: 'sale' | 'refund' | 'void';
  /** Writes the checked document with these `IdCmd`s on its begin and end nodes. */
  xml(ids: IdPair): string;
}

const parser = new XMLParser(ORDERED_XML);
const elements = elementsOf;

function refused(problem: string, notes: Message = r.payloadInvalid({ problem })): AgentError {
  return new AgentError('COMMAND_INVALID', `Fiscal payload rejected: ${problem}`, { notes });
}

const foreign = (what: string) =>
  refused(`an Epson document (${what})`, r.foreignPayload({ family: 'Epson' }));

export function prepareCustomPayload(base64: string): CustomPayload {
  if (base64.length > MAX_PAYLOAD_BASE64_CHARS) throw refused('too large');
  const length = base64Length(base64, 'whitespace');
  if (!length || length % 4 !== 0) throw refused('not Base64');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(base64, 'base64'));
  } catch {
    throw refused('not UTF-8 text');
  }
  const body = text
    .replace(/^\uFEFF/, '')
    .trim()
    .replace(/^<\?xml\s[^<>?]*\?>/, '')
    .trim();
  if (body.includes('<?') || /<!(?!--)/.test(body)) throw refused('a DTD or processing instruction');
  if (!body.startsWith('<') || XMLValidator.validate(body) !== true) throw refused('not well-formed XML');
  const top = elements(parser.parse(body));
  const root = top[0];
  if (!root || top.length !== 1) throw refused('no single root element');
  if (EPSON_ELEMENTS.has(root.name)) throw foreign(`<${root.name}>`);
  if (root.name !== 'printerFiscalReceipt') throw refused(`root <${root.name}>`);
  const children = elements(root.node[root.name]);
  for (const { name, node } of children) {
    if (EPSON_ELEMENTS.has(name)) throw foreign(`<${name}>`);
    const attrs = Object.keys((node[':@'] ?? {}) as Node);
    if (attrs.some((a) => EPSON_ATTRIBUTES.has(a))) throw foreign(`<${name}> attributes`);
    if (!CUSTOM_ELEMENTS.has(name)) throw refused(`<${name}> in a receipt`);
    if ((node[name] as unknown[]).length > 0) throw refused(`content inside <${name}>`);
  }
  const first = children[0]?.name ?? '';
  const last = children[children.length - 1]?.name ?? '';
  if (
    !BEGIN.test(first) ||
    !END.test(last) ||
    children.filter((c) => BEGIN.test(c.name) || END.test(c.name)).length !== 2
  )
    throw refused('not one document from its begin node to its end node');
  const kind = /Annulment/.test(first) ? 'void' : /Refund/.test(first) ? 'refund' : 'sale';
  return {
    kind,
    xml: (ids) =>
      request(
        'printerFiscalReceipt',
        children.map(({ name, node }, i) => {
          const attrs = { ...((node[':@'] ?? {}) as Record<string, string>) };
          delete attrs.IdCmd;
          delete attrs.checkOnly;
          if (i === 0) attrs.IdCmd = ids.begin;
          if (i === children.length - 1) attrs.IdCmd = ids.end;
          return element(name, attrs);
        }),
      ),
  };
}
