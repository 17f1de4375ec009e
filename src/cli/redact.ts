import Database from 'better-sqlite3';
import { z } from 'zod';
import type { DriverRegistry } from '../drivers-api/types.js';

/**
 * Redaction for support bundles. Nothing that leaves the PC may hold a token or a guest's name,
 * phone number or e-mail address. Three layers: the secrets the CLI knows (tokens), the personal
 * data the journal holds (harvested from the stored commands: guests' and creators' names,
 * phones, e-mails, bill names), and patterns for what was never in the journal (any e-mail
 * address, international and Italian phone number, codice fiscale, secret in a URL).
 */

/** Keys of a stored command whose string values are personal data. */
const PERSONAL_KEY =
  /^(first_?name|last_?name|normalized_?first_?name|normalized_?last_?name|surname|telephone|phone|mobile|email|creator_?name)$/i;
/** Objects whose `name` is a person's (a bill is often named after its guest). */
const PERSONAL_PARENT = /^(guest|customer|booker|companion|creator|bill)$/i;

/** Collects personal strings from a parsed command (or anything JSON-shaped). */
export function harvestPersonalData(value: unknown, into: Set<string>, parent = ''): void {
  if (Array.isArray(value)) {
    for (const item of value) harvestPersonalData(item, into, parent);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (typeof child === 'string') {
      if (PERSONAL_KEY.test(key) || (key.toLowerCase() === 'name' && PERSONAL_PARENT.test(parent))) {
        const text = child.trim();
        if (text.length >= 2) into.add(text);
      }
    } else harvestPersonalData(child, into, key);
  }
}

/** Personal strings of every command a journal file holds (read-only; empty when unreadable). */
export function harvestJournal(path: string): Set<string> {
  const found = new Set<string>();
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const rows = db
      .prepare('SELECT command_json, result_json, error_json FROM commands')
      .iterate() as Iterable<Record<string, string | null>>;
    for (const row of rows) {
      for (const text of Object.values(row)) {
        if (!text) continue;
        try {
          harvestPersonalData(JSON.parse(text), found);
        } catch {
          // a damaged row: its strings are not trusted as names either way
        }
      }
    }
  } catch {
    // no journal, or not one: only the patterns apply
  } finally {
    db?.close();
  }
  return found;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` as a whole word (not inside a longer one), whitespace matching any whitespace. */
function wordPattern(text: string, flags: string): RegExp {
  const spaced = escapeRegExp(text).replace(/\s+/g, '\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${spaced}(?![\\p{L}\\p{N}])`, flags);
}

