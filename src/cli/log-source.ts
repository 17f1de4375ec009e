import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { findProgram, runProgram } from './programs.js';

/**
 * The agent's recent log for a support bundle: from journald (`journalctl -u <unit> --since
 * -<hours>h`) when no file is named and journalctl is there, else from a log file (the lines of
 * the last hours when they carry the agent's timestamps; its tail otherwise). `source` says
 * which, in words, and why when there is none.
 */
export interface LogExtract {
  source: string;
  text: string;
}

/** At most this much of a log goes into a bundle (its end). */
export const MAX_LOG_BYTES = 8 * 1024 * 1024;

export async function readRecentLog(options: {
  logFile?: string | undefined;
  unit: string;
  hours: number;
  env: NodeJS.ProcessEnv;
  now: number;
}): Promise<LogExtract> {
  if (options.logFile) return fromFile(options.logFile, options.hours, options.now);
  const journalctl = findProgram('journalctl', options.env);
  if (!journalctl) return { source: 'none: no journalctl on this PC and no --log-file given', text: '' };
  const args = ['-u', options.unit, '--since', `-${options.hours}h`, '--no-pager', '-o', 'short-iso'];
  const run = await runProgram(journalctl, args, {
    env: options.env,
    timeoutMs: 30_000,
    maxBytes: 4 * MAX_LOG_BYTES,
  });
  const command = `journalctl ${args.join(' ')}`;
  if (run.code !== 0) {
    const why = run.stderr.trim().split('\n')[0] || `exit code ${run.code}`;
    return { source: `none: ${command} failed (${why}); name a file with --log-file`, text: '' };
  }
  return { source: command, text: tail(run.stdout) };
}

function tail(text: string): string {
  if (Buffer.byteLength(text) <= MAX_LOG_BYTES) return text;
  const buffer = Buffer.from(text);
  const cut = buffer.subarray(buffer.length - MAX_LOG_BYTES).toString('utf8');
  return cut.slice(cut.indexOf('\n') + 1);
}

/** The timestamp the agent's log lines start with (plain format), or carry as `"time"` (JSON). */
const STAMP = /^(?:<\d>)?(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)|"time":"(\d{4}-\d\d-\d\dT[^"]+)"/;

function fromFile(path: string, hours: number, now: number): LogExtract {
  let text: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, MAX_LOG_BYTES);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString('utf8');
      if (size > length) text = text.slice(text.indexOf('\n') + 1);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return {
      source: `none: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      text: '',
    };
  }
  const since = now - hours * 3600_000;
  const lines = text.split('\n');
  const stamped = lines.some((line) => STAMP.test(line));
  if (!stamped)
    return {
      source: `file ${path} (its last ${MAX_LOG_BYTES / 1024 / 1024} MB: no timestamps to select by)`,
      text,
    };
  const kept: string[] = [];
  let keep = false;
  for (const line of lines) {
    const match = STAMP.exec(line);
    if (match) keep = Date.parse((match[1] ?? match[2]) as string) >= since;
    if (keep) kept.push(line);
  }
  return { source: `file ${path} (the lines of the last ${hours} hours)`, text: kept.join('\n') };
}
