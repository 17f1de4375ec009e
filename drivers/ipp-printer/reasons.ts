import type { ErrorCode } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { ippMessages, ippReasons } from './messages.js';

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
  sentence: Message;
  /** Stops printing until someone acts (when its severity is error). */
  blocking: boolean;
  /** The error code a job refused or stopped for this reason ends with. */
  code: ErrorCode;
}

interface Known {
  blocking: boolean;
  code: ErrorCode;
}

/** The keywords the agent knows; their words are `ippReasons` (`messages.ts`), under the same key. */
type KnownKeyword = Exclude<keyof typeof ippReasons, 'other'>;

const KNOWN: Record<KnownKeyword, Known> = {
  'media-empty': {
    blocking: true,
    code: 'PAPER_OUT',
  },
  'media-needed': { blocking: true, code: 'PAPER_OUT' },
  'media-low': {
    blocking: false,
    code: 'DEVICE_ERROR',
  },
  'media-jam': {
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'toner-empty': {
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'toner-low': {
    blocking: false,
    code: 'DEVICE_ERROR',
  },
  'marker-supply-empty': {
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'marker-supply-low': {
    blocking: false,
    code: 'DEVICE_ERROR',
  },
  'marker-waste-full': {
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'door-open': { blocking: true, code: 'COVER_OPEN' },
  'cover-open': { blocking: true, code: 'COVER_OPEN' },
  'interlock-open': { blocking: true, code: 'COVER_OPEN' },
  'input-tray-missing': {
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'output-area-full': {
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'output-area-almost-full': {
    blocking: false,
    code: 'DEVICE_ERROR',
  },
  offline: {
    blocking: true,
    code: 'DEVICE_UNAVAILABLE',
  },
  shutdown: { blocking: true, code: 'DEVICE_UNAVAILABLE' },
  paused: {
    blocking: true,
    code: 'DEVICE_UNAVAILABLE',
  },
  'moving-to-paused': {
    blocking: true,
    code: 'DEVICE_UNAVAILABLE',
  },
  'spool-area-full': {
    blocking: true,
    code: 'DEVICE_BUSY',
  },
  'connecting-to-device': {
    blocking: false,
    code: 'DEVICE_UNAVAILABLE',
  },
  'timed-out': {
    blocking: false,
    code: 'DEVICE_UNAVAILABLE',
  },
  'cups-missing-filter': {
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'cups-insecure-filter': {
    blocking: true,
    code: 'DEVICE_ERROR',
  },
  'cups-waiting-for-job-completed': {
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
    if (Object.hasOwn(KNOWN, keyword)) {
      const known = KNOWN[keyword as KnownKeyword];
      const sentence = ippReasons[keyword as KnownKeyword]();
      out.push({ keyword, severity, sentence, blocking: known.blocking, code: known.code });
    } else if (severity !== 'report') {
      out.push({
        keyword,
        severity,
        sentence: ippReasons.other({ keyword: keyword.replace(/-/g, ' ') }),
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
export function sentenceFor(label: string, reasons: readonly PrinterReason[]): Message {
  const [first, ...more] = reasons;
  if (!first) return ippMessages.unspecifiedProblem({ printer: label });
  return more.reduce<Message>(
    (before, r) => ippMessages.alsoProblem({ before, reason: r.sentence }),
    ippMessages.problem({ printer: label, reason: first.sentence }),
  );
}
