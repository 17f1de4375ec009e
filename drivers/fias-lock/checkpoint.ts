import { z } from 'zod';
import { type KeyCheckpointRead, readCardCheckpoint } from '../../src/drivers-api/key-jobs.js';

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
 *
 * (`cutKeyCards` writes them.) FIAS has a further reason never to re-send by itself after a crash:
 * a new-key request (KT N) cancels the cards already handed out (p.66–67).
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
  return readCardCheckpoint(value, total, KeyCheckpointSchema, (cp) =>
    keyCheckpoint(total, cp.confirmed, cp.inFlight),
  );
}
