/**
 * The XML text both RT families write: escaping for attribute values and element content, and an
 * element's attribute list. Each family keeps its own element shape (Epson's fpmate writes
 * `<a />`, Custom's manual `<a></a>`) and its own document around it.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Escapes text for an attribute value or element content. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export type Attributes = Record<string, string | number | undefined>;

/** ` key="value"` for each defined attribute, in order, values escaped; undefined ones left out. */
export function attributeList(attributes: Attributes): string {
  let out = '';
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined) out += ` ${key}="${escapeXml(String(value))}"`;
  }
  return out;
}
