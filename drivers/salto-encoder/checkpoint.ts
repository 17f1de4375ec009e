import { z } from 'zod';
import { type KeyCheckpointRead, readCardCheckpoint } from '../../src/drivers-api/key-jobs.js';

/**
 * What the driver persists about a key job, on disk around every card (`cutKeyCards` writes it):
 * - before sending card k: `{confirmed: k-1, inFlight: k}` — card k may get written from now on;
 * - after the encoder confirms it: `{confirmed: k}`;
 * - after the encoder refuses it (an error reply), or the request never left: `{confirmed: k-1}` —
 *   card k was not written.
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
  return readCardCheckpoint(
    value,
    total,
    KeyCheckpointSchema,
    (cp) => keyCheckpoint(total, cp.confirmed, cp.serials, cp.inFlight),
    true,
  );
}
