import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import '../../drivers/index.js';
import { ERROR_CODES } from '../../src/errors.js';
import {
  catalogueEntries,
  LOCALES,
  type Locale,
  type MessageSource,
  placeholderScan,
} from '../../src/messages/catalogue.js';
import '../../src/catalogues.js';
import { messageRenderer } from '../../src/messages/render.js';
import { REPO_ROOT, tsFiles } from '../helpers/source-files.js';

/**
 * The one completeness test of what people read: every entry of the catalogue, from the core and
 * from every driver family, exists in every language, parses as ICU MessageFormat, and has the
 * same placeholders (with the same kind: text, number, select) in each language. And every
 * catalogue in the tree is reached from the two places the agent loads them from.
 */

const root = REPO_ROOT;

type Element = {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
};

/** ICU argument kinds as the parser tells them: 1 argument, 2 number, 5 select, 6 plural … */
function kindOf(type: number): string {
  if (type === 2 || type === 6) return 'number';
  if (type === 5) return 'select';
  if (type === 3 || type === 4) return 'date';
  return 'text';
}

function placeholders(elements: Element[], out = new Map<string, string>()): Map<string, string> {
  for (const el of elements) {
    if (el.value !== undefined && [1, 2, 3, 4, 5, 6].includes(el.type)) out.set(el.value, kindOf(el.type));
    for (const option of Object.values(el.options ?? {})) placeholders(option.value, out);
  }
  return out;
}

function parse(text: string, locale: Locale): Map<string, string> {
  return placeholders(new IntlMessageFormat(text, locale).getAst() as Element[]);
}

const entries = [...catalogueEntries()] as Array<[string, MessageSource]>;

describe('the message catalogue', () => {
  it('holds every catalogue of the tree, loaded from src/catalogues.ts and drivers/index.ts', async () => {
    const before = catalogueEntries().size;
    const defining = [...tsFiles(join(root, 'src')), ...tsFiles(join(root, 'drivers'))].filter(
      (file) =>
        !file.endsWith(join('messages', 'catalogue.ts')) &&
        /\bdefineMessages\(/.test(readFileSync(file, 'utf8')),
    );
    for (const file of defining) {
      // One place to look per part: a family's or an area's sentences live in its messages.ts
      // (split by subject as messages-<subject>.ts beside it when one file would grow too long).
      expect(relative(root, file)).toMatch(/(^|\/)messages(-[a-z]+)?\.ts$|^src\/messages\/[a-z-]+\.ts$/);
      await import(file);
    }
    expect(catalogueEntries().size).toBe(before);
    expect(before).toBeGreaterThan(300);
  });

  it('has every message in every language, as valid ICU, with the same placeholders', () => {
    const problems: string[] = [];
    for (const [id, source] of entries) {
      const found = new Map<Locale, Map<string, string>>();
      for (const locale of LOCALES) {
        const text = source[locale];
        if (typeof text !== 'string' || text.trim() === '') {
          problems.push(`${id}: no ${locale} text`);
          continue;
        }
        try {
          found.set(locale, parse(text, locale));
        } catch (error) {
          problems.push(`${id} (${locale}): ${(error as Error).message}`);
        }
        // An ASCII apostrophe can start an ICU quotation: the catalogue writes ’.
        if (text.includes("'")) problems.push(`${id} (${locale}) has an ASCII apostrophe`);
      }
      const en = found.get('en');
      for (const [locale, args] of found) {
        if (en && JSON.stringify([...args].sort()) !== JSON.stringify([...en].sort())) {
          problems.push(
            `${id}: ${locale} has ${JSON.stringify([...args])}, en has ${JSON.stringify([...en])}`,
          );
        }
      }
      // The compile-time placeholder check (`Placeholders`) sees exactly the parser's names.
      if (en && JSON.stringify(placeholderScan(source.en)) !== JSON.stringify([...en.keys()].sort())) {
        problems.push(
          `${id}: the type-level scan sees ${placeholderScan(source.en)}, ICU sees ${[...en.keys()]}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('renders every message in every language with sample values, leaving no brace behind', () => {
    for (const [id, source] of entries) {
      const values = Object.fromEntries(
        [...parse(source.en, 'en')].map(([name, kind]) => [name, kind === 'number' ? 2 : `‹${name}›`]),
      );
      for (const locale of LOCALES) {
        const text = messageRenderer(locale).render({ id, values });
        expect(text, `${id} (${locale})`).not.toMatch(/[{}]/);
        expect(text, `${id} (${locale})`).not.toBe(id);
      }
    }
  });

  it('has a sentence for every error code', () => {
    const ids = new Set(entries.map(([id]) => id));
    expect(Object.keys(ERROR_CODES).filter((code) => !ids.has(`error.${code}`))).toEqual([]);
  });

  it('says the issue’s examples as a receptionist in Italy reads them', () => {
    const it = messageRenderer('it', 'Europe/Rome');
    expect(
      it.render({
        id: 'device.keysForRooms',
        values: { count: 2, rooms: { id: 'device.rooms', values: { count: 1, rooms: { list: ['202'] } } } },
      }),
    ).toBe('2 chiavi per la camera 202');
    expect(
      it.render({
        id: 'sim.receiptPrinted',
        values: { receipt: '0012-0034', serial: '99MEY123456', total: { money: 123.45, currency: 'EUR' } },
      }),
    ).toBe('Scontrino 0012-0034 su RT 99MEY123456, totale 123,45\u00a0€');
  });
});