const EMAIL = /[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+/gu;
/** International numbers (+39 347 555 0192, +44 (20) 7946-0958): the plus makes them unambiguous. */
const PHONE = /\+\d[\d \t().-]{6,}\d/g;
/**
 * Italian numbers written without the country code (issue 27, finding 9): mobiles are 9 or 10
 * digits starting with 3 (347 555 0192), landlines 9 to 11 digits starting with 0 (06 6988 1234,
 * 0331 123456), as the Italian national numbering plan lays them out. Fewer digits are left
 * alone, so a receipt number such as 0012-0034 (8 digits) stays readable for support.
 */
const NATIONAL_PHONE =
  /(?<![\p{L}\p{N}.:+-])(?:3\d{2}(?:[ ./-]?\d){6,7}|0\d(?:[ ./-]?\d){7,9})(?![\p{L}\p{N}])/gu;
/**
 * A codice fiscale (the layout the Agenzia delle Entrate publishes): six letters, two
 * digits, the month's letter, two digits, a letter, three digits, the check letter — digits may
 * be replaced by L–V when two people would share a code (omocodia).
 */
const CODICE_FISCALE =
  /(?<![\p{L}\p{N}])[A-Z]{6}[\dLMNP-V]{2}[ABCDEHLMPRST][\dLMNP-V]{2}[A-Z][\dLMNP-V]{3}[A-Z](?![\p{L}\p{N}])/giu;
/** Secrets in URLs: query parameters named for them (`?access_token=…`) and user:password@. */
const URL_SECRET_PARAM =
  /([?&;](?:access_?token|id_?token|refresh_?token|client_?token|token|api_?key|apikey|key|secret|client_?secret|password|passwd|pwd|sig|signature|auth|code)=)[^&\s#"'<>]+/gi;
const URL_USERINFO = /(\b[a-z][\w+.-]*:\/\/)[^\s/@]+@/gi;

export class Redactor {
  private readonly patterns: Array<[RegExp, string]> = [];

  constructor(secrets: Iterable<string>, personal: Iterable<string>) {
    for (const secret of new Set(secrets)) {
      if (secret.length >= 6) this.patterns.push([new RegExp(escapeRegExp(secret), 'g'), '[redacted]']);
    }
    const phones = new Set<string>();
    const whole = new Set<string>();
    const parts = new Set<string>();
    for (const text of personal) {
      const digits = text.replace(/\D/g, '');
      if (/^\+?[\d\s().-]+$/.test(text) && digits.length >= 6) {
        phones.add(digits);
        // Written without its country code (1 to 3 digits) too: "+39 347 …" as "347 …".
        if (text.trim().startsWith('+'))
          for (const cc of [1, 2, 3]) if (digits.length - cc >= 6) phones.add(digits.slice(cc));
      } else {
        whole.add(text);
        // "Ricevuta 1002 – Zoë Müller" names a guest inside: each word of three letters or more
        // goes too (as written: a capitalised name, not the same word in a sentence).
        for (const word of text.split(/[\s–—,;:()/]+/))
          if (word.length >= 3 && /\p{L}/u.test(word)) parts.add(word);
      }
    }
    // Addresses and numbers before names: a name inside an address would break its pattern.
    this.patterns.push([URL_SECRET_PARAM, '$1[redacted]'], [URL_USERINFO, '$1[redacted]@']);
    this.patterns.push([EMAIL, '[email]'], [CODICE_FISCALE, '[codice fiscale]']);
    // A phone number however it is spaced: the same digits with any separators between.
    for (const digits of [...phones].sort((a, b) => b.length - a.length))
      this.patterns.push([new RegExp(`\\+?${digits.split('').join('[ \\t().-]*')}`, 'g'), '[phone]']);
    this.patterns.push([PHONE, '[phone]'], [NATIONAL_PHONE, '[phone]']);
    // Longest first, so "Maria Grazia" goes before "Maria".
    const byLength = (a: string, b: string) => b.length - a.length;
    for (const text of [...whole].sort(byLength)) this.patterns.push([wordPattern(text, 'giu'), '[guest]']);
    for (const word of [...parts].sort(byLength)) this.patterns.push([wordPattern(word, 'gu'), '[guest]']);
  }

  text(input: string): string {
    let out = input;
    for (const [pattern, replacement] of this.patterns) out = out.replace(pattern, replacement);
    return out;
  }
}

/** Keys of the configuration whose values are secrets (the `…File` and `…Env` keys only name them). */
const SECRET_KEY = /(token|secret|password|passphrase|credential|api_?key|private_?key)$/i;

/** A copy of a configuration document with secret values and URL passwords taken out. */
export function redactConfig(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => redactConfig(item, key));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactConfig(v, k)]),
    );
  }
  if (typeof value === 'string') {
    if (SECRET_KEY.test(key)) return '[redacted]';
    return value.replace(/^([a-z][\w+.-]*:\/\/)[^/@\s]*@/i, '$1[redacted]@');
  }
  return value;
}

/** A configured device, as far as `defaultAccountSerials` reads it. */
export interface BundledDevice {
  id: string;
  driver: string;
  options: Record<string, unknown>;
}

/**
 * The serial numbers that are also a printer's password, for the bundle to take out (issue 40,
 * low finding): a device whose driver logs in to the printer with HTTP Basic (its options take
 * `credentials`) and has none configured uses the printer's default account — for a Custom RT
 * printer its serial (matricola) as user and password (drivers/custom-rt/README.md, "Setting
 * up"), the serial printed on every receipt. So is one whose configured password is its serial.
 * The serials come from the options (`serialNumber`) and from the device's status facts (what
 * the printer told the running agent). Drivers are told apart by their options schema, never by
 * name; a driver that cannot be loaded counts as having no account.
 */
export async function defaultAccountSerials(
  devices: readonly BundledDevice[],
  registry: DriverRegistry,
  facts: ReadonlyMap<string, Record<string, unknown>>,
): Promise<string[]> {
  const serials = new Set<string>();
  for (const device of devices) {
    let schema: unknown;
    try {
      schema = (await registry.get(device.driver)?.())?.configSchema;
    } catch {
      continue;
    }
    const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, unknown>) : {};
    if (!('credentials' in shape) && !('credentialsFile' in shape)) continue;
    const known = [device.options.serialNumber, facts.get(device.id)?.serialNumber].filter(
      (value): value is string => typeof value === 'string' && value.trim() !== '',
    );
    const credentials = device.options.credentials as { password?: unknown } | undefined;
    const ownAccount =
      (credentials !== undefined || device.options.credentialsFile !== undefined) &&
      !known.some((serial) => serial.toUpperCase() === String(credentials?.password ?? '').toUpperCase());
    if (!ownAccount) for (const serial of known) serials.add(serial.trim());
  }
  return [...serials];
}
