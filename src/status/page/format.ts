// The labels every driver family shares, registered wherever the page renders.
import '../../drivers-api/messages.js';
import { factTimeOf } from '../../drivers-api/facts.js';
import type { FactValue } from '../../drivers-api/types.js';
import { messageSource } from '../../messages/catalogue.js';
import { isMessage, type Message, type MessageArg } from '../../messages/message.js';
import { type MessageRenderer, messageRenderer } from '../../messages/render.js';
import { pageMessages } from './messages.js';

/**
 * Small, pure formatting helpers for the status page, in the page's language (`MessageRenderer`).
 * Times are shown in the property's time zone (the config's `timezone`), since that is the clock
 * on the receptionist's wall.
 */

/** `14:03:27`, or `3 Mar, 14:03:27` when `at` is not on the same day as `now`. */
export function when(at: number, now: number): MessageArg {
  return { at, show: Math.abs(now - at) < 12 * 3600_000 ? 'time' : 'datetime' };
}

export function formatTime(at: number, now: number, say: MessageRenderer): string {
  return say.value(when(at, now));
}

/** `3 s`, `4 min`, `2 h 5 min`, `3 days` / `3 giorni`. Negative values count as zero. */
export function formatDuration(ms: number, say: MessageRenderer): string {
  return say.value({ ms });
}

/** `12 s ago` / `12 s fa`; `never` / `mai` when `at` is undefined. */
export function formatAgo(at: number | undefined, now: number, say: MessageRenderer): string {
  return say.render(agoWords(at, now));
}

export function agoWords(at: number | undefined, now: number): Message {
  return at === undefined ? pageMessages.never() : pageMessages.ago({ duration: { ms: now - at } });
}

/** Milliseconds as `850 ms`, `2.4 s` / `2,4 s`, or `12 s`. */
export function latencyWords(ms: number): Message {
  if (ms < 1000) return pageMessages.latencyMs({ ms: Math.round(ms) });
  return ms < 10_000
    ? pageMessages.latencySeconds({ s: ms / 1000 })
    : pageMessages.latencyWholeSeconds({ s: ms / 1000 });
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

/**
 * The label of a device fact or result detail: the driver family's `label.<kind>.<key>`, else the
 * shared `label.<key>` (`src/drivers-api/messages.ts`), else the key made readable. A fact about
 * one of several things is keyed `<base>:<name>` (`printerState:Reception Laser`): its label is
 * the family's `label.<kind>.<base>` with the name as its `{name}` ("Printer Reception Laser").
 */
export function labelFor(driverKind: string | undefined, key: string, say: MessageRenderer): string {
  for (const id of [driverKind && `label.${driverKind}.${key}`, `label.${key}`]) {
    if (id && messageSource(id)) return say.render({ id });
  }
  const colon = key.indexOf(':');
  if (driverKind && colon > 0) {
    const id = `label.${driverKind}.${key.slice(0, colon)}`;
    if (messageSource(id)) return say.render({ id, values: { name: key.slice(colon + 1) } });
  }
  return humanizeKey(key);
}

/**
 * A fact value as words (see `FactValue`): booleans become yes/no, messages are rendered, numbers
 * in the locale's digits, a timestamp as a time in the property's zone (`when`: the time of day,
 * or the date too when it is not today), a calendar date as a date; any other string is a value
 * the device states (a serial, an address, a code) and is shown as it is.
 */
export function formatFact(value: FactValue, say: MessageRenderer, now: number): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return say.render(value ? pageMessages.yes() : pageMessages.no());
  if (typeof value === 'number') return new Intl.NumberFormat(say.locale).format(value);
  if (isMessage(value)) return say.render(value);
  const time = factTimeOf(value);
  if (time?.dateOnly) {
    // A calendar date names a day, not an instant: the same day in every zone.
    return messageRenderer(say.locale, 'UTC').value({ at: time.ms, show: 'date' });
  }
  if (time) return say.value(when(time.ms, now));
  return value;
}

/**
 * A bucket's `minute` as epoch ms: the snapshot may carry the minute's start in epoch ms or in
 * epoch minutes; anything below 10^11 is read as minutes (10^11 ms is in 1973).
 */
export function minuteToMs(minute: number): number {
  return minute < 1e11 ? minute * 60_000 : minute;
}
