import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { AgentError } from '../../src/errors.js';
import { FPMATE_ROOTS, type FpmateRoot, isFpmateRoot } from './protocol.js';
import { envelope } from './xml-build.js';

/** A platform payload, checked and ready to send. */
export interface PreparedPayload {
  root: FpmateRoot;
  /** The full SOAP document to POST. */
  xml: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const orderedParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  preserveOrder: true,
  parseTagValue: false,
  parseAttributeValue: false,
});

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

function invalid(message: string, what: string): AgentError {
  return new AgentError('COMMAND_INVALID', `Fiscal payload rejected: ${message}`, {
    notes: `The platform sent a fiscal document the printer cannot take (${what}); nothing was printed. Ask IT to check how the platform builds fiscal payloads.`,
  });
}

/**
 * Decodes and checks a platform payload (Base64 of a fpmate document). Accepts a full SOAP
 * envelope holding exactly one fpmate root, or a bare root (wrapped in an envelope here).
 * Rejects with COMMAND_INVALID — before anything is sent — on bad Base64, text that is not
 * UTF-8 XML, or any other root (such as the platform docs' sample `<fvp_doc>`).
 */
export function preparePayload(base64: string): PreparedPayload {
  const compact = base64.replace(/\s+/g, '');
  if (compact === '' || !BASE64.test(compact)) throw invalid('not valid Base64', 'it is not valid Base64');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(compact, 'base64'));
  } catch {
    throw invalid('not UTF-8 text', 'it is not text');
  }
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!trimmed.startsWith('<') || XMLValidator.validate(trimmed) !== true) {
    throw invalid('not well-formed XML', 'it is not XML');
  }
  const top = elementsOf(orderedParser.parse(trimmed));
  const first = top[0];
  if (!first || top.length !== 1) throw invalid('no single root element', 'it has no single root element');
  let root = first;
  let wrapped = false;
  if (first.name === 'Envelope') {
    const body = elementsOf(first.node.Envelope).find((e) => e.name === 'Body');
    const inner = elementsOf(body?.node.Body);
    if (!body || inner.length !== 1 || !inner[0]) {
      throw invalid('the SOAP body must hold exactly one element', 'its SOAP body is not one document');
    }
    root = inner[0];
    wrapped = true;
  }
  if (!isFpmateRoot(root.name)) {
    throw invalid(
      `unknown root <${root.name}>; expected one of ${FPMATE_ROOTS.join(', ')}`,
      `<${root.name}> is not an Epson fiscal document`,
    );
  }
  const xml = wrapped ? trimmed : envelope(trimmed.replace(/^<\?xml[^>]*\?>\s*/, ''));
  return { root: root.name, xml };
}
