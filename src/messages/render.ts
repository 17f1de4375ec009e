import { IntlMessageFormat } from 'intl-messageformat';
import { type Locale, messageSource } from './catalogue.js';
import { coreMessages } from './core.js';
import { type Message, type MessageArg, readMessage } from './message.js';

/**
 * Turns messages into words in one locale, with FormatJS's `intl-messageformat` (ICU plurals and
 * numbers) and Node's own ICU (`Intl`) for lists, money, times and durations. Never throws: a
 * sentence that cannot be formatted in the locale falls back to English, then to its id and
 * values, so a Note is never lost to a formatting slip.
 */
export interface MessageRenderer {
  readonly locale: Locale;
  /** IANA zone that times are shown in (the property's). */
  readonly timeZone: string;
  render(message: Message): string;
  /** One placeholder value as words (a list, an amount, a time…). */
  value(arg: MessageArg): string;
}

/** The `Intl` locale behind each catalogue language: day-month dates and a 24-hour clock in both. */
const INTL_LOCALE: Record<Locale, string> = { en: 'en-GB', it: 'it-IT' };

const compiled = new Map<string, IntlMessageFormat | null>();

function compile(text: string, locale: Locale): IntlMessageFormat | null {
  const key = `${locale}\u0000${text}`;
  let format = compiled.get(key);
  if (format === undefined) {
    try {
      format = new IntlMessageFormat(text, INTL_LOCALE[locale]);
    } catch {
      format = null;
    }
    compiled.set(key, format);
  }
  return format;
}

const renderers = new Map<string, MessageRenderer>();

/** The renderer of `locale` in `timeZone` (one per pair; they keep their `Intl` formatters). */
export function messageRenderer(locale: Locale, timeZone = 'UTC'): MessageRenderer {
  const key = `${locale}|${timeZone}`;
  let renderer = renderers.get(key);
  if (!renderer) {
    renderer = createRenderer(locale, safeZone(timeZone));
    renderers.set(key, renderer);
  }
  return renderer;
}

/** English in UTC: log lines, `/healthz`, and whatever support reads. */
export function english(message: Message): string {
  return messageRenderer('en').render(message);
}

function safeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

function createRenderer(locale: Locale, timeZone: string): MessageRenderer {
  const intl = INTL_LOCALE[locale];
  const lists = {
    and: new Intl.ListFormat(intl, { type: 'conjunction' }),
    or: new Intl.ListFormat(intl, { type: 'disjunction' }),
  };
  const money = new Map<string, Intl.NumberFormat>();
  const times = {
    time: new Intl.DateTimeFormat(intl, { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit' }),
    date: new Intl.DateTimeFormat(intl, { timeZone, day: 'numeric', month: 'short', year: 'numeric' }),
    datetime: new Intl.DateTimeFormat(intl, {
      timeZone,
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }),
  };
  const duration = (ms: number): string => {
    const s = Number.isFinite(ms) ? Math.max(0, Math.round(ms / 1000)) : 0;
    if (s < 60) return renderer.render(coreMessages.seconds({ n: s }));
    const min = Math.floor(s / 60);
    if (min < 60) return renderer.render(coreMessages.minutes({ n: min }));
    const h = Math.floor(min / 60);
    if (h >= 48) return renderer.render(coreMessages.days({ n: Math.floor(h / 24) }));
    return renderer.render(
      min % 60 ? coreMessages.hoursMinutes({ h, m: min % 60 }) : coreMessages.hours({ n: h }),
    );
  };

  const amount = (value: number, currency: string): string => {
    let format = money.get(currency);
    if (!format) {
      try {
        format = new Intl.NumberFormat(intl, { style: 'currency', currency });
      } catch {
        format = new Intl.NumberFormat(intl, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      }
      money.set(currency, format);
    }
    return format.resolvedOptions().style === 'currency'
      ? format.format(value)
      : `${format.format(value)} ${currency}`;
  };

  const renderer: MessageRenderer = {
    locale,
    timeZone,
    value(arg: MessageArg): string {
      if (typeof arg === 'string') return arg;
      if (typeof arg === 'number') return String(arg);
      if ('id' in arg) return renderer.render(arg);
      if ('list' in arg) return lists[arg.join ?? 'and'].format(arg.list.map((item) => renderer.value(item)));
      if ('money' in arg) return amount(arg.money, arg.currency);
      if ('at' in arg) return Number.isFinite(arg.at) ? times[arg.show ?? 'datetime'].format(arg.at) : '';
      if ('ms' in arg) return duration(arg.ms);
      return '';
    },
    render(said: Message): string {
      // A journal or an older agent's JSON may still hold a plain sentence: `readMessage` keeps it.
      const message = readMessage(said);
      const values: Record<string, string | number> = {};
      for (const [name, arg] of Object.entries(message.values ?? {})) {
        values[name] = typeof arg === 'number' ? arg : renderer.value(arg);
      }
      return (
        formatIn(locale, message, values) ?? formatIn('en', message, values) ?? fallback(message, values)
      );
    },
  };
  return renderer;
}

function formatIn(
  locale: Locale,
  message: Message,
  values: Record<string, string | number>,
): string | undefined {
  const source = messageSource(message.id);
  if (!source) return undefined;
  const format = compile(source[locale], locale);
  if (!format) return undefined;
  try {
    const out = format.format(values);
    return typeof out === 'string' ? out : Array.isArray(out) ? out.join('') : String(out);
  } catch {
    return undefined;
  }
}

/** A message no catalogue knows (or that cannot be formatted): its id and values, readable. */
function fallback(message: Message, values: Record<string, string | number>): string {
  const shown = Object.entries(values).map(([name, value]) => `${name}: ${value}`);
  return shown.length > 0 ? `${message.id} (${shown.join(', ')})` : message.id;
}
