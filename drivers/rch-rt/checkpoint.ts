import { z } from 'zod';
import { checkpointReader, ReferenceSchema } from '../fiscal-it/rt/checkpoint.js';

/**
 * The RCH document's checkpoint (README "Exactly once"): on disk before the request leaves, it
 * holds what the witnesses need after a lost answer or a kill (witnesses.ts) — the baseline read
 * just before (the Z count, the last document number, the journal's last document's fingerprint
 * when the counters could not name it), the request's size and where its payments start, the
 * marker line, the expected total and whether a sale carries a lottery code (never the code: its
 * history entry says so, for its refund). No line of the document and no customer code is kept.
 */
/** The checkpoint shape's version (the factory's `checkpointVersion`). */
export const CHECKPOINT_VERSION = 1;

export const SendingCheckpointSchema = z.object({
  v: z.literal(CHECKPOINT_VERSION),
  phase: z.literal('sending'),
  label: z.enum(['sale', 'refund', 'void']),
  commands: z.number().int().min(1),
  beforePayment: z.number().int().min(0),
  marker: z.string().optional(),
  baseline: z
    .object({
      z: z.number().int().nullable(),
      doc: z.number().int().nullable(),
      journal: z.string().nullable(),
    })
    .nullable(),
  expectedCents: z.number().int().optional(),
  reference: ReferenceSchema.optional(),
  lottery: z.literal(true).optional(),
  sentAt: z.number(),
});
export type SendingCheckpoint = z.infer<typeof SendingCheckpointSchema>;

/** A job's checkpoint: absent (nothing was sent), ok, or unreadable (unknown, never "not sent"). */
export const readCheckpoint = checkpointReader(CHECKPOINT_VERSION, SendingCheckpointSchema);
export type Checkpoint = Extract<ReturnType<typeof readCheckpoint>, { kind: 'ok' }>['checkpoint'];
