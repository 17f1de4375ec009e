import { XMLParser } from 'fast-xml-parser';
import { type Attributes, attributeList, escapeXml } from '../fiscal-it/rt/xml-text.js';

/**
 * Custom's XML protocol, both ways (XML protocol manual rev 2.00, "WEB SERVICES – Commands manual
 * for 3rd generation fiscal devices", in fiskaltrust/middleware `scu-it/…/CustomRTPrinter/docs/
 * XMLProtocol.pdf`). A request is one bare root — no SOAP envelope, no attributes on the root
 * (p.14) — POSTed as UTF-8 text to `/xml/printer.htm` (p.13). An answer is `<response success
 * status><addInfo>…</addInfo></response>` (pp.25–28), or `<infoResp>` for `getInfo` (p.69).
 */

export { type Attributes, escapeXml };

/**
 * One element with an explicit end tag, as the manual writes every one (pp.117–121); undefined
 * attributes are left out, values escaped.
 */
export function element(name: string, attributes: Attributes = {}): string {
  return `<${name}${attributeList(attributes)}></${name}>`;
}

/** A request document: the declaration the manual's examples carry (pp.117–121) and one root. */
export function request(root: string, children: readonly string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<${root}>${children.join('')}</${root}>`;
}

/** `printerCommand` takes exactly one child (XML p.19). */
export const command = (child: string) => request('printerCommand', [child]);

/** A native command carried in XML: `command` its four digits, `data` what follows them (p.47). */
export const directIo = (code: string, data = '') => command(element('directIO', { command: code, data }));

/**
 * Text one printer field can hold: the native protocol takes no byte above 127 (directIO manual
 * rev 6.00 p.21), so accented letters lose their accent and anything else becomes a space;
 * whitespace collapsed; cut to `max` (22 for descriptions: XML p.89).
 */
export function printerText(text: string, max: number): string {
  const ascii = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’‘]/g, "'")
    .replace(/[^\x20-\x7e]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return ascii.slice(0, max).trimEnd();
}

/** A Custom answer, `addInfo` flattened to text by element name; `lastIdCmd` by its attribute. */
export interface CustomResponse {
  success: boolean;
  /** The error code, 0 on success (XML p.25; the manual's own examples quote it loosely). */
  status: number;
  addInfo: Record<string, string>;
  /** The `IdCmd` attribute of `lastIdCmd` (p.25): the last ID the printer was given. */
  lastIdCmd?: string;
  /** The root's name: `response`, `infoResp` … */
  root: string;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
});

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => v !== null && typeof v === 'object' && !Array.isArray(v);

function text(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return text(value[0]);
  if (isTree(value) && '#text' in value) return text(value['#text']);
  return '';
}

/**
 * Reads an answer leniently — `success="TRUE"`, `status= 0` unquoted and whitespace before the
 * declaration all occur in the manual's examples (pp.28, 109) or lyancoder's fake printer.
 * Undefined when the body is not a Custom answer at all.
 */
export function parseResponse(body: string): CustomResponse | undefined {
  const fixed = body.trim().replace(/(\s\w+)=\s*([^"'\s>]+)/g, '$1="$2"');
  let tree: unknown;
  try {
    tree = parser.parse(fixed);
  } catch {
    return undefined;
  }
  if (!isTree(tree)) return undefined;
  const root = Object.keys(tree).find((k) => !k.startsWith('?') && isTree(tree[k]));
  if (!root) return undefined;
  const node = tree[root] as Tree;
  const success = String(node['@_success'] ?? '').toLowerCase();
  if (success !== 'true' && success !== 'false') return undefined;
  const status = Number(String(node['@_status'] ?? '0').trim() || '0');
  const info = isTree(node.addInfo) ? node.addInfo : node;
  const addInfo: Record<string, string> = {};
  for (const [key, value] of Object.entries(info)) {
    if (!key.startsWith('@_')) addInfo[key] = text(value);
  }
  const last = info.lastIdCmd;
  const id = isTree(last) ? last['@_IdCmd'] : undefined;
  const out: CustomResponse = {
    success: success === 'true',
    status: Number.isFinite(status) ? status : -1,
    addInfo,
    root,
  };
  if (typeof id === 'string' && id) out.lastIdCmd = id;
  return out;
}
