import { z } from 'zod';
import type { Described } from './configuration-descriptions.js';

/**
 * The options of a zod schema as rows of the configuration reference
 * (`scripts/configuration-reference.ts`): each option's dotted path, a type for a person (with
 * its limits and choices), its default or "required", and a description found by the caller.
 * The schema is read through `z.toJSONSchema`, so what the reference says is what zod checks.
 */

/** The part of a JSON Schema (draft 2020-12, as zod writes it) the reference reads. */
export interface JsonSchema {
  type?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

export interface OptionRow {
  path: string;
  type: string;
  byDefault: string;
  description: string;
}

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  // `input`: what a person writes (a key with a default is optional); a transform's output is not
  // written by anyone, so it cannot be represented and is left out.
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

const code = (value: unknown): string => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

function range(s: JsonSchema): string {
  const huge = (n: number | undefined) => n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER;
  const low = !huge(s.minimum) ? s.minimum : undefined;
  const high = !huge(s.maximum) ? s.maximum : undefined;
  if (low !== undefined && high !== undefined) return ` ${low}–${high}`;
  const parts = [
    low !== undefined ? `≥ ${low}` : '',
    s.exclusiveMinimum !== undefined ? `> ${s.exclusiveMinimum}` : '',
    high !== undefined ? `≤ ${high}` : '',
    s.exclusiveMaximum !== undefined ? `< ${s.exclusiveMaximum}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? ` ${parts.join(', ')}` : '';
}

function lengths(s: JsonSchema, unit: string): string {
  const min = s.minLength ?? s.minItems;
  const max = s.maxLength ?? s.maxItems;
  if (max !== undefined && max === min) return `, ${max} ${unit}`;
  if (max !== undefined) return `, ${min ?? 0}–${max} ${unit}`;
  if (min !== undefined && min > 1) return `, at least ${min} ${unit}`;
  return '';
}

/** One line for a person: "integer 1–65535", "`plain` or `json`", "map: string → integer". */
export function typeOf(s: JsonSchema): string {
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
  if (s.const !== undefined) return code(s.const);
  if (s.enum) return s.enum.map(code).join(', ');
  switch (s.type) {
    case 'string': {
      const shape = s.format === 'uri' ? 'URL' : 'string';
      const pattern = s.pattern ? ` matching ${code(s.pattern)}` : '';
      return `${shape}${pattern}${lengths(s, 'characters')}`;
    }
    case 'integer':
    case 'number':
      return `${s.type}${range(s)}`;
    case 'boolean':
      return 'boolean';
    case 'array':
      return `list of ${s.items ? typeOf(s.items) : 'any'}${lengths(s, 'items')}`;
    case 'object': {
      if (s.properties) return `{${Object.keys(s.properties).join(', ')}}`;
      const value = typeof s.additionalProperties === 'object' ? typeOf(s.additionalProperties) : 'any';
      return `map: ${s.propertyNames ? typeOf(s.propertyNames) : 'string'} → ${value}`;
    }
    default:
      return 'any';
  }
}

/**
 * Every option under `s`, depth first in the schema's order; an object with named keys is a row
 * and then its keys, a list of such objects adds `[]`.
 */
export function optionRows(
  s: JsonSchema,
  prefix: string,
  describe: (path: string) => Described | undefined,
): OptionRow[] {
  const rows: OptionRow[] = [];
  for (const [key, sub] of Object.entries(s.properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    const nested = sub.type === 'object' && sub.properties !== undefined;
    const listOfObjects = sub.type === 'array' && sub.items?.properties !== undefined;
    const found = sub.description ? { description: sub.description } : describe(path);
    let byDefault = '—';
    if (s.required?.includes(key)) byDefault = 'required';
    else if (sub.default !== undefined && !nested) byDefault = code(sub.default);
    let description = found?.description ?? '';
    const absent = found?.absent;
    if (byDefault === '—' && absent && !/^(—|-|required)/.test(absent)) {
      description = description
        ? `${description.replace(/[.\s]+$/, '')}. Absent: ${absent}.`
        : `Absent: ${absent}.`;
    }
    rows.push({ path, type: nested ? 'object' : typeOf(sub), byDefault, description });
    if (nested) rows.push(...optionRows(sub, path, describe));
    if (listOfObjects && sub.items) rows.push(...optionRows(sub.items, `${path}[]`, describe));
  }
  return rows;
}

/** Every dotted path of `s`, to tell a key from prose that looks like one. */
export function pathsOf(s: JsonSchema, prefix = ''): Set<string> {
  const paths = new Set<string>();
  for (const row of optionRows(s, prefix, () => undefined)) paths.add(row.path);
  return paths;
}
