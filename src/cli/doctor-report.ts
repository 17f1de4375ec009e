import type { FactValue } from '../drivers-api/types.js';
import { type MessageRenderer, messageRenderer } from '../messages/render.js';
import { formatFact, labelFor } from '../status/page/index.js';
import { doctorMessages } from './messages.js';

/**
 * What `doctor` found: an ordered checklist. Each check is `ok`, `fail` (counted: the exit code
 * is the number of failures), `skip` (could not be checked, and says why) or `info` (a fact, not
 * a verdict). A failure always carries `fix`: what to do, one sentence each. Titles, summaries,
 * details and fixes are words in the language the run was made in (`runDoctor`'s `locale`).
 */
export type CheckStatus = 'ok' | 'fail' | 'skip' | 'info';

export interface Check {
  /** Stable for tools: config, tokens, platform, platform-devices, clock, agent, device, journal, disk, systemd. */
  id: string;
  /** For people: "configuration", "device Reception RT printer". */
  title: string;
  status: CheckStatus;
  /** One line. */
  summary: string;
  /** More facts, one line each. */
  details?: string[];
  /** What to do, one sentence each (always set on a failure). */
  fix?: string[];
  /** Device checks: the platform's Device id and the driver's facts as reported. */
  deviceId?: string;
  facts?: Record<string, FactValue>;
}

export interface DoctorReport {
  version: string;
  config: string;
  /** ISO time of the run. */
  at: string;
  checks: Check[];
  failures: number;
}

export function report(version: string, config: string, at: Date, checks: Check[]): DoctorReport {
  return {
    version,
    config,
    at: at.toISOString(),
    checks,
    failures: checks.filter((c) => c.status === 'fail').length,
  };
}

/** The exit code: the number of failures, capped below the shell's signal range. */
export function exitCodeOf(result: DoctorReport): number {
  return Math.min(result.failures, 100);
}

const MARK: Record<CheckStatus, string> = { ok: ' ok ', fail: 'FAIL', skip: 'skip', info: 'info' };

const INDENT = '       ';
const WIDTH = 100;

/** Splits a `a, b, c` list over lines of at most WIDTH characters. */
function wrap(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const part of text.split(', ')) {
    const next = current ? `${current}, ${part}` : part;
    if (current && INDENT.length + next.length > WIDTH) {
      lines.push(`${current},`);
      current = part;
    } else current = next;
  }
  if (current) lines.push(current);
  return lines;
}

/** The checklist for a terminal: one line per check, facts and fixes indented below it, in `say`'s language. */
export function renderText(result: DoctorReport, say: MessageRenderer = messageRenderer('en')): string {
  const lines = [say.render(doctorMessages.heading({ version: result.version, config: result.config })), ''];
  for (const check of result.checks) {
    lines.push(`[${MARK[check.status]}] ${check.title} — ${check.summary}`);
    for (const detail of check.details ?? []) for (const part of wrap(detail)) lines.push(`${INDENT}${part}`);
    for (const fix of check.fix ?? []) lines.push(`${INDENT}${say.render(doctorMessages.fixLine({ fix }))}`);
  }
  lines.push('');
  lines.push(
    say.render(
      result.failures === 0
        ? doctorMessages.noProblems()
        : doctorMessages.problems({ count: result.failures, code: exitCodeOf(result) }),
    ),
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `Paper: ok, Fiscal day open: yes, Daily files to send: 0` — a device's facts as the status page
 * says them (the driver family's labels, values in the report's language, times in the property's
 * zone), nulls left out.
 */
export function formatFacts(
  facts: Record<string, FactValue>,
  driver: string,
  say: MessageRenderer,
  now: number,
): string {
  return Object.entries(facts)
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => `${labelFor(driver, k, say)}: ${formatFact(v, say, now)}`)
    .join(', ');
}
