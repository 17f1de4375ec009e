/**
 * Making text safe for a key-card protocol's field, shared by the key drivers: both protocols
 * carry single-byte (Latin-1) text — Salto's industry-standard frames, FIAS's records (IFC8 FIAS
 * specification §3, p.12: ASCII, or "extended ASCII" for other alphabets). The lock software and
 * the card printers behind it are often ASCII-only, so guest names may go out as ASCII (as the
 * reference clients do: "Doé" → "Doe"), while room and encoder names keep their Latin-1 letters
 * (they must match what the lock software calls them). A protocol's own separator that Latin-1
 * can hold (FIAS's `|`) is the driver's to replace.
 *
 * Rules, applied per character:
 * 1. Control characters (including CR/LF/TAB) become a space; runs of spaces collapse.
 * 2. In `latin1` mode, printable Latin-1 stays as it is — except 0xB3 "³", which is the Salto
 *    protocol's field separator and becomes "3".
 * 3. Otherwise a letter with diacritics loses them (é → e, Ł → L via the table), a few letters
 *    expand (ß → ss, Æ → AE, Þ → Th), Greek and Cyrillic are transliterated letter by letter
 *    (Σοφία → Sofia, Юрий → Yuriy; Greek "ου" → "ou"), typographic punctuation becomes its
 *    ASCII look-alike.
 * 4. Anything else (CJK, emoji …) becomes "?", one "?" per run: "山田 Taro" → "? Taro".
 */

export type Charset = 'ascii' | 'latin1';

const SPECIAL: Record<string, string> = {
  ß: 'ss',
  ẞ: 'SS',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  Ø: 'O',
  ø: 'o',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ð: 'D',
  ð: 'd',
  Þ: 'Th',
  þ: 'th',
  ı: 'i',
  Ħ: 'H',
  ħ: 'h',
  ŉ: "'n",
  Ŋ: 'N',
  ŋ: 'n',
  ĸ: 'k',
  ſ: 's',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '‛': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '«': '"',
  '»': '"',
  '–': '-',
  '—': '-',
  '‐': '-',
  '−': '-',
  '…': '...',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '©': '(c)',
  '®': '(R)',
  '°': 'o',
  '·': '.',
  '×': 'x',
  '÷': '/',
  '¡': '!',
  '¿': '?',
  '¹': '1',
  '²': '2',
  '³': '3',
  '\u00a0': ' ',
  '\u00ad': '',
};

// Cyrillic (Russian/Ukrainian/Bulgarian/Serbian letters), simplified BGN/PCGN-style.
const CYRILLIC_UPPER =
  'А:A Б:B В:V Г:G Д:D Е:E Ё:Yo Ж:Zh З:Z И:I Й:Y К:K Л:L М:M Н:N О:O П:P Р:R С:S Т:T У:U Ф:F Х:Kh Ц:Ts Ч:Ch Ш:Sh Щ:Shch Ъ: Ы:Y Ь: Э:E Ю:Yu Я:Ya Є:Ye І:I Ї:Yi Ґ:G Ђ:Dj Ј:J Љ:Lj Њ:Nj Ћ:C Џ:Dz';
// Greek, ELOT 743-style without the context rules.
const GREEK_UPPER =
  'Α:A Β:V Γ:G Δ:D Ε:E Ζ:Z Η:I Θ:Th Ι:I Κ:K Λ:L Μ:M Ν:N Ξ:X Ο:O Π:P Ρ:R Σ:S Τ:T Υ:Y Φ:F Χ:Ch Ψ:Ps Ω:O';

function addAlphabet(table: Record<string, string>, spec: string): void {
  for (const pair of spec.split(' ')) {
    const [upper, latin] = pair.split(':') as [string, string];
    table[upper] = latin;
    const lower = upper.toLowerCase();
    if (lower !== upper) table[lower] = latin.toLowerCase();
  }
}

const TRANSLIT: Record<string, string> = { ...SPECIAL };
addAlphabet(TRANSLIT, CYRILLIC_UPPER);
addAlphabet(TRANSLIT, GREEK_UPPER);
TRANSLIT.ς = 's';

const COMBINING = /[\u0300-\u036f]/g;
const SEPARATOR_CHAR = '\u00b3';

function isPrintableAscii(code: number): boolean {
  return code >= 0x20 && code < 0x7f;
}

function isPrintableLatin1(code: number): boolean {
  return isPrintableAscii(code) || (code >= 0xa0 && code <= 0xff && code !== 0xad);
}

/** One character → its replacement, or undefined when nothing sensible exists. */
function approximate(ch: string, charset: Charset): string | undefined {
  const code = ch.codePointAt(0) as number;
  if (charset === 'latin1' && isPrintableLatin1(code) && ch !== SEPARATOR_CHAR) return ch;
  if (isPrintableAscii(code)) return ch;
  const mapped = TRANSLIT[ch];
  if (mapped !== undefined) return mapped;
  const stripped = ch.normalize('NFD').replace(COMBINING, '');
  if (stripped !== ch && [...stripped].every((c) => isPrintableAscii(c.codePointAt(0) as number))) {
    return stripped;
  }
  // A decomposed letter whose base is itself special (e.g. Ǿ → Ø → O).
  const base = stripped[0];
  if (base !== undefined && stripped !== ch && TRANSLIT[base] !== undefined) return TRANSLIT[base];
  return undefined;
}

/**
 * Returns `text` made of characters a field can carry in `charset`, at most `maxLength`
 * characters (cut at the end), trimmed. Never throws.
 */
export function toFieldText(text: string, charset: Charset, maxLength = Number.POSITIVE_INFINITY): string {
  let out = '';
  let unknownRun = false;
  // Greek "ου" is one sound, "ou" (Παπαδοπούλου → Papadopoulou).
  const prepared = text
    .normalize('NFC')
    .replace(/([οΟ])([υύΥ])/g, (_m, o: string, u: string) => (o === 'ο' ? 'ou' : u === 'Υ' ? 'OU' : 'Ou'));
  for (const ch of prepared) {
    const code = ch.codePointAt(0) as number;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || ch === '\u2028' || ch === '\u2029') {
      out += ' ';
      unknownRun = false;
      continue;
    }
    const replacement = approximate(ch, charset);
    if (replacement === undefined) {
      if (!unknownRun) out += '?';
      unknownRun = true;
      continue;
    }
    unknownRun = false;
    out += replacement;
  }
  const clean = out.replace(/ {2,}/g, ' ').trim();
  return [...clean].slice(0, maxLength).join('').trim();
}
