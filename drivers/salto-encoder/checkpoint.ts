import { AgentError } from '../../src/errors.js';

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

/** Reads a stored checkpoint defensively; undefined when none (or not ours) was stored. */
export function readKeyCheckpoint(value: unknown, total: number): KeyCheckpoint | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const int = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) && x >= 0 ? x : undefined);
  const confirmed = int(v.confirmed);
  if (confirmed === undefined) return undefined;
  const inFlight = int(v.inFlight);
  const serials = Array.isArray(v.serials) ? v.serials.filter((s): s is string => typeof s === 'string') : [];
  return keyCheckpoint(
    total,
    Math.min(confirmed, total),
    serials,
    inFlight && inFlight <= total ? inFlight : undefined,
  );
}

/** "2 of 3 keys were cut" / "1 of 3 keys was cut". */
export function cutSentence(confirmed: number, total: number): string {
  return `${confirmed} of ${total} keys ${confirmed === 1 ? 'was' : 'were'} cut`;
}

/**
 * The error for a key job that a crash interrupted, when the driver does not cut the rest by
 * itself: how many keys were confirmed, and whether one more may have been written.
 */
export function interruptedError(cp: KeyCheckpoint, roomsLabel: string): AgentError {
  const mayHave =
    cp.inFlight === undefined
      ? ''
      : ` Card ${cp.inFlight} was being written at that moment; test it before handing it out.`;
  const notes =
    cp.confirmed === 0
      ? `The agent restarted while the first key for ${roomsLabel} was being cut; test that card and cut the keys again if needed.`
      : `${cutSentence(cp.confirmed, cp.total)} before the agent restarted; cut the rest again if needed.${mayHave}`;
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
