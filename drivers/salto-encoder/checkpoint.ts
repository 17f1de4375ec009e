import { z } from 'zod';
import {
  cardCountProblem,
  interruptedKeyJob,
  type KeyCheckpointRead,
} from '../../src/drivers-api/key-jobs.js';
import type { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { formatIssues } from '../../src/zod-issues.js';
import { saltoMessages } from './messages.js';

/**
 * What the driver persists about a key job, synchronously, around every card:
 * - before sending card k: `{confirmed: k-1, inFlight: k}` — card k may get written from now on;
 * - after the encoder confirms it: `{confirmed: k}`;
 * - after the encoder refuses it (an error reply): `{confirmed: k-1}` — card k was not written.
 * `serials` are the card serial numbers the encoder returned so far.
 */
export interface KeyCheckpoint {
  v: 1;
  total: number;
  confirmed: number;
  inFlight?: number;
  serials: string[];
}

export function keyCheckpoint(
  total: number,
  confirmed: number,
  serials: string[],
  inFlight?: number,
): KeyCheckpoint {
  const cp: KeyCheckpoint = { v: 1, total, confirmed, serials: [...serials] };
  if (inFlight !== undefined) cp.inFlight = inFlight;
  return cp;
}

const KeyCheckpointSchema = z.object({
  v: z.literal(1),
  // Written by every version of this driver; optional so that a hand-made or older note without
  // it still reads (the job's KeyCount is the total).
  total: z.number().int().min(1).optional(),
  confirmed: z.number().int().min(0),
  inFlight: z.number().int().min(1).optional(),
  serials: z.array(z.string()),
});

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
  const problem = cardCountProblem(cp, total, true);
  if (problem) return { kind: 'unreadable', problem };
  return { kind: 'ok', checkpoint: keyCheckpoint(total, cp.confirmed, cp.serials, cp.inFlight) };
}

/** "2 of 3 keys were cut" / "1 of 3 keys was cut". */
export function cutSentence(confirmed: number, total: number): Message {
  return saltoMessages.cut({ confirmed, total });
}

/** The error for a key job that a crash interrupted, when the driver does not cut the rest by itself. */
export function interruptedError(cp: KeyCheckpoint, rooms: readonly string[]): AgentError {
  return interruptedKeyJob(cp, rooms, saltoMessages);
}
