/**
 * HTML building for the status page. Every interpolated value is escaped unless it is already a
 * `SafeHtml` made by this module, so text from the platform or a device (guest names, notes,
 * device summaries) can never become markup. The escaping is valid in element content and in
 * quoted attribute values.
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for element content or a quoted attribute value. */
export function escapeHtml(value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value);
  return text.replace(/[&<>"'`]/g, (ch) => ENTITIES[ch] ?? ch);
}

/** Markup that has already been escaped (or is a constant of ours). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((v: HtmlValue) => render(v)).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

/**
 * Tagged template: `html\`<td>${name}</td>\`` escapes `name`. Arrays are concatenated, `false`,
 * `null` and `undefined` render as nothing (so `${cond && html\`…\`}` works).
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Joins fragments into one. */
export function join(parts: readonly HtmlValue[], separator: HtmlValue = ''): SafeHtml {
  const sep = render(separator);
  return new SafeHtml(parts.map((p) => render(p)).join(sep));
}

/** Marks a constant of ours as markup. Never pass it data from outside. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
