/**
 * What the agent says to people, as data: a message id from the catalogue and the values of its
 * placeholders. Drivers and the core build `Message`s; only the edges render them into words — the
 * platform's Notes and the status page in the configured locale, log lines in English — so one
 * Note can be read in either language, and the journal keeps it language-neutral.
 *
 * Everything here is JSON: a `Message` is stored in the journal and sent in `/status.json` as is.
 */

/** A placeholder's value. Plain strings and numbers go into the sentence as they are. */
export type MessageArg =
  | string
  | number
  | Message
  /** Items joined as words: "202 and SPA" / "202 e SPA" (`or`: "202 or SPA" / "202 o SPA"). */
  | { readonly list: readonly MessageArg[]; readonly join?: 'and' | 'or' }
  /** An amount of money in the locale: "€123.45" / "123,45 €". */
  | { readonly money: number; readonly currency: string }
  /** An instant (epoch ms) in the property's time zone: a time, a date, or both. */
  | { readonly at: number; readonly show?: 'time' | 'date' | 'datetime' }
  /** A length of time (ms), roughly: "3 s", "4 min", "2 h 5 min", "3 days" / "3 giorni". */
  | { readonly ms: number };

export interface Message {
  /** `<namespace>.<key>` of an entry made by `defineMessages`. */
  readonly id: string;
  readonly values?: Readonly<Record<string, MessageArg>>;
}

/** The catalogue's one entry for text that comes as it is (an older journal, the platform's words). */
export const TEXT_MESSAGE_ID = 'core.text';

/**
 * A message that says `text` verbatim, in every language. Only for words that come as they are
 * from outside the agent, where no catalogue sentence can say them: the platform's own (a command
 * state this build does not know, the Notes the platform holds), and sentences an older build
 * stored in its journal or its `/status.json` (`readMessage`). The agent's own sentences are
 * catalogue entries; a device's or the platform's words inside one of them go in as a placeholder
 * of a sentence that says whose words they are ("the printer answered “{words}”").
 */
export function textMessage(text: string): Message {
  return { id: TEXT_MESSAGE_ID, values: { text } };
}

export function isMessage(value: unknown): value is Message {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { id?: unknown }).id === 'string' &&
    ((value as { values?: unknown }).values === undefined ||
      (typeof (value as { values?: unknown }).values === 'object' &&
        (value as { values?: unknown }).values !== null))
  );
}

/**
 * A Note as stored or received: a `Message`, or a plain sentence written by an older build (its
 * journal, an older agent's `/status.json`). Anything else reads as no words at all.
 */
export function readMessage(value: unknown): Message {
  if (isMessage(value)) return value;
  if (typeof value === 'string') return textMessage(value);
  return textMessage('');
}

/**
 * The journal's `notes` column: a `Message` as JSON, or — written by an older build — the sentence
 * itself.
 */
export function readStoredMessage(text: string): Message {
  if (text.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isMessage(parsed)) return parsed;
    } catch {
      // A sentence that happens to start with a brace.
    }
  }
  return textMessage(text);
}

/** The text the journal's `notes` column keeps for a message. */
export function storedMessage(message: Message): string {
  return JSON.stringify(message);
}
