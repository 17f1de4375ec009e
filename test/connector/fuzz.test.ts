import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMAND_LIMITS, commandBoundsViolation } from '../../src/connector/bounds.js';
import { parseRetryAfter, platformError } from '../../src/connector/http-errors.js';
import type { FetchLike } from '../../src/connector/http-transport.js';
import { createConnectorClient } from '../../src/connector/index.js';
import { connectorMessages } from '../../src/connector/messages.js';
import {
  type NormalizedItem,
  normalizeCommand,
  normalizeFiscalMachineCommand,
  parseEmbeddedJson,
} from '../../src/connector/model.js';
import { parseSocketMessage } from '../../src/connector/websocket.js';
import { AgentError } from '../../src/errors.js';
import { english } from '../../src/messages/render.js';
import {
  wireFiscalCommand,
  wireKeyCommand,
  wireLegacyFiscalCommand,
  wirePrinterCommand,
} from '../commands/helpers/commands.js';

/**
 * Property-based checks of the connector (issue 13, "Fuzzing in CI"): whatever the platform
 * sends — any JSON as a command of any shape, mutations of well-formed commands, any text as an
 * embedded JSON field or a WebSocket message, any status, body and `Retry-After` as an answer —
 * nothing throws past the component: a command is normalised or refused as COMMAND_INVALID, and
 * what is accepted can be journaled; a call resolves or rejects with an AgentError. Seeded, a
 * bounded number of runs of bounded inputs (a few thousand per property).
 */
const SEED = 0x13f022;
const RUNS = 2000;

const SHAPES: Array<[string, () => Record<string, unknown>, (raw: unknown) => NormalizedItem]> = [
  ['fiscal flat', () => wireFiscalCommand({ id: 'f1' }), normalizeFiscalMachineCommand],
  ['legacy fiscal Data', () => wireLegacyFiscalCommand({ id: 'l1' }), normalizeCommand],
  ['key cutter', () => wireKeyCommand({ id: 'k1' }), normalizeCommand],
  ['printer', () => wirePrinterCommand({ id: 'p1' }), normalizeCommand],
];

/** Any JSON value, including deep and wide ones the bounds are there for. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 30, max: 3000 }).map((levels) => {
      let value: unknown = 'leaf';
      for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
      return value;
    }),
  },
  { weight: 1, arbitrary: fc.integer({ min: 16_000, max: 70_000 }).map((n) => 'x'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 20, max: 40 })
      .map((levels) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`),
  },
);

/** A path into a command: keys it has, and keys it does not. */
const pathSegment = fc.oneof(
  fc.constantFrom(
    'Id',
    'State',
    'CreatedUtc',
    'Device',
    'Type',
    'Data',
    'Bill',
    'CommandData',
    'Discriminator',
    'ItalianFiscalMachinePayload',
    'Payload',
    'FiscalMachineData',
    'KeyCutterData',
    'LockIds',
    'KeyCount',
    'FileData',
    'CopyCount',
    'Revenue',
    'Amount',
    'TaxValues',
    'Creator',
  ),
  fc.string({ maxLength: 6 }),
);

/** Sets (or deletes) the value at `path`, creating objects on the way. */
function mutate(root: Record<string, unknown>, path: string[], value: unknown, remove: boolean): void {
  let node: Record<string, unknown> = root;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path.at(-1) as string;
  if (remove) delete node[last];
  else node[last] = value;
}

/** The normaliser's contract: an answer, either a command that can be journaled or a refusal. */
function wellBehaved(item: NormalizedItem): boolean {
  if (!item.ok) return !(item.error instanceof Error) && item.error.code === 'COMMAND_INVALID';
  // What is accepted can be journaled: JSON.stringify does not throw (a stack overflow did).
  return JSON.stringify(item.command).length > 0;
}

