import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { elementsOf, ORDERED_XML } from '../../fiscal-it/rt/ordered-xml.js';

/**
 * Reading a request and writing an answer as the Custom XML web service does (Custom "WEB
 * SERVICES – Commands manual for 3rd generation fiscal devices" rev 2.00: roots p.14, answer
 * structure pp.25–28, getInfo's own root p.69). No SOAP envelope: the body's root is the request
 * root itself (p.14), which also carries no attributes.
 */

export interface RequestNode {
  name: string;
  attrs: Record<string, string>;
}

export interface ParsedRequest {
  root: string;
  nodes: RequestNode[];
}

// Namespaces kept (the manual's requests have none) and entities decoded, as the printer does.
const parser = new XMLParser({ ...ORDERED_XML, removeNSPrefix: false, processEntities: true });
const elements = elementsOf;

/**
 * The request's root and its child nodes in order, or undefined when the body is not one
 * well-formed XML document (a missing closing root tag is a parser error at once, XML p.31).
 */
export function parseRequest(body: string): ParsedRequest | undefined {
  const text = body.trimStart();
  if (text === '' || XMLValidator.validate(text) !== true) return undefined;
  const top = elements(parser.parse(text));
  const first = top[0];
  if (!first || top.length !== 1) return undefined;
  const nodes = elements(first.node[first.name]).map(({ name, node }) => ({
    name,
    attrs: Object.fromEntries(
      Object.entries((node[':@'] ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
    ),
  }));
  return { root: first.name, nodes };
}

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** One `addInfo` child: its name (listed in `elementList`) and its whole XML. */
export type AnswerNode = [name: string, xml: string];

/** A text node, escaped. */
export function textNode(name: string, value: string): AnswerNode {
  return [name, `<${name}>${escapeXml(value)}</${name}>`];
}

/**
 * The default answer (XML p.25): `response` with `success`/`status`, then `addInfo` with
 * `elementList` naming every node present, in the manual's order (the caller passes them so).
 */
export function responseXml(success: boolean, status: number, nodes: AnswerNode[]): string {
  const list = nodes.map(([name]) => name).join(',');
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    `<response success="${success}" status="${status}"><addInfo>` +
    `<elementList>${list}</elementList>${nodes.map(([, xml]) => xml).join('')}</addInfo></response>`
  );
}

/** getInfo's answer: its own root, no `addInfo` (XML p.69). */
export function infoXml(fields: Array<[string, string]>): string {
  const body = fields.map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`).join('');
  return `<?xml version="1.0" encoding="utf-8"?>\n<infoResp success="true" status="0">${body}</infoResp>`;
}

const pad = (n: number, width: number) => String(Math.max(0, Math.trunc(n))).padStart(width, '0');

/** A 9-digit cent amount (ejDocVat p.38, dailyTotals p.60). */
export const cents9 = (cents: number) => pad(cents, 9);
/** A 4-digit counter (nClose, fiscalDoc, dailyTotals counts). */
export const four = (n: number) => pad(n, 4);
/** A decimal amount, as getVatTotalsOnDemand writes them ("10.00", XML p.73). */
export const decimal = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${pad(Math.abs(cents) % 100, 2)}`;

/** One `<vatN>` block with rate, gross, taxable and tax in the given number style. */
export function vatBlock(
  slot: number,
  rateBp: number,
  grossCents: number,
  style: 'digits' | 'decimal',
): string {
  const taxable = taxableOf(grossCents, rateBp);
  const f = style === 'digits' ? cents9 : decimal;
  const rate = style === 'digits' ? pad(rateBp, 4) : decimal(rateBp);
  return (
    `<vat${slot}><rate>${rate}</rate><gross>${f(grossCents)}</gross>` +
    `<taxable>${f(taxable)}</taxable><tax>${f(grossCents - taxable)}</tax></vat${slot}>`
  );
}

/** The taxable part of a VAT-inclusive gross, rounded to the cent (XML p.38: 900 at 23% → 732). */
export function taxableOf(grossCents: number, rateBp: number): number {
  return Math.round((grossCents * 10000) / (10000 + rateBp));
}
