import { z } from 'zod';
import type { JobResult } from '../../src/drivers-api/types.js';
import {
  doneCheckpointOf,
  doneCheckpointSchema,
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

const ReferenceSchema = z.object({
  kind: z.enum(['REFUND', 'VOID']),
  z: z.number().int(),
  doc: z.number().int(),
  date: z.string(),
  serial: z.string(),
});

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

export const DoneCheckpointSchema = doneCheckpointSchema(CHECKPOINT_VERSION);

export const CheckpointSchema = z.discriminatedUnion('phase', [
  SendingCheckpointSchema,
  DoneCheckpointSchema,
]);
export type Checkpoint = z.infer<typeof CheckpointSchema>;

export type CheckpointRead = RtCheckpointRead<Checkpoint>;

/** A job's checkpoint: absent (nothing was sent), ok, or unreadable (unknown, never "not sent"). */
export function readCheckpoint(value: unknown): CheckpointRead {
  return readCheckpointWith(CheckpointSchema, value);
}

export function doneCheckpoint(result: JobResult): Checkpoint {
  return doneCheckpointOf(CHECKPOINT_VERSION, result);
}
