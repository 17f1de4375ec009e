import { Writable } from 'node:stream';
import winston from 'winston';
import { AuditFile } from './audit-file.js';
import type { Clock } from './clock.js';
import { isAgentError, toAgentError } from './errors.js';
import { RepeatWindows } from './log-repeats.js';
import { sourceMappedStack } from './stack-map.js';

/**
 * The small logging interface every module takes. Fields are structured; the sink decides how they
 * are printed. Implementations never throw.
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /**
   * A warning that can come in floods (a refused connection, a failed login, a journal that
   * cannot be read): `source` names who or what causes it (an address, a uid, the journal). The
   * first of a quiet source is written at once; the rest are counted and summed up in one line
   * per minute per source, the same message with `repeated=<count>` and `since=<time>`
   * (log-repeats.ts).
   */
  repeated(message: string, source: string, fields?: LogFields): void;
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
  /**
   * Start plain lines with journald's priority prefix (`<6>`) instead of the time. Default: when
   * writing to stdout and `JOURNAL_STREAM` says stdout is the journal.
   */
  journal?: boolean;
  /**
   * Where every `audit=` line also goes, plain and with its time, beyond the reach of journald's
   * rate limit (audit-file.ts). None when omitted.
   */
  auditFile?: string;
  /** The clock of `repeated`'s windows (tests pass a ManualClock). */
  clock?: Clock;
}

/** Syslog priority prefixes understood by journald on stdout (sd-daemon(3)). */
const JOURNAL_PRIORITY: Record<LogLevel, string> = { error: '<3>', warn: '<4>', info: '<6>', debug: '<7>' };

/** Where winston keeps the finished line of an entry (triple-beam's `MESSAGE`). */
const MESSAGE = Symbol.for('message');

type Entry = winston.Logform.TransformableInfo;

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

/**
 * The one way an error goes into a log line: its code, message and details — and a stack only
 * when it is unexpected (not an AgentError, or INTERNAL), because an expected failure (a platform
 * outage, a device unplugged) is explained by its code and message. The stack names the original
 * sources in the bundled agent too (src/stack-map.ts). Spread it into the fields:
 * `log.warn('delivery failed', { commandId, ...errorFields(error) })`.
 */
export function errorFields(error: unknown): LogFields {
  const e = toAgentError(error);
  const fields: LogFields = { code: e.code, error: e.message };
  if (Object.keys(e.details).length > 0) fields.details = e.details;
  const unexpected = !isAgentError(error) || e.code === 'INTERNAL';
  const stack = error instanceof Error ? error.stack : undefined;
  if (unexpected && stack) fields.stack = sourceMappedStack(stack);
  return fields;
}

function renderValue(value: unknown): string {
  if (typeof value === 'string')
    return /^[\w.:/@+-]*$/.test(value) && value !== '' ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * A field name as printed: bare when it is `[\w.-]+`, else quoted as JSON. Field names can come
 * from outside (a request's keys, a device's answer): quoting keeps `=`, spaces and line breaks in
 * one field, so a crafted name cannot start a line of its own or pose as another field.
 */
export function renderKey(key: string): string {
  return /^[\w.-]+$/.test(key) ? key : JSON.stringify(key);
}

/**
 * The message with every control character written as an escape (`\n`, `\u001b`): a line break
 * in a message would make journald store a second entry, with a priority prefix of its writer's
 * choice.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it finds.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function oneLine(text: string): string {
  return text.replace(
    CONTROL,
    (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The entry's own fields: everything but winston's level, message and bookkeeping. */
function fieldsOf(entry: Entry): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const key of Object.keys(entry)) {
    if (key !== 'level' && key !== 'message' && key !== 'time') out.push([key, entry[key]]);
  }
  return out;
}

/** An Error given as a field value prints as its message (use `errorFields` for more). */
function errorsToMessages(entry: Entry): void {
  for (const key of Object.keys(entry)) {
    const value = entry[key];
    if (value instanceof Error) entry[key] = value.message;
  }
}

/** `level message key=value …`, after the time, or after journald's priority prefix. */
function plainText(entry: Entry, journal: boolean): string {
  let fields = '';
  for (const [key, value] of fieldsOf(entry)) {
    if (value !== undefined) fields += ` ${renderKey(key)}=${renderValue(value)}`;
  }
  const level = entry.level as LogLevel;
  const prefix = journal ? JOURNAL_PRIORITY[level] : `${String(entry.time)} `;
  return `${prefix}${level} ${oneLine(String(entry.message))}${fields}`;
}

