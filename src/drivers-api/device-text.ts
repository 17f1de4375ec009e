/**
 * Text a device wrote, made fit to show: a printer's `job-state-message`, its state reasons, an
 * mDNS instance name, a USB product string. A device (or whatever answers at its address, or
 * announces itself on the LAN) chooses these bytes; they reach Notes the platform shows to staff,
 * the status page, the journal and a terminal (`frontdesk-agent devices`). So they become one line
 * of at most `DEVICE_TEXT_MAX` characters with no control character (issue 27, finding 9: a
 * 64 KiB `job-state-message` with line breaks reached Notes; an ESC in an mDNS name reached the
 * terminal).
 *
 * Every C0 and C1 control, DEL, the line and paragraph separators, and the bidirectional
 * overrides and isolates (which reorder what a terminal or a page shows, "Trojan Source",
 * CVE-2021-42574) become a space; runs of white space collapse; the result is trimmed and, when
 * longer, cut to 159 characters and "…". Whole code points: a cut never splits a surrogate pair.
 */

/** The longest device text shown anywhere: one line of a Note or a terminal. */
export const DEVICE_TEXT_MAX = 160;

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it removes.
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function deviceText(text: string, max = DEVICE_TEXT_MAX): string {
  const flat = text.replace(UNSHOWABLE, ' ').replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const points = [...flat];
  if (points.length <= max) return flat;
  return `${points
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/**
 * Every string in `value` (objects and arrays walked, keys included) through `deviceText`, with
 * no length limit unless `max` is given: for output made of device text whose shape must stay
 * (a JSON listing, suggested `options:`).
 */
export function deviceTextDeep<T>(value: T, max = Number.POSITIVE_INFINITY): T {
  if (typeof value === 'string') return deviceText(value, max) as T;
  if (Array.isArray(value)) return value.map((v) => deviceTextDeep(v, max)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[deviceText(k, max)] = deviceTextDeep(v, max);
    return out as T;
  }
  return value;
}
