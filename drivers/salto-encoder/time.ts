import { localDateTime } from '../../src/time-zone.js';

/**
 * Card validity as the encoder wants it: `hhmmDDMMYY` (24-hour clock, two-digit year) in the
 * property's local time. The platform sends UTC instants; the lock has no time zone, so a
 * departure at 11:00 in Rome must be written "1100…", not the UTC "1000…".
 *
 * Minutes are the encoder's resolution. The start is rounded DOWN to the minute and the end is
 * rounded UP to the next whole minute when it has seconds, so a card never opens later nor
 * expires earlier than the reservation says (an end of 10:59:30 becomes 11:00; 11:00:00 stays).
 */

export type Rounding = 'floor' | 'ceil';

const MINUTE = 60_000;

/** Parses an ISO instant; undefined when it is not one. */
export function parseInstant(text: string): number | undefined {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

export function roundToMinute(epochMs: number, rounding: Rounding): number {
  return rounding === 'floor' ? Math.floor(epochMs / MINUTE) * MINUTE : Math.ceil(epochMs / MINUTE) * MINUTE;
}

/** `hhmmDDMMYY` of `epochMs` in `timeZone` (an IANA name). Throws RangeError on an unknown zone. */
export function formatLockTime(epochMs: number, timeZone: string, rounding: Rounding): string {
  const t = localDateTime(roundToMinute(epochMs, rounding), timeZone);
  const two = (n: number) => String(n % 100).padStart(2, '0');
  return `${two(t.hour)}${two(t.minute)}${two(t.day)}${two(t.month)}${two(t.year)}`;
}

/** Reads `hhmmDDMMYY` back into its parts (simulator, tests). */
export function parseLockTime(
  text: string,
): { hour: number; minute: number; day: number; month: number; year: number } | undefined {
  const m = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [hour, minute, day, month, yy] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (hour > 23 || minute > 59 || day < 1 || day > 31 || month < 1 || month > 12) return undefined;
  return { hour, minute, day, month, year: 2000 + yy };
}
