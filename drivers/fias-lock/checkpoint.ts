import { z } from 'zod';
import { roomsWords } from '../../src/drivers-api/messages.js';
import { AgentError } from '../../src/errors.js';
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

/**
 * A job's checkpoint as the driver finds it: `absent` (no card was started), `ok`, or
 * `unreadable` — one exists but is not what this driver writes or disagrees with the job, so a
 * card may have been written and nobody can say how many.
 */
export type KeyCheckpointRead =
  | { kind: 'absent' }
  | { kind: 'unreadable'; problem: string }
  | { kind: 'ok'; checkpoint: KeyCheckpoint };

/** Reads a stored checkpoint for a job of `total` cards. Never throws. */
export function readKeyCheckpoint(value: unknown, total: number): KeyCheckpointRead {
  if (value === undefined) return { kind: 'absent' };
  const parsed = KeyCheckpointSchema.safeParse(value);
  if (!parsed.success) {
    return {
      kind: 'unreadable',
      problem: formatIssues(parsed.error, { limit: 1, root: 'checkpoint' }) || 'invalid',
    };
  }
  const cp = parsed.data;
  if (cp.total !== total) {
    return { kind: 'unreadable', problem: `written for ${cp.total} cards, the job asks for ${total}` };
  }
  if (cp.confirmed > total)
    return { kind: 'unreadable', problem: `${cp.confirmed} cards confirmed of ${total}` };
  if (cp.inFlight !== undefined && (cp.inFlight !== cp.confirmed + 1 || cp.inFlight > total)) {
    return { kind: 'unreadable', problem: `card ${cp.inFlight} in flight after ${cp.confirmed} of ${total}` };
  }
  return { kind: 'ok', checkpoint: keyCheckpoint(total, cp.confirmed, cp.inFlight) };
}

/** "2 of 3 keys were cut". */
export function cutSentence(confirmed: number, total: number): Message {
  return fiasMessages.cut({ confirmed, total });
}

/**
 * The error of a key job a crash interrupted: how many keys were confirmed, and whether one more
 * may have been written. The driver never re-sends by itself: a new-key request would cancel the
 * cards already handed out (KT N, p.66–67), and a card that may be written must be tested first.
 */
export function interruptedError(cp: KeyCheckpoint, rooms: readonly string[]): AgentError {
  const sentence =
    cp.confirmed === 0
      ? fiasMessages.firstInterrupted({ rooms: roomsWords(rooms) })
      : fiasMessages.restInterrupted({ cut: cutSentence(cp.confirmed, cp.total) });
  const notes =
    cp.confirmed === 0 || cp.inFlight === undefined
      ? sentence
      : fiasMessages.cardInFlight({ sentence, card: cp.inFlight });
  return new AgentError(
    'STATE_UNKNOWN',
    `key job interrupted by a restart after ${cp.confirmed} of ${cp.total} cards`,
    {
      notes,
      details: {
        confirmed: cp.confirmed,
        total: cp.total,
        ...(cp.inFlight ? { inFlight: cp.inFlight } : {}),
      },
    },
  );
}
