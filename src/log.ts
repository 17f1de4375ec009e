import { Writable } from 'node:stream';
import winston from 'winston';

/**
 * The small logging interface every module takes. Fields are structured; the sink decides how they
 * are printed. Implementations never throw.
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
}

export type LogFields = Record<string, unknown>;
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'plain' | 'json';

export interface LoggerOptions {
  level?: LogLevel;
  format?: LogFormat;
  /**
   * Strings that must never be printed (tokens). Every occurrence becomes `[redacted]`. The array
   * is read at every line, so secrets learnt later (e.g. a simulator's tokens) can be pushed in.
   */
  secrets?: readonly string[];
  /** Where lines go; stdout by default (journald picks it up under systemd). */
  stream?: NodeJS.WritableStream;
}

/** Syslog priority prefixes understood by journald on stdout (sd-daemon(3)). */
const JOURNAL_PRIORITY: Record<LogLevel, string> = { error: '<3>', warn: '<4>', info: '<6>', debug: '<7>' };

/**
 * Replaces every configured secret in `text`. Secrets shorter than 6 characters are ignored, so
 * that a test token such as "a" does not shred every line.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 6 && out.includes(secret)) out = out.split(secret).join('[redacted]');
  }
  return out;
}

function renderValue(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.message);
  if (typeof value === 'string')
    return /^[\w.:/@+-]*$/.test(value) && value !== '' ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * Builds a winston-backed Logger. Plain format: `<6>info message key=value …` (the `<N>` prefix
 * lets journald keep the level, only when `JOURNAL_STREAM` says stdout is the journal). JSON
 * format: one object per line.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = options.secrets ?? [];
  const journal = options.stream === undefined && process.env.JOURNAL_STREAM !== undefined;
  const format = options.format ?? 'plain';
  const line = winston.format.printf((info) => {
    const {
      level,
      message,
      timestamp: _t,
      ...rest
    } = info as Record<string, unknown> & {
      level: LogLevel;
      message: string;
    };
    for (const key of Object.getOwnPropertySymbols(rest)) delete (rest as Record<symbol, unknown>)[key];
    if (format === 'json') {
      return redact(JSON.stringify({ time: new Date().toISOString(), level, message, ...rest }), secrets);
    }
    const fields = Object.entries(rest)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${renderValue(v)}`)
      .join(' ');
    const prefix = journal ? JOURNAL_PRIORITY[level] : `${new Date().toISOString()} `;
    return redact(`${prefix}${level} ${message}${fields ? ` ${fields}` : ''}`, secrets);
  });
  const stream = options.stream ?? process.stdout;
  const base = winston.createLogger({
    level: options.level ?? 'info',
    format: line,
    transports: [new winston.transports.Stream({ stream: stream as Writable })],
  });
  return wrap(base, {});
}

function wrap(base: winston.Logger, bound: LogFields): Logger {
  const emit = (level: LogLevel) => (message: string, fields?: LogFields) => {
    try {
      base.log(level, message, { ...bound, ...fields });
    } catch {
      // A logger must never take the agent down.
    }
  };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (fields) => wrap(base, { ...bound, ...fields }),
  };
}

/** A logger that keeps lines in memory; for tests and for the status page's recent log. */
export function createMemoryLogger(options: Omit<LoggerOptions, 'stream'> = {}): Logger & {
  lines: string[];
} {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(l);
      done();
    },
  });
  const logger = createLogger({ ...options, level: options.level ?? 'debug', stream });
  return Object.assign(logger, { lines });
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};
