import { z } from 'zod';
import {
  cardCountProblem,
  interruptedKeyJob,
  type KeyCheckpointRead,
} from '../../src/drivers-api/key-jobs.js';
import type { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { formatIssues } from '../../src/zod-issues.js';
import { fiasMessages } from './messages.js';

/**
 * What the driver stores about a key job, on disk before each key request goes out (the driver
 * contract): FIAS has no record that asks whether a card was written (the only outcome signal is
 * the KA; Key Read, KZ, reads the card lying on the encoder, not a request — IFC8 FIAS
 * specification p.65, p.68), so after a crash this note is all there is.
 *
 * - before sending the KR of card k: `{confirmed: k-1, inFlight: k}` — card k may be written from
 *   now on;
 * - after its KA says OK: `{confirmed: k}`;
 * - after a KA that refuses it, or a KR that could not be sent: `{confirmed: k-1}`.
 */
export interface KeyCheckpoint {
  v: 1;
  total: number;
  confirmed: number;
  inFlight?: number;
}

export function keyCheckpoint(total: number, confirmed: number, inFlight?: number): KeyCheckpoint {
  const cp: KeyCheckpoint = { v: 1, total, confirmed };
  if (inFlight !== undefined) cp.inFlight = inFlight;
  return cp;
}

const KeyCheckpointSchema = z
  .object({
    v: z.literal(1),
    total: z.number().int().min(1),
    confirmed: z.number().int().min(0),
    inFlight: z.number().int().min(1).optional(),
  })
  .strict();

/** Reads a stored checkpoint for a job of `total` cards. Never throws. */
export function readKeyCheckpoint(value: unknown, total: number): KeyCheckpointRead<KeyCheckpoint> {
  if (value === undefined) return { kind: 'absent' };
  const parsed = KeyCheckpointSchema.safeParse(value);
  if (!parsed.success) {
    return {
      kind: 'unreadable',
      problem: formatIssues(parsed.error, { limit: 1, root: 'checkpoint' }) || 'invalid',
    };
  }
  const cp = parsed.data;
  const problem = cardCountProblem(cp, total);
  if (problem) return { kind: 'unreadable', problem };
  return { kind: 'ok', checkpoint: keyCheckpoint(total, cp.confirmed, cp.inFlight) };
}

/** "2 of 3 keys were cut". */
export function cutSentence(confirmed: number, total: number): Message {
  return fiasMessages.cut({ confirmed, total });
}

/**
 * The error of a key job a crash interrupted (see `interruptedKeyJob`). FIAS has a further reason
 * never to re-send by itself: a new-key request (KT N) cancels the cards already handed out
 * (p.66–67).
 */
export function interruptedError(cp: KeyCheckpoint, rooms: readonly string[]): AgentError {
  return interruptedKeyJob(cp, rooms, fiasMessages);
}
