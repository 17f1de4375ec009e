import type { ErrorCode } from '../../src/errors.js';

/**
 * `printer-state-reasons` keywords (RFC 8011 §5.4.12, PWG 5100.9, CUPS's own) in words a
 * receptionist can act on. A keyword may carry a severity suffix: `-error` (the printer stopped),
 * `-warning` (it still prints) or `-report` (for information); none means error (RFC 8011).
 */

export type Severity = 'error' | 'warning' | 'report';

export interface PrinterReason {
  keyword: string;
  severity: Severity;
  /** What is wrong and what to do, without the printer's name: "is out of paper — load paper". */
  sentence: string;
  /** Stops printing until someone acts (when its severity is error). */
  blocking: boolean;
  /** The error code a job refused or stopped for this reason ends with. */
  code: ErrorCode;
}

interface Known {
  sentence: string;
  blocking: boolean;
  code: ErrorCode;
}

const KNOWN: Record<string, Known> = {
  'media-empty': {
    sentence: 'is out of paper — load paper into the tray',
    blocking: true,
    code: 'PAPER_OUT',
  },
  'media-needed': { sentence: 'needs paper — load paper into the tray', blocking: true, code: 'PAPER_OUT' },
  'media-low': {
    sentence: 'is running low on paper — add paper soon',
    blocking: false,
    code: 'DEVICE_ERROR',
  },
  'media-jam': {
    sentence: 'has a paper jam — open it, remove the jammed sheet and close it',
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'toner-empty': {
    sentence: 'is out of toner — replace the toner cartridge',
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'toner-low': {
    sentence: 'is low on toner — have a new cartridge ready',
    blocking: false,
    code: 'DEVICE_ERROR',
  },
  'marker-supply-empty': {
    sentence: 'is out of ink or toner — replace the cartridge',
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'marker-supply-low': {
    sentence: 'is low on ink or toner — have a new cartridge ready',
    blocking: false,
    code: 'DEVICE_ERROR',
  },
  'marker-waste-full': {
    sentence: 'has a full waste toner box — replace it',
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'door-open': { sentence: 'has a door open — close it', blocking: true, code: 'COVER_OPEN' },
  'cover-open': { sentence: 'has its cover open — close it', blocking: true, code: 'COVER_OPEN' },
  'interlock-open': { sentence: 'has a door or cover open — close it', blocking: true, code: 'COVER_OPEN' },
  'input-tray-missing': {
    sentence: 'is missing a paper tray — push the tray back in',
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'output-area-full': {
    sentence: 'has a full output tray — take the printed sheets out',
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'output-area-almost-full': {
    sentence: 'has an almost full output tray — take the printed sheets out',
    blocking: false,
    code: 'DEVICE_ERROR',
  },
  offline: {
    sentence: 'is offline — switch it on or press its Online button',
    blocking: true,
    code: 'DEVICE_UNAVAILABLE',
  },
  shutdown: { sentence: 'is switched off — switch it on', blocking: true, code: 'DEVICE_UNAVAILABLE' },
  paused: {
    sentence: 'is paused — ask IT to resume it (on this PC: cupsenable QUEUE)',
    blocking: true,
    code: 'DEVICE_UNAVAILABLE',
  },
  'moving-to-paused': {
    sentence: 'is pausing — ask IT to resume it (on this PC: cupsenable QUEUE)',
    blocking: true,
    code: 'DEVICE_UNAVAILABLE',
  },
  'spool-area-full': {
    sentence: 'has a full memory — wait a minute, or switch it off and on',
    blocking: true,
    code: 'DEVICE_BUSY',
  },
  'connecting-to-device': {
    sentence: 'cannot be reached by CUPS yet — check that it is switched on and connected',
    blocking: false,
    code: 'DEVICE_UNAVAILABLE',
  },
  'timed-out': {
    sentence: 'did not answer CUPS in time — check that it is switched on and connected',
    blocking: false,
    code: 'DEVICE_UNAVAILABLE',
  },
  'cups-missing-filter': {
    sentence: 'has no driver in CUPS for this document — ask IT to check the queue’s driver',
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'cups-insecure-filter': {
    sentence: 'has a CUPS driver that CUPS refuses to run — ask IT to check the queue’s driver',
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'cups-waiting-for-job-completed': {
    sentence: 'is finishing the previous job',
    blocking: false,
    code: 'DEVICE_BUSY',
  },
};

/** Splits `media-empty-error` into `media-empty` and `error`. */
export function parseReason(raw: string): { keyword: string; severity: Severity } {
  const m = /^(.*)-(error|warning|report)$/.exec(raw);
  if (m?.[1] && m[2]) return { keyword: m[1], severity: m[2] as Severity };
  return { keyword: raw, severity: 'error' };
}

/**
 * The reasons worth telling staff, in words. `none` and unknown vendor keywords reported for
 * information only are left out; an unknown keyword at warning or error level is shown as it is.
 */
export function describeReasons(raw: readonly string[]): PrinterReason[] {
  const out: PrinterReason[] = [];
  for (const value of raw) {
    const { keyword, severity } = parseReason(value.trim());
    if (keyword === '' || keyword === 'none') continue;
    const known = KNOWN[keyword];
    if (known) {
      out.push({ keyword, severity, sentence: known.sentence, blocking: known.blocking, code: known.code });
    } else if (severity !== 'report') {
      out.push({
        keyword,
        severity,
        sentence: `reports “${keyword.replace(/-/g, ' ')}” — check its display`,
        blocking: false,
        code: 'DEVICE_ERROR',
      });
    }
  }
  // media-needed repeats media-empty: one sentence is enough.
  const hasEmpty = out.some((r) => r.keyword === 'media-empty');
  return out.filter((r) => !(hasEmpty && r.keyword === 'media-needed'));
}

/** The reasons that stop printing now (severity error, or the printer says it stopped). */
export function blockingReasons(reasons: readonly PrinterReason[], stopped: boolean): PrinterReason[] {
  return reasons.filter((r) => r.blocking && (r.severity === 'error' || stopped));
}

/** The reasons that make a waiting job a problem rather than a queue (any severity). */
export function problemReasons(reasons: readonly PrinterReason[]): PrinterReason[] {
  return reasons.filter((r) => r.blocking);
}

/** "Reception Laser is out of paper — load paper into the tray" for one or more reasons. */
export function sentenceFor(label: string, reasons: readonly PrinterReason[]): string {
  if (reasons.length === 0) return `${label} reports a problem — check its display`;
  return `${label} ${reasons.map((r) => r.sentence).join('; it also ')}`;
}
