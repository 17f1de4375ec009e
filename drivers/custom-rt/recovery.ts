import { z } from 'zod';
import type { JobResult } from '../../src/drivers-api/types.js';
import type { Message } from '../../src/messages/message.js';
import {
  doneCheckpointOf,
  doneCheckpointSchema,
  type CheckpointRead as RtCheckpointRead,
  readCheckpointWith,
} from '../fiscal-it/rt/checkpoint.js';
import { type IdPair, idEvidence } from './idcmd.js';
import type { LastDocument } from './last-document.js';
import type { Counters } from './link.js';
import { customResults as m } from './messages.js';

/**
 * Exactly once, the Custom way (README "Exactly once"). Before a document leaves, its checkpoint
 * holds the `IdCmd`s it carries and a baseline — the Z reports done and the last document (1017)
 * — read from the printer just before. When the answer does not prove the outcome, the printer is
 * asked again, and two witnesses decide together:
 * - `lastIdCmd` (XML protocol manual rev 2.00 p.25): the last ID the printer took. Our end ID
 *   proves the document closed; our begin ID that it opened and did not close (an open document is
 *   then cancelled: not printed); another or none says nothing was taken after the last one given.
 * - the counters: the last document moved past the baseline (another number or Z) or not.
 *
 * | lastIdCmd      | counters unmoved | counters moved, our total             |
 * | -------------- | ---------------- | ------------------------------------- |
 * | end ID         | printed, no number | printed (that document)             |
 * | begin ID, open | not printed      | unknown                               |
 * | other / none   | not printed      | none: printed if it is the next one; other: unknown |
 *
 * Anything else is unknown, and the document is never sent again by the driver.
 */
export interface Baseline {
  zDone: number | null;
  doc: number | null;
  dateTime: string | null;
}

export type Decision =
  | { outcome: 'printed'; document: LastDocument | undefined; z: number | undefined }
  | { outcome: 'not-printed'; documentOpen: boolean }
  | { outcome: 'unknown'; reason: Message };

export function baselineOf(counters: Counters): Baseline {
  return {
    zDone: counters.zDone ?? null,
    doc: counters.last?.doc ?? null,
    dateTime: counters.last?.dateTime ?? null,
  };
}

function moved(baseline: Baseline, now: Counters): boolean | undefined {
  if (now.zDone === undefined || baseline.zDone === null) return undefined;
  if (now.zDone !== baseline.zDone) return true;
  if (!now.last) return baseline.doc === null ? false : undefined;
  return now.last.doc !== baseline.doc || now.last.dateTime !== baseline.dateTime;
}

export function decide(
  baseline: Baseline | null,
  ids: IdPair,
  now: Counters | undefined,
  expectedCents: number | undefined,
): Decision {
  if (!now) return { outcome: 'unknown', reason: m.memoryUnreadable() };
  const evidence = idEvidence(now.lastIdCmd, ids);
  const change = baseline ? moved(baseline, now) : undefined;
  const ours =
    now.last !== undefined &&
    now.last.type === 'fiscal' &&
    !now.last.cancelled &&
    (expectedCents === undefined || now.last.totalCents === expectedCents);
  const z = now.zDone === undefined ? undefined : now.zDone + 1;
  if (evidence === 'ended') return { outcome: 'printed', document: change && ours ? now.last : undefined, z };
  if (change === undefined)
    return { outcome: 'unknown', reason: baseline ? m.memoryUnreadable() : m.countersUnknown() };
  if (evidence === 'begun') {
    return change
      ? { outcome: 'unknown', reason: m.memoryDisagrees() }
      : { outcome: 'not-printed', documentOpen: now.documentOpen };
  }
  if (!change) return { outcome: 'not-printed', documentOpen: now.documentOpen };
  const next =
    baseline?.zDone === now.zDone && baseline?.doc !== null && now.last?.doc === (baseline?.doc ?? 0) + 1;
  if (evidence === 'absent' && ours && next) return { outcome: 'printed', document: now.last, z };
  return { outcome: 'unknown', reason: m.memoryDisagrees() };
}

/** The checkpoint shape's version (the factory's `checkpointVersion`). */
export const CHECKPOINT_VERSION = 1;

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

export const DoneCheckpointSchema = doneCheckpointSchema(CHECKPOINT_VERSION);

const CheckpointSchema = z.discriminatedUnion('phase', [SendingCheckpointSchema, DoneCheckpointSchema]);
export type Checkpoint = z.infer<typeof CheckpointSchema>;

export type CheckpointRead = RtCheckpointRead<Checkpoint>;

/** A job's checkpoint: absent (nothing was sent), ok, or unreadable (unknown, never "not sent"). */
export function readCheckpoint(value: unknown): CheckpointRead {
  return readCheckpointWith(CheckpointSchema, value);
}

export function doneCheckpoint(result: JobResult): Checkpoint {
  return doneCheckpointOf(CHECKPOINT_VERSION, result);
}
