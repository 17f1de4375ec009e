/**
 * Small, pure formatting helpers for the status page. Times are shown in the property's time
 * zone (the config's `timezone`), since that is the clock on the receptionist's wall.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, withDate: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${withDate}`;
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-GB', {
        timeZone,
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hour12: false,
        ...(withDate ? { day: '2-digit', month: 'short' } : {}),
      });
    } catch {
      f = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hour12: false, timeStyle: 'medium' });
    }
    formatters.set(key, f);
  }
  return f;
}

/** `14:03:27`, or `3 Mar, 14:03:27` when `at` is not on the same day as `now`. */
export function formatTime(at: number, now: number, timeZone: string): string {
  const sameDay = Math.abs(now - at) < 12 * 3600_000;
  return formatter(timeZone, !sameDay).format(new Date(at));
}

/** `3 s`, `4 min`, `2 h 5 min`, `3 d`. Negative values count as zero. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  return `${Math.floor(h / 24)} d`;
}

/** `12 s ago`; `never` when `at` is undefined. */
export function formatAgo(at: number | undefined, now: number): string {
  if (at === undefined) return 'never';
  return `${formatDuration(now - at)} ago`;
}

/** Milliseconds as `850 ms` or `2.4 s`. */
export function formatLatency(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** `paperNearEnd` → `Paper near end`, `rt_file_to_send` → `Rt file to send`. */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A fact value as words: booleans become yes/no, null becomes "unknown". */
export function formatFact(value: string | number | boolean | null): string {
  if (value === null) return 'unknown';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/**
 * A bucket's `minute` as epoch ms: the snapshot may carry the minute's start in epoch ms or in
 * epoch minutes; anything below 10^11 is read as minutes (10^11 ms is in 1973).
 */
export function minuteToMs(minute: number): number {
  return minute < 1e11 ? minute * 60_000 : minute;
}
