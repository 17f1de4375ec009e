import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exampleComments, readmeOptions } from '../../scripts/configuration-descriptions.js';
import { configurationReference, REFERENCE_PATH } from '../../scripts/configuration-reference.js';
import { jsonSchemaOf, optionRows } from '../../scripts/configuration-rows.js';

const scratch = mkdtempSync(join(tmpdir(), 'config-reference-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the configuration reference (docs/configuration.md)', () => {
  it('is what scripts/configuration-reference.ts writes from the schemas now', async () => {
    const committed = readFileSync(REFERENCE_PATH, 'utf8');
    expect(
      committed === (await configurationReference()),
      'docs/configuration.md differs from the schemas: run npx tsx scripts/configuration-reference.ts',
    ).toBe(true);
  });

  it('takes a description from the schema before any other source, and types, limits and defaults from it', () => {
    const schema = z.object({
      door: z.object({
        opens: z.number().int().min(1).max(10).default(3).meta({ description: 'From the schema.' }),
        color: z.enum(['red', 'blue']).optional(),
      }),
      rooms: z.array(z.object({ name: z.string() })).default([]),
    });
    const rows = optionRows(jsonSchemaOf(schema), '', (path) => ({ description: `From ${path}'s example.` }));
    expect(rows).toEqual([
      { path: 'door', type: 'object', byDefault: 'required', description: "From door's example." },
      { path: 'door.opens', type: 'integer 1–10', byDefault: '`3`', description: 'From the schema.' },
      {
        path: 'door.color',
        type: '`red`, `blue`',
        byDefault: '—',
        description: "From door.color's example.",
      },
      { path: 'rooms', type: 'list of {name}', byDefault: '`[]`', description: "From rooms's example." },
      {
        path: 'rooms[].name',
        type: 'string',
        byDefault: 'required',
        description: "From rooms[].name's example.",
      },
    ]);
  });
});

describe('descriptions from an example configuration', () => {
  const paths = new Set([
    'version',
    'a',
    'a.b',
    'a.token',
    'a.tokenEnv',
    'a.c',
    'list',
    'list[].id',
    'list[].opts',
  ]);
  const example = [
    '# The heading of the file, nobody’s description.',
    'version: 1',
    '',
    'a:',
    '  # Above b,',
    '  # on two lines.',
    '  b: 1 # and after it.',
    '  # Both token keys share this.',
    '  # token: /etc/token',
    '  # tokenEnv: TOKEN',
    '  c: 2',
    'list:',
    '  # The list itself.',
    '  - id: x # the id',
    '    opts: { k: 1 }',
    '  - id: y # a second example, not a second description',
    '    # true: prose that looks like a key is not one',
    '    opts: {}',
  ].join('\n');
  const found = exampleComments(example, (path) => paths.has(path));

  it('reads the comment above a key and after its value; a run of commented-out keys shares the prose above it', () => {
    expect(Object.fromEntries([...found].map(([path, d]) => [path, d.description]))).toEqual({
      'a.b': 'Above b, on two lines. and after it.',
      'a.token': 'Both token keys share this.',
      'a.tokenEnv': 'Both token keys share this.',
      list: 'The list itself.',
      'list[].id': 'the id',
    });
  });
});

describe('descriptions from a driver README', () => {
  it('reads the Options table: every backticked name of the first cell, the meaning, and the default as what absence means', () => {
    const readme = join(scratch, 'README.md');
    writeFileSync(
      readme,
      [
        '# A driver',
        '## Options',
        '',
        '| key | default | meaning |',
        '|---|---|---|',
        '| `host`, `port` | — | where it listens |',
        '| `tls.fingerprint` | the system’s CAs | pins a certificate \\| or not |',
        '',
        '## Other',
        '| `late` | x | not an option row |',
      ].join('\n'),
    );
    expect(Object.fromEntries(readmeOptions(readme))).toEqual({
      host: { description: 'where it listens', absent: '—' },
      port: { description: 'where it listens', absent: '—' },
      'tls.fingerprint': { description: 'pins a certificate \\| or not', absent: 'the system’s CAs' },
    });
  });
});
