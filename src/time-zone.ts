/**
 * Wall time in an IANA time zone without a tz library: the one reading of `Intl.DateTimeFormat`
 * the agent, its drivers and its simulator share (DST included; one cached formatter per zone).
 * An unknown zone throws RangeError.
 */

export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock date and time of `instant` (ms) in `timeZone`. */
export function localDateTime(instant: number, timeZone: string): LocalDateTime {
  const parts = formatter(timeZone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** The local wall time of `instant`, as if it were UTC (ms, whole seconds): comparable with `Date.UTC(...)`. */
export function wallClock(instant: number, timeZone: string): number {
  const t = localDateTime(instant, timeZone);
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}
