import { z } from 'zod';
import {
  checkpointSchemaOf,
  ReferenceSchema,
  type CheckpointRead as RtCheckpointRead,
  readCheckpointWith,
} from '../fiscal-it/rt/checkpoint.js';
import type { DocPosition } from './protocol.js';

/** The baseline of a document: the printer's last fiscal document before it (witnesses.ts). */
export interface Baseline extends DocPosition {
  /** Read from the printer just before sending (else taken from the store: maybe stale). */
  fresh: boolean;
}

/**
 * The version of this driver's checkpoint shape: the factory's `checkpointVersion`, which the core
 * keeps in every checkpoint's envelope (`{driver, version, data}`) and checks before handing one
 * back, and the `v` of the checkpoint itself. Raise it when a checkpoint of the old shape would be
 * misread: the core then ends a job holding an older one as unknown, never not-done.
 */
export const CHECKPOINT_VERSION = 1;

const BaselineSchema = z.object({ z: z.number().int(), doc: z.number().int(), fresh: z.boolean() });

export const SendingCheckpointSchema = z.object({
  v: z.literal(CHECKPOINT_VERSION),
  phase: z.literal('sending'),
  kind: z.enum(['receipt', 'non-fiscal', 'report', 'command']),
  /** 'sale' | 'refund' for data commands, the fpmate root for payloads. */
  label: z.string(),
  baseline: BaselineSchema.nullable(),
  expectedCents: z.number().int().optional(),
  reference: ReferenceSchema.optional(),
  resent: z.boolean(),
  /**
   * When the document left (epoch ms). Optional: a checkpoint written before it existed reads the
   * same; the wait for a printer that went away counts from it (settle.ts).
   */
  sentAt: z.number().optional(),
});
export type SendingCheckpoint = z.infer<typeof SendingCheckpointSchema>;

const CheckpointSchema = checkpointSchemaOf(CHECKPOINT_VERSION, SendingCheckpointSchema);
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/** A job's checkpoint: absent (nothing was sent), ok, or unreadable (unknown, never "not sent"). */
export const readCheckpoint = (value: unknown): RtCheckpointRead<Checkpoint> =>
  readCheckpointWith(CheckpointSchema, value);
