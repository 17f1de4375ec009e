import { localDateTime } from '../../src/time-zone.js';

/**
 * FIAS dates and times, in the property's local time (the lock has no time zone; the platform's
 * own application converts the platform's UTC instants to local time before sending them,
 * help.mews.com article 4394298):
 *
 * - `D` fields (`DA`, `GA`, `GD`) are YYMMDD and `T` fields (`TI`) HHMMSS (IFC8 FIAS
 *   specification 2.20.23, §3 "Data Types", p.13);
 * - `DT`, the departure (check-out) time of a key request, is `HH:MM` "as defined in PMS"
 *   (KR table p.63, Appendix C p.112, every key example: `DT12:00`, `DT11:00`; revision 2.20b
 *   "corrected time-formattings in KeyRecords", p.5). Some bridges send `HHMMSS` (a Hotek bridge's
 *   `DT120000`); the driver sends `HH:MM` unless configured otherwise and both sides read either.
 *
 * The key request has no arrival-time field (KR table p.62–63): the arrival is a date (`GA`), the
 * departure a date and a time with minutes (`GD`, `DT`). The departure is rounded UP to the next
 * whole minute when it has seconds and the arrival DOWN, so a card never expires earlier nor
 * opens later than the reservation says.
 */

const MINUTE = 60_000;
const two = (n: number) => String(n % 100).padStart(2, '0');

export type DepartureTimeFormat = 'HH:MM' | 'HHMMSS';

/** YYMMDD of `epochMs` in `timeZone`. Throws RangeError on an unknown zone. */
export function fiasDate(epochMs: number, timeZone: string): string {
  const t = localDateTime(epochMs, timeZone);
  return `${two(t.year)}${two(t.month)}${two(t.day)}`;
}

/** HHMMSS of `epochMs` in `timeZone`. */
export function fiasTime(epochMs: number, timeZone: string): string {
  const t = localDateTime(epochMs, timeZone);
  return `${two(t.hour)}${two(t.minute)}${two(t.second)}`;
}

/** `DA` and `TI` of now, as every link record carries them (LS/LA/LE table, p.17). */
export function stamp(epochMs: number, timeZone: string): { DA: string; TI: string } {
  return { DA: fiasDate(epochMs, timeZone), TI: fiasTime(epochMs, timeZone) };
}

export interface Stay {
  /** Arrival date, YYMMDD (`GA`). */
  arrival: string;
  /** Departure date, YYMMDD (`GD`). */
  departure: string;
  /** Departure time (`DT`), `HH:MM` or `HHMMSS`. */
  departureTime: string;
}

/** The stay's FIAS fields from the platform's UTC instants. Throws RangeError on an unknown zone. */
export function stayFields(
  startMs: number,
  endMs: number,
  timeZone: string,
  format: DepartureTimeFormat,
): Stay {
  const start = Math.floor(startMs / MINUTE) * MINUTE;
  const end = Math.ceil(endMs / MINUTE) * MINUTE;
  const out = localDateTime(end, timeZone);
  const departureTime =
    format === 'HH:MM' ? `${two(out.hour)}:${two(out.minute)}` : `${two(out.hour)}${two(out.minute)}00`;
  return { arrival: fiasDate(start, timeZone), departure: fiasDate(end, timeZone), departureTime };
}

/** Reads YYMMDD (years 2000–2099); undefined when it is not a real date. */
export function parseFiasDate(text: string): { year: number; month: number; day: number } | undefined {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day] = [2000 + Number(m[1]), Number(m[2]), Number(m[3])];
  const back = new Date(Date.UTC(year, month - 1, day));
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

/** Reads a time as `HH:MM`, `HH:MM:SS`, `HHMM` or `HHMMSS`; undefined when it is none of them. */
export function parseFiasClock(text: string): { hour: number; minute: number; second: number } | undefined {
  const m = /^(\d{2}):?(\d{2})(?::?(\d{2}))?$/.exec(text.trim());
  if (!m) return undefined;
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  return { hour, minute, second };
}
