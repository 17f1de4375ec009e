import type { DeviceStatus, FactValue } from './types.js';

/**
 * Facts as drivers give them (`DeviceStatus.facts`, see `FactValue` in `types.ts`), written and
 * read back in one place: a time is its ISO 8601 form, which the page shows in the property's
 * time zone (`factTimeOf`) and `/metrics` exports as Unix seconds (`numericFacts`).
 */

/** An instant as a fact: `2026-11-27T02:30:00.000Z`. */
export function factTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** A calendar date as a fact: `2030-12-31` (of `date`'s UTC day). */
export function factDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * How a driver's status facts (`DeviceStatus.facts`) become Prometheus samples, without the core
 * knowing any driver: a finite number is exported as it is, a boolean as 1 or 0, and a string
 * holding an ISO 8601 calendar date (`2030-12-31` or `20301231`, years 2000–2099) or a full ISO
 * timestamp as its Unix time in seconds (certificate expiries). Every other string (addresses,
 * serial numbers, words), a fact in words (a catalogue message) and `null` is left out: a label
 * per value would make a new series at every receipt.
 */
export function numericFacts(facts: DeviceStatus['facts']): Array<[name: string, value: number]> {
  const out: Array<[string, number]> = [];
  for (const [name, value] of Object.entries(facts)) {
    const n = factValue(value);
    if (n !== undefined) out.push([name, n]);
  }
  return out;
}

export function factValue(value: FactValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') return dateSeconds(value);
  return undefined;
}

const DATE = /^(20\d\d)-?(\d\d)-?(\d\d)$/;
const TIMESTAMP = /^20\d\d-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

function dateSeconds(text: string): number | undefined {
  const time = factTimeOf(text, 'compact too');
  return time === undefined ? undefined : time.ms / 1000;
}

/**
 * The instant a string fact holds, when it holds one: a full ISO 8601 timestamp, or a calendar
 * date (UTC midnight; `dateOnly`). The page shows them as times and dates; `/metrics` exports
 * them as Unix seconds. Only the dashed date (`2030-12-31`) counts on the page, where an
 * eight-digit serial number must stay a number; metrics also read `20301231` (certificate
 * expiries as printers write them).
 */
export function factTimeOf(
  text: string,
  dates: 'dashed' | 'compact too' = 'dashed',
): { ms: number; dateOnly: boolean } | undefined {
  const t = text.trim();
  const date = DATE.exec(t);
  if (date && (dates === 'compact too' || t.length === 10)) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const ms = Date.UTC(y, m - 1, d);
    const back = new Date(ms);
    // Rejects 2030-02-31 and month 13: Date.UTC would roll them over into another date.
    if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d)
      return undefined;
    return { ms, dateOnly: true };
  }
  if (TIMESTAMP.test(t)) {
    const ms = Date.parse(t);
    return Number.isNaN(ms) ? undefined : { ms, dateOnly: false };
  }
  return undefined;
}
