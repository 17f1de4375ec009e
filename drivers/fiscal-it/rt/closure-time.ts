import { wallClock } from '../../../src/time-zone.js';

/**
 * When the daily closure runs: a wall-clock time ("03:30") in the property's time zone, every
 * local day, DST-safe.
 *
 * - A time the spring-forward change skips (02:30 on the last Sunday of March in Europe/Rome)
 *   runs at the first instant after the gap (03:00 CEST): the closure is late by the gap, never
 *   skipped.
 * - A time the fall-back change repeats (02:30 on the last Sunday of October) runs at its first
 *   occurrence only: each local date has exactly one scheduled instant, so the day cannot close
 *   twice.
 *
 * The default, 03:30, lies outside both windows in Europe/Rome.
 */

export { wallClock };

/** The local calendar date of `instant`: "2026-03-29". */
export function localDate(instant: number, timeZone: string): string {
  return new Date(wallClock(instant, timeZone)).toISOString().slice(0, 10);
}

/** "2026-03-29" plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const HOUR = 3_600_000;

/**
 * The instant the wall time `at` ("HH:MM") of local `date` ("YYYY-MM-DD") happens in `timeZone`:
 * the earliest when it happens twice, the end of the gap when it does not happen at all.
 */
export function scheduledInstant(date: string, at: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = at.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const offset = (t: number) => wallClock(t, timeZone) - t;
  const candidates = [...new Set([wall - offset(wall - 12 * HOUR), wall - offset(wall + 12 * HOUR)])].sort(
    (a, b) => a - b,
  );
  for (const c of candidates) if (wallClock(c, timeZone) === wall) return c;
  // In a gap: the first instant whose wall time is past `at` (between the two candidates).
  let lo = candidates[0] as number;
  let hi = candidates.at(-1) as number;
  if (wallClock(lo, timeZone) >= wall) return lo;
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallClock(mid, timeZone) >= wall) hi = mid;
    else lo = mid;
  }
  const whole = Math.floor(hi / 1000) * 1000;
  return wallClock(whole, timeZone) >= wall ? whole : hi;
}

export interface Occurrence {
  /** The local date the closure belongs to. */
  date: string;
  /** When it runs. */
  at: number;
}

/** The latest scheduled closure at or before `now`. */
export function latestOccurrence(now: number, at: string, timeZone: string): Occurrence {
  const today = localDate(now, timeZone);
  const t = scheduledInstant(today, at, timeZone);
  if (t <= now) return { date: today, at: t };
  const yesterday = addDays(today, -1);
  return { date: yesterday, at: scheduledInstant(yesterday, at, timeZone) };
}

/** The first scheduled closure after `now`. */
export function nextOccurrence(now: number, at: string, timeZone: string): Occurrence {
  const today = localDate(now, timeZone);
  const t = scheduledInstant(today, at, timeZone);
  if (t > now) return { date: today, at: t };
  const tomorrow = addDays(today, 1);
  return { date: tomorrow, at: scheduledInstant(tomorrow, at, timeZone) };
}

/** "2026-11-21 03:30" in `timeZone`, for Notes and the page. */
export function localStamp(instant: number, timeZone: string): string {
  return new Date(wallClock(instant, timeZone)).toISOString().slice(0, 16).replace('T', ' ');
}