/**
 * The plain line in one format step (errors as messages, the time, the text, the redaction): a
 * chain of four formats cost a tenth of the agent's CPU per receipt (issue 26).
 */
const plainLine = (journal: boolean, secrets: readonly string[]) =>
  winston.format((entry) => {
    errorsToMessages(entry);
    entry.time = new Date().toISOString();
    entry[MESSAGE] = redact(plainText(entry, journal), secrets);
    return entry;
  })();

const jsonLine = (secrets: readonly string[]) =>
  winston.format.combine(
    winston.format((entry) => {
      errorsToMessages(entry);
      entry.time = new Date().toISOString();
      return entry;
    })(),
    winston.format.json(),
    winston.format((entry) => {
      entry[MESSAGE] = redact(String(entry[MESSAGE] ?? ''), secrets);
      return entry;
    })(),
  );

/**
 * Builds a winston-backed Logger. Plain format: `<6>info message key=value …` (the `<N>` prefix
 * lets journald keep the level, only when `JOURNAL_STREAM` says stdout is the journal; otherwise
 * the line starts with the time). JSON format: one object per line, `time` included. Either way
 * one call is one line: messages, field names and values from outside cannot break it (control
 * characters escaped, odd names quoted), and every line passes the redaction last.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = options.secrets ?? [];
  const journal =
    options.journal ?? (options.stream === undefined && process.env.JOURNAL_STREAM !== undefined);
  const transport = options.stream
    ? new winston.transports.Stream({ stream: options.stream as Writable })
    : new winston.transports.Console();
  const base = winston.createLogger({
    level: options.level ?? 'info',
    format: (options.format ?? 'plain') === 'json' ? jsonLine(secrets) : plainLine(journal, secrets),
    transports: [transport],
  });
  const sink: Sink = {
    base,
    secrets,
    repeats: new RepeatWindows<RepeatedLine>(
      ({ count, since, last }) =>
        write(sink, 'warn', last.message, {
          ...last.fields,
          repeated: count,
          since: new Date(since).toISOString(),
        }),
      options.clock ? { clock: options.clock } : {},
    ),
    ...(options.auditFile ? { audit: new AuditFile(options.auditFile) } : {}),
  };
  return wrap(sink, {}, '');
}

/** What every logger of one `createLogger` shares: winston, the secrets, the windows, the audit file. */
interface Sink {
  base: winston.Logger;
  secrets: readonly string[];
  repeats: RepeatWindows<RepeatedLine>;
  audit?: AuditFile;
}

interface RepeatedLine {
  message: string;
  fields: LogFields;
}

/** One line to winston, and an audit line to the audit file too. Never throws. */
function write(sink: Sink, level: LogLevel, message: string, fields: LogFields): void {
  try {
    // winston formats a line before its transport drops it by level: a debug line off would
    // cost as much as one printed (issue 26: the connector's debug lines were a third of the
    // logging's allocations in a receipt burst).
    if (sink.base.isLevelEnabled(level)) sink.base.log(level, message, fields);
    if (sink.audit && fields.audit !== undefined) {
      const entry: Entry = { level, message, time: new Date().toISOString(), ...fields };
      errorsToMessages(entry);
      const failed = sink.audit.append(redact(plainText(entry, false), sink.secrets));
      if (failed !== undefined)
        sink.base.log('error', 'the audit file cannot be written', { file: sink.audit.path, error: failed });
    }
  } catch {
    // A logger must never take the agent down.
  }
}

function wrap(sink: Sink, bound: LogFields, boundKey: string): Logger {
  const emit = (level: LogLevel) => (message: string, fields?: LogFields) =>
    write(sink, level, message, { ...bound, ...fields });
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    repeated(message, source, fields) {
      const line = { message, fields: { ...bound, ...fields } };
      if (sink.repeats.note(`${message}\u0000${source}\u0000${boundKey}`, line) !== undefined)
        write(sink, 'warn', message, line.fields);
    },
    child: (fields) => {
      const all = { ...bound, ...fields };
      return wrap(sink, all, JSON.stringify(all));
    },
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
  repeated() {},
  child() {
    return silentLogger;
  },
};
