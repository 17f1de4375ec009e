import { z } from 'zod';
import type { JobResult } from '../../src/drivers-api/types.js';
import type { LastDocument } from './last-document.js';
import { comparePositions, type DocPosition } from './protocol.js';

/**
 * Exactly-once printing after a lost answer. Before a fiscal document is sent, the driver knows a
 * baseline — the printer's last fiscal document — and checkpoints it. Afterwards, reading the
 * printer's last emitted document decides:
 * - `printed`: the counters moved past the baseline to a document with the expected total;
 * - `not-printed`: the counters are exactly the baseline (sending again cannot double-print);
 * - `unknown`: anything else — unreadable, no baseline, a non-fiscal or foreign document, counters
 *   that went backwards. The document is then never sent again.
 */
export interface Baseline extends DocPosition {
  /** Read from the printer just before sending (else taken from the store: maybe stale). */
  fresh: boolean;
}

export type Decision =
  | { outcome: 'printed'; document: LastDocument }
  | { outcome: 'not-printed' }
  | { outcome: 'unknown'; reason: string };

export function decide(
  baseline: Baseline | null | undefined,
  last: LastDocument | undefined,
  expectedCents: number | undefined,
): Decision {
  if (!baseline)
    return { outcome: 'unknown', reason: 'the printer’s counters were not known before sending' };
  if (!last) return { outcome: 'unknown', reason: 'the printer’s last document cannot be read' };
  if (!last.fiscal) {
    return { outcome: 'unknown', reason: 'the printer’s last document is not a fiscal one' };
  }
  const order = comparePositions(last, baseline);
  if (order === 0) return { outcome: 'not-printed' };
  if (order < 0)
    return { outcome: 'unknown', reason: 'the printer’s counters are behind what the agent knew' };
  if (expectedCents !== undefined && last.totalCents !== expectedCents) {
    return {
      outcome: 'unknown',
      reason: 'the printer’s last document has a different total (another till?)',
    };
  }
  const next = last.z === baseline.z ? last.doc === baseline.doc + 1 : last.doc === 1;
  if (!baseline.fresh && !next) {
    return { outcome: 'unknown', reason: 'other documents were printed since the agent last looked' };
  }
  return { outcome: 'printed', document: last };
}

/** The kinds of document the driver sends; only receipts can be checked against the counters. */
export type DocKind = 'receipt' | 'non-fiscal' | 'report' | 'command';

const BaselineSchema = z.object({ z: z.number().int(), doc: z.number().int(), fresh: z.boolean() });

const ReferenceSchema = z.object({
  kind: z.enum(['REFUND', 'VOID']),
  z: z.number().int(),
  doc: z.number().int(),
  date: z.string(),
  serial: z.string(),
});

export const SendingCheckpointSchema = z.object({
  v: z.literal(1),
  phase: z.literal('sending'),
  kind: z.enum(['receipt', 'non-fiscal', 'report', 'command']),
  /** 'sale' | 'refund' for data commands, the fpmate root for payloads. */
  label: z.string(),
  baseline: BaselineSchema.nullable(),
  expectedCents: z.number().int().optional(),
  reference: ReferenceSchema.optional(),
  resent: z.boolean(),
});
export type SendingCheckpoint = z.infer<typeof SendingCheckpointSchema>;

export const DoneCheckpointSchema = z.object({
  v: z.literal(1),
  phase: z.literal('done'),
  result: z.object({ notes: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
});

export const CheckpointSchema = z.discriminatedUnion('phase', [
  SendingCheckpointSchema,
  DoneCheckpointSchema,
]);
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/** The job's checkpoint when it is one of ours; undefined otherwise (never throws). */
export function readCheckpoint(value: unknown): Checkpoint | undefined {
  const parsed = CheckpointSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export function doneCheckpoint(result: JobResult): Checkpoint {
  return { v: 1, phase: 'done', result: result.details ? result : { notes: result.notes } };
}
