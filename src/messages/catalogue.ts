import type { Message, MessageArg } from './message.js';

/**
 * The one catalogue of what people read: every sentence of the agent — Notes, the status page,
 * the command line's words for people — is an entry made by `defineMessages`, with its English and
 * Italian text side by side as ICU MessageFormat (plurals, numbers; see `render.ts` for lists,
 * money, times and durations).
 *
 * Each part of the agent keeps its entries in a `messages.ts` beside its code (`src/errors.ts`'s
 * sentences per error code in `src/messages/error-codes.ts`, the engine's in
 * `src/commands/rules/messages.ts`, a driver family's in `drivers/<family>/messages.ts`…).
 * Defining is registering: the module that says a sentence imports its entries, so a message can
 * never be built without being in the registry. The composition root loads the lists of every part's
 * entries — `src/catalogues.ts` the core's, `drivers/index.ts` every family's — so a Note in the
 * journal renders even when the part that said it is not loaded; this module, on the ground
 * floor, imports none of them. One test
 * (`test/messages/catalogue.test.ts`) checks every entry: both languages, the same placeholders,
 * valid ICU.
 *
 * Sentences use the typographic apostrophe (’): in ICU an ASCII one can start a quotation.
 */

export const LOCALES = ['en', 'it'] as const;
export type Locale = (typeof LOCALES)[number];

/** One entry: the same sentence in every language. */
export type MessageSource = { readonly [L in Locale]: string };

/** A plural branch's selector, before its `{`: `one {`, `other {`, `=0 {`. */
type PluralKey = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other' | `=${number}`;
type EndsWithPluralKey<S extends string> = S extends `${PluralKey}${'' | ' '}`
  ? true
  : S extends `${string}${' ' | ',' | '}'}${PluralKey}${'' | ' '}`
    ? true
    : false;
type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;
type ValidName<N extends string> = N extends ''
  ? never
  : N extends `${string}${' ' | '#' | '{' | '\n' | '.' | '’'}${string}`
    ? never
    : N;
/** The argument's name at the start of what follows a `{`: up to the first `}`, then the first `,`. */
type HeadName<Body extends string> = Body extends `${infer Head}}${string}`
  ? Head extends `${infer Name},${string}`
    ? ValidName<Trim<Name>>
    : ValidName<Trim<Head>>
  : never;

/**
 * The placeholder names of an ICU message, at compile time: every `{name}` or `{name, …}` that is
 * not a plural branch. `placeholderScan` below is the same rule at run time, and the catalogue
 * test proves it agrees with the ICU parser on every entry.
 */
export type Placeholders<S extends string> = S extends `${infer Before}{${infer Body}`
  ? (EndsWithPluralKey<Before> extends true ? never : HeadName<Body>) | Placeholders<Body>
  : never;

/** Builds the message of one entry; its values are exactly the English sentence's placeholders. */
export type MessageBuilder<S extends string> = [Placeholders<S>] extends [never]
  ? () => Message
  : (values: { readonly [K in Placeholders<S>]: MessageArg }) => Message;

export type MessageBuilders<T extends Record<string, MessageSource>> = {
  readonly [K in keyof T & string]: MessageBuilder<T[K]['en']>;
};

const registry = new Map<string, MessageSource>();

/**
 * Registers a namespace's entries and returns a builder per entry: `m.keysCut({count, rooms})`
 * gives `{id: '<namespace>.keysCut', values: {count, rooms}}`. Throws when an id is defined twice
 * with other words (two families claiming one namespace).
 */
export function defineMessages<const T extends Record<string, MessageSource>>(
  namespace: string,
  entries: T,
): MessageBuilders<T> {
  const builders: Record<string, (values?: Record<string, MessageArg>) => Message> = {};
  for (const [key, source] of Object.entries(entries)) {
    const id = `${namespace}.${key}`;
    const known = registry.get(id);
    if (known && LOCALES.some((locale) => known[locale] !== source[locale])) {
      throw new Error(`message ${id} is defined twice with different words`);
    }
    registry.set(id, source);
    builders[key] = (values) => (values === undefined ? { id } : { id, values });
  }
  return builders as unknown as MessageBuilders<T>;
}

/** The entry of `id`, or undefined when no module defined it. */
export function messageSource(id: string): MessageSource | undefined {
  return registry.get(id);
}

/** Every registered entry, by id (for the catalogue test and tools). */
export function catalogueEntries(): ReadonlyMap<string, MessageSource> {
  return registry;
}

/** The run-time twin of `Placeholders`: the names the compile-time check sees in `text`. */
export function placeholderScan(text: string): string[] {
  const names = new Set<string>();
  let start = 0;
  for (let open = text.indexOf('{'); open !== -1; open = text.indexOf('{', open + 1)) {
    const before = text.slice(start, open);
    start = open + 1;
    if (/(^|[ ,}])(zero|one|two|few|many|other|=\d+) ?$/.test(before)) continue;
    const close = text.indexOf('}', open + 1);
    if (close === -1) continue;
    const head = text.slice(open + 1, close);
    const name = (head.includes(',') ? head.slice(0, head.indexOf(',')) : head).trim();
    if (name !== '' && !/[ #{\n.’]/.test(name)) names.add(name);
  }
  return [...names].sort();
}
