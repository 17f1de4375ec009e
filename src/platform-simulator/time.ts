import { wallClock } from '../time-zone.js';

/** Time helpers of the simulator: UTC stamps and property-local wall time without a tz library. */

/** The platform's UTC stamp format (ISO 8601, `Z`). */
export function utc(ms: number): string {
  return new Date(ms).toISOString();
}

/** Offset of `timeZone` from UTC at instant `ms`, in minutes (Europe/Rome: +60 or +120). */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const asUtc = wallClock(ms, timeZone);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60000);
}

/** The UTC instant of wall time `y-m-d h:min` in `timeZone` (m is 1-based). */
export function zonedToUtc(
  y: number,
  m: number,
  d: number,
  h: number,
  min: number,
  timeZone: string,
): number {
  const guess = Date.UTC(y, m - 1, d, h, min);
  const first = guess - zoneOffsetMinutes(guess, timeZone) * 60000;
  // Second pass settles instants close to a DST switch.
  return guess - zoneOffsetMinutes(first, timeZone) * 60000;
}

/** The local calendar date of instant `ms` in `timeZone`: [year, month (1-based), day]. */
export function localDate(ms: number, timeZone: string): [number, number, number] {
  const local = new Date(ms + zoneOffsetMinutes(ms, timeZone) * 60000);
  return [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()];
}
