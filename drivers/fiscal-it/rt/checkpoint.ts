import { z } from 'zod';
import type { JobResult } from '../../../src/drivers-api/types.js';
import { isMessage, type Message, readMessage } from '../../../src/messages/message.js';
import { formatIssues } from '../../../src/zod-issues.js';

/**
 * The envelope every RT family's job checkpoint shares: a `sending` phase of the family's own shape
 * (what it needs to ask the printer after a lost answer) and a `done` phase holding the result, so
 * a restart after the answer reports it without asking again. Each family keeps its version number.
 */

/** The original a refund or void names, as every family's `sending` checkpoint keeps it. */
export const ReferenceSchema = z.object({
  kind: z.enum(['REFUND', 'VOID']),
  z: z.number().int(),
  doc: z.number().int(),
  date: z.string(),
  serial: z.string(),
});

/** The `done` phase: the result as reported. Notes are a catalogue message, or an older build's sentence. */
export function doneCheckpointSchema<V extends number>(version: V) {
  return z.object({
    v: z.literal(version),
    phase: z.literal('done'),
    result: z.object({
      notes: z.custom<Message | string>((v) => typeof v === 'string' || isMessage(v)).transform(readMessage),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  });
}

/** The `done` checkpoint of `result` (details only when there are some). */
export function doneCheckpointOf<V extends number>(version: V, result: JobResult) {
  return {
    v: version,
    phase: 'done' as const,
    result: result.details ? result : { notes: result.notes },
  };
}

/**
 * A job's checkpoint as `reconcile()` finds it: `absent` (none was ever stored: nothing was sent),
 * `ok`, or `unreadable` — one exists but fails the family's schema (another version, a corrupt
 * journal row), which means **unknown**, never "not sent".
 */
export type CheckpointRead<C> =
  | { kind: 'absent' }
  | { kind: 'unreadable'; problem: string }
  | { kind: 'ok'; checkpoint: C };

/** Reads `value` with the family's `schema`. Never throws. */
export function readCheckpointWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
): CheckpointRead<z.output<S>> {
  if (value === undefined) return { kind: 'absent' };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { kind: 'ok', checkpoint: parsed.data };
  return {
    kind: 'unreadable',
    problem: formatIssues(parsed.error, { limit: 1, root: 'checkpoint' }) || 'invalid',
  };
}

/**
 * A family's whole checkpoint schema: its own `sending` phase and the shared `done` phase, read
 * with `readCheckpointWith` (never throws; unreadable is unknown, never "not sent").
 */
export function checkpointSchemaOf<
  V extends number,
  S extends z.ZodObject<{ phase: z.ZodLiteral<'sending'> }>,
>(version: V, sending: S) {
  return z.discriminatedUnion('phase', [sending, doneCheckpointSchema(version)]);
}

/** The reader of a family's whole checkpoint (`checkpointSchemaOf`); never throws. */
export function checkpointReader<V extends number, S extends z.ZodObject<{ phase: z.ZodLiteral<'sending'> }>>(
  version: V,
  sending: S,
) {
  const schema = checkpointSchemaOf(version, sending);
  return (value: unknown): CheckpointRead<z.output<typeof schema>> => readCheckpointWith(schema, value);
}
