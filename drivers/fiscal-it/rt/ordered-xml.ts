/**
 * How RT documents are read wherever their order matters (a family's payload check, its printer
 * simulator): elements in document order, attributes as plain strings, namespaces dropped
 * (fast-xml-parser's `preserveOrder`). The same for every family whose protocol is XML.
 */
export const ORDERED_XML = {
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  preserveOrder: true,
  parseTagValue: false,
  parseAttributeValue: false,
} as const;

export type OrderedNode = Record<string, unknown>;

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
