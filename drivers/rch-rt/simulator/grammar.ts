/**
 * The native RCH command grammar, as the public sources build it: a prefix (`=` an operation,
 * `<<` a query, `>`/`>>` programming), a verb (`R1`, `T4`, `C453`, `"`, `%-`, `k` …), then fields
 * `/<tag><value>`, where the tag says what the value is: `$` an amount or selector, `*` a quantity
 * or percentage, `&` a flag or a date, `[` and `]` two numbers (a Z and a document number), `(`…`)`
 * a text, `?` a sub-command (`?C`, `?L`, `?A`, `?s`), `_`, `@`, `^` programming flags.
 * Source: rch-driver-js-core `src/Core.ts` (`departmentSell` "=R1/$1000/(DESC)/*2", `payment`
 * "=T3/$2000", `returnGoods` "=r/&DDMMYY/[Z/]N/*1", `lottery` '="/?L/$1/(…)', the `<</?…`
 * queries, `R(…)`/`T(…)` programming with `/_`, `/@`, `/^`); the order of fields is free
 * (lyancoder/fiscal-printer README sends "=R2/$100/*2/(CAFFE)", optyker-web
 * `rch-connector/rch-optyker-connector.ps1` "=R1/$1250/*1/(OCCHIALI)").
 *
 * A text runs to the `)` that ends the command or is followed by another field, so a description
 * may hold `/` or `)`. Anything else is not a command, and the printer answers 101.
 */

export interface NativeField {
  tag: string;
  value: string;
}

export interface NativeCommand {
  raw: string;
  prefix: '=' | '<<' | '>' | '>>';
  verb: string;
  fields: NativeField[];
}

const TAGS = '$*&[]()?_@^';

/** The tag's value, or undefined when the command has no such field. */
export function field(command: NativeCommand, tag: string): string | undefined {
  return command.fields.find((f) => f.tag === tag)?.value;
}

/** Parses one native command; undefined when it does not follow the grammar. */
export function parseNative(raw: string): NativeCommand | undefined {
  const prefix = raw.startsWith('<<')
    ? '<<'
    : raw.startsWith('>>')
      ? '>>'
      : raw.startsWith('=')
        ? '='
        : raw.startsWith('>')
          ? '>'
          : undefined;
  if (!prefix) return undefined;
  const body = raw.slice(prefix.length);
  const slash = body.indexOf('/');
  const verb = slash < 0 ? body : body.slice(0, slash);
  const fields: NativeField[] = [];
  let i = slash < 0 ? body.length : slash;
  while (i < body.length) {
    if (body[i] !== '/') return undefined;
    const tag = body[i + 1];
    if (tag === undefined || !TAGS.includes(tag) || tag === ')') return undefined;
    if (tag === '(') {
      const end = textEnd(body, i + 2);
      if (end < 0) return undefined;
      fields.push({ tag, value: body.slice(i + 2, end) });
      i = end + 1;
      continue;
    }
    const next = body.indexOf('/', i + 2);
    const stop = next < 0 ? body.length : next;
    fields.push({ tag, value: body.slice(i + 2, stop) });
    i = stop;
  }
  return { raw, prefix, verb, fields };
}

/** The index of the `)` closing a text opened at `from`, or -1. */
function textEnd(body: string, from: number): number {
  for (let j = body.indexOf(')', from); j >= 0; j = body.indexOf(')', j + 1)) {
    if (j === body.length - 1) return j;
    const after = body[j + 2];
    if (body[j + 1] === '/' && after !== undefined && TAGS.includes(after)) return j;
  }
  return -1;
}

/** A whole number written in digits only, or undefined. */
export function digits(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,9}$/.test(value)) return undefined;
  return Number(value);
}
