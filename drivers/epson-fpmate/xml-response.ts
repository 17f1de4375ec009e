import { XMLParser } from 'fast-xml-parser';

/**
 * An fpmate answer. `addInfo` is flattened to text values by element name (`printerStatus`,
 * `fiscalReceiptNumber`, `fiscalReceiptAmount` with a decimal comma, `responseData` …).
 */
export interface FpmateResponse {
  success: boolean;
  code: string;
  status: string;
  addInfo: Record<string, string>;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
});

type Tree = Record<string, unknown>;

function isTree(value: unknown): value is Tree {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Depth-first search for the first element called `name`, whatever its namespace prefix. */
function findFirst(node: unknown, name: string): unknown {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findFirst(item, name);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isTree(node)) return undefined;
  if (name in node) {
    const value = node[name];
    return Array.isArray(value) ? value[0] : value;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@_')) continue;
    const found = findFirst(value, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

function text(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  if (Array.isArray(value)) return text(value[0]);
  if (isTree(value) && '#text' in value) return text(value['#text']);
  return '';
}

/**
 * Parses an fpmate answer: the first `response` element anywhere in the document (SOAP prefixes
 * vary between firmware versions). Undefined when the text is not XML, carries a DTD (whose
 * entities a printer never needs and a hostile peer could use to inflate the answer), or holds no
 * `response`. Never throws.
 */
export function parseFpmateResponse(xml: string): FpmateResponse | undefined {
  if (/<!(?:DOCTYPE|ENTITY)/i.test(xml)) return undefined;
  let tree: unknown;
  let response: unknown;
  try {
    tree = parser.parse(xml);
    response = findFirst(tree, 'response');
  } catch {
    return undefined;
  }
  if (response === undefined) return undefined;
  const node: Tree = isTree(response) ? response : {};
  const addInfo: Record<string, string> = {};
  const info = node.addInfo;
  if (isTree(info)) {
    for (const [key, value] of Object.entries(info)) {
      if (!key.startsWith('@_')) addInfo[key] = text(value).trim();
    }
  }
  return {
    success: text(node['@_success']).trim().toLowerCase() === 'true',
    code: text(node['@_code']).trim(),
    status: text(node['@_status']).trim(),
    addInfo,
  };
}
