import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { fiscalRuleFields } from '../drivers/fiscal-it/rules.js';
import { driverRegistry } from '../drivers/index.js';
import { ConfigSchema } from '../src/config.js';
import { type Described, exampleComments, readmeOptions } from './configuration-descriptions.js';

/**
 * Writes `docs/configuration.md`, the configuration reference, from the schemas the agent
 * validates with: the core's (`ConfigSchema` in `src/config.ts`) and every driver family's
 * `options:` schema (`configSchema` of each factory in `drivers/index.ts`). The options, their
 * types, limits, choices, defaults and whether they are required come from `z.toJSONSchema` of
 * those schemas, so the reference cannot name an option the code lacks nor miss one it has:
 * `test/docs/configuration-reference.test.ts` fails when the committed file differs from what
 * this script writes now.
 *
 * How a description gets in (doc comments are not there at run time), first found wins:
 * 1. the schema's own: `.meta({ description: '…' })` (or `.describe('…')`) on the zod schema;
 * 2. for the core's options, a comment in `config/agent.example.yaml`, then in
 *    `config/simulator.yaml`, above the key or after its value (see `exampleComments`);
 * 3. for a driver's options, the `## Options` table of its family's README, then, for the fiscal
 *    rules every RT family shares (`fiscalRuleFields`), the table of `drivers/fiscal-it/README.md`.
 * An option none of them describes is listed with its type and default only.
 *
 * Run: `npx tsx scripts/configuration-reference.ts` (after changing a schema, an example's
 * comments or a driver README's options table).
 */

const root = join(import.meta.dirname, '..');
export const REFERENCE_PATH = join(root, 'docs', 'configuration.md');

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

const cell = (text: string): string => text.replace(/\r?\n/g, ' ').replace(/(?<!\\)\|/g, '\\|');

function table(rows: OptionRow[]): string {
  const lines = ['| option | type | default | what it means |', '|---|---|---|---|'];
  let previous: OptionRow | undefined;
  for (const row of rows) {
    // A long description several keys share (a run of commented-out keys) is written once.
    const shared = previous && row.description.length > 160 && row.description === previous.description;
    const description = shared ? `As \`${previous?.path}\`.` : row.description;
    if (!shared) previous = row;
    lines.push(`| \`${row.path}\` | ${cell(row.type)} | ${cell(row.byDefault)} | ${cell(description)} |`);
  }
  return lines.join('\n');
}

/** Every dotted path of `s`, to tell a key from prose that looks like one. */
function pathsOf(s: JsonSchema, prefix = ''): Set<string> {
  const paths = new Set<string>();
  for (const row of optionRows(s, prefix, () => undefined)) paths.add(row.path);
  return paths;
}

function coreRows(): OptionRow[] {
  const schema = jsonSchemaOf(ConfigSchema);
  const paths = pathsOf(schema);
  const isPath = (path: string) => paths.has(path);
  const sources = ['config/agent.example.yaml', 'config/simulator.yaml'].map((file) =>
    exampleComments(readFileSync(join(root, file), 'utf8'), isPath),
  );
  return optionRows(schema, '', (path) => sources.map((source) => source.get(path)).find(Boolean));
}

async function driverSections(): Promise<string[]> {
  const fiscalRuleKeys = new Set(Object.keys(fiscalRuleFields(99)));
  const fiscalCore = readmeOptions(join(root, 'drivers', 'fiscal-it', 'README.md'));
  const withReadme: string[] = [];
  const simulated: string[] = [];
  for (const [kind, load] of driverRegistry) {
    const factory = await load();
    const readme = join(root, 'drivers', kind, 'README.md');
    const own = readmeOptions(readme);
    const rows = optionRows(jsonSchemaOf(factory.configSchema), '', (path) => {
      const top = path.split('.')[0] ?? path;
      return own.get(path) ?? (fiscalRuleKeys.has(top) ? fiscalCore.get(path) : undefined);
    });
    const link = relative(join(root, 'docs'), readme);
    const heading = `### \`${kind}\` (${factory.deviceType})`;
    if (own.size > 0) {
      withReadme.push(
        `${heading}\n\nSet up, protocol and every option in words: [\`drivers/${kind}/README.md\`](${link}).\n\n${table(rows)}`,
      );
    } else {
      simulated.push(`${heading}\n\nA simulated device, in-process (\`drivers/sim/\`).\n\n${table(rows)}`);
    }
  }
  return [...withReadme, ...simulated];
}

/** The whole reference, as `docs/configuration.md` holds it. */
export async function configurationReference(): Promise<string> {
  const drivers = await driverSections();
  return `<!-- Generated by scripts/configuration-reference.ts from the zod schemas: do not edit; run npx tsx scripts/configuration-reference.ts -->

# Configuration reference

The agent reads one YAML file (\`frontdesk-agent run --config FILE\`), \`version: 1\`. Start from
[\`config/agent.example.yaml\`](../config/agent.example.yaml); \`npm start\` uses
[\`config/simulator.yaml\`](../config/simulator.yaml). \`frontdesk-agent check-config --config
FILE\` validates a file offline, each device's driver options included, and names the path of
every problem; \`--online\` also asks the platform about the tokens and the devices.

This page is generated from the schemas the agent validates with, so it lists exactly the options
the code has, with their types, limits and defaults. A description comes from the schema itself,
else from the comments of the example configurations (the agent's options) or from the \`## Options\`
table of the driver's README (a driver's options); how to add one is in the doc comment of
[\`scripts/configuration-reference.ts\`](../scripts/configuration-reference.ts). "required": the
file must set it; "—": optional, no default.

## The agent (\`src/config.ts\`)

${table(coreRows())}

## Device options

Each entry of \`devices\` names a \`driver\`; its \`options\` are checked by that driver's own
schema (unknown keys are refused by every real driver). More on each family:
[drivers and families](drivers.md).

${drivers.join('\n\n')}
`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(REFERENCE_PATH, await configurationReference());
  process.stdout.write(`wrote ${relative(root, REFERENCE_PATH)}\n`);
}
