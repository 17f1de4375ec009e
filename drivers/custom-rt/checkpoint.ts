import { z } from 'zod';
import {
  checkpointSchemaOf,
  ReferenceSchema,
  type CheckpointRead as RtCheckpointRead,
  readCheckpointWith,
} from '../fiscal-it/rt/checkpoint.js';

/**
 * The Custom document's checkpoint (README "Exactly once"): before a document leaves, it holds
 * the `IdCmd`s it carries and the baseline — the Z reports done and the last document (1017) —
 * read from the printer just before, so that a lost answer or a kill is settled from the
 * printer's witnesses (witnesses.ts). The shape is unchanged since version 1.
 */
/** The checkpoint shape's version (the factory's `checkpointVersion`). */
export const CHECKPOINT_VERSION = 1;

export const SendingCheckpointSchema = z.object({
  v: z.literal(CHECKPOINT_VERSION),
  phase: z.literal('sending'),
  label: z.enum(['sale', 'refund', 'void']),
  ids: z.object({ begin: z.string(), end: z.string() }),
  baseline: z
    .object({ zDone: z.number().nullable(), doc: z.number().nullable(), dateTime: z.string().nullable() })
    .nullable(),
  expectedCents: z.number().int().optional(),
  reference: ReferenceSchema.optional(),
  sentAt: z.number(),
});
export type SendingCheckpoint = z.infer<typeof SendingCheckpointSchema>;

const CheckpointSchema = checkpointSchemaOf(CHECKPOINT_VERSION, SendingCheckpointSchema);
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/** A job's checkpoint: absent (nothing was sent), ok, or unreadable (unknown, never "not sent"). */
export const readCheckpoint = (value: unknown): RtCheckpointRead<Checkpoint> =>
  readCheckpointWith(CheckpointSchema, value);