describe('fuzzing command normalisation', () => {
  it.each(SHAPES)(
    'any JSON value as a %s command: normalised or COMMAND_INVALID',
    (_name, _wire, normalize) => {
      fc.assert(
        fc.property(hostileValue, (raw) => wellBehaved(normalize(raw))),
        { seed: SEED, numRuns: RUNS },
      );
    },
  );

  it.each(SHAPES)(
    'a %s command with up to 4 fields changed anywhere: never a throw',
    (_name, wire, normalize) => {
      const mutation = fc.record({
        path: fc.array(pathSegment, { minLength: 1, maxLength: 5 }),
        value: hostileValue,
        remove: fc.boolean(),
      });
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
          const raw = structuredClone(wire());
          for (const m of mutations) mutate(raw, m.path, m.value, m.remove);
          return wellBehaved(normalize(raw));
        }),
        { seed: SEED, numRuns: RUNS },
      );
    },
  );

  it('any text as embedded JSON: a value within the bounds, or an error', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.json({ maxDepth: 6 })), (text) => {
        const parsed = parseEmbeddedJson(text);
        return (
          typeof parsed.value === 'object' &&
          (parsed.error !== undefined || commandBoundsViolation(parsed.value) === undefined)
        );
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('fuzzing the WebSocket message parser', () => {
  const eventish = fc.record(
    {
      Type: fc.oneof(fc.constant('DeviceCommand'), fc.string({ maxLength: 20 })),
      Id: fc.oneof(fc.uuid(), fc.string({ maxLength: 300 }), fc.constant(null), fc.integer()),
      State: fc.oneof(fc.constantFrom('Pending', 'Cancelled', 'Processing'), fc.string({ maxLength: 60 })),
    },
    { requiredKeys: [] },
  );
  it('any text, any JSON, any event list: events with bounded ids, or a reason', () => {
    const message = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.json({ maxDepth: 5 }),
      fc
        .array(fc.oneof(eventish, fc.jsonValue({ maxDepth: 2 })), { maxLength: 30 })
        .map((Events) => JSON.stringify({ Events })),
    );
    fc.assert(
      fc.property(message, (text) => {
        const parsed = parseSocketMessage(text);
        if (!parsed.ok) return typeof parsed.reason === 'string';
        return parsed.events.every((e) => e.id.length > 0 && e.id.length <= COMMAND_LIMITS.maxIdChars);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('fuzzing what the platform answers', () => {
  const answer = fc.record({
    status: fc.oneof(
      fc.constantFrom(200, 400, 401, 403, 404, 409, 413, 429, 500, 503),
      fc.integer({ min: 100, max: 599 }),
    ),
    body: fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.json({ maxDepth: 4 }),
      fc
        .record({
          Message: fc.oneof(fc.string({ maxLength: 2000 }), fc.jsonValue({ maxDepth: 2 })),
          RequestId: fc.jsonValue({ maxDepth: 1 }),
        })
        .map((b) => JSON.stringify(b)),
      fc.array(hostileValue, { maxLength: 3 }).map((Commands) => JSON.stringify({ Commands, Cursor: null })),
    ),
    retryAfter: fc.option(
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.nat().map(String),
        fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toUTCString())),
      ),
      { nil: null },
    ),
  });

  it('any status, body and Retry-After: the call resolves or rejects with an AgentError', async () => {
    await fc.assert(
      fc.asyncProperty(answer, async ({ status, body, retryAfter }) => {
        const fetch: FetchLike = async () => ({
          status,
          ok: status >= 200 && status < 300,
          statusText: 'status',
          headers: { get: (name) => (name.toLowerCase() === 'retry-after' ? retryAfter : null) },
          text: async () => body,
        });
        const client = createConnectorClient({
          baseUrl: 'https://platform.example',
          clientToken: 'client-FUZZ-000111',
          accessToken: 'access-FUZZ-000222',
          client: 'fuzz 1.0',
          fetch,
          retries: 0,
        });
        try {
          const items = await client.activeCommands();
          return items.every(wellBehaved);
        } catch (e) {
          return e instanceof AgentError && e.message.length <= 1000 && english(e.notes).length <= 1000;
        }
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('parseRetryAfter: a finite wait or none, for any header', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 500 }), fc.stringMatching(/^\d{1,400}(\.\d{1,5})?$/)),
        (value) => {
          const ms = parseRetryAfter(value, Date.UTC(2026, 0, 1));
          return ms === undefined || (Number.isFinite(ms) && ms >= 0);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('an error body’s Message is kept short whatever its length (it may become Notes)', () => {
    const error = platformError({
      operation: 'commands/update',
      status: 403,
      message: 'm'.repeat(100_000),
      secrets: [],
    });
    // The platform's words, clipped to 500 characters, in the agent's sentence.
    expect(error.notes).toEqual(connectorMessages.platformSaid({ said: `${'m'.repeat(499)}…` }));
    expect(error.message.length).toBeLessThan(600);
  });
});
