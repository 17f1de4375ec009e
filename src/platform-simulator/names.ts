/**
 * People of the simulated property. Guest names deliberately include accents, ligatures and
 * non-Latin scripts: encoders speak Latin-1 and printers less, so the agent must transliterate.
 */

export interface PersonName {
  firstName?: string;
  lastName: string;
}

/** The first three are always the first three generated reservations' guests (tests rely on it). */
export const GUEST_NAMES: readonly PersonName[] = [
  { firstName: 'Zoë', lastName: 'Müller-Lüdenscheidt' },
  { firstName: 'Ægir', lastName: 'Þórsson' },
  { firstName: '太郎', lastName: '山田' },
  { firstName: 'José', lastName: 'Ñúñez García' },
  { firstName: 'Łucja', lastName: 'Wąsowska-Żółć' },
  { firstName: 'François', lastName: "D'Aubigné" },
  { firstName: 'Ελένη', lastName: 'Παπαδοπούλου' },
  { firstName: 'Сергей', lastName: 'Иванов' },
  { firstName: 'Øystein', lastName: 'Brænne' },
  { firstName: 'Giulia', lastName: 'Rossi' },
  { firstName: 'Marco', lastName: 'Bianchi' },
  { lastName: 'Smith' },
  { firstName: 'Anne-Sophie', lastName: 'Østergaard' },
  { firstName: 'Ayşe', lastName: 'Yılmaz' },
  { firstName: 'Nguyễn', lastName: 'Thị Minh Khai' },
  { firstName: 'O’Brien', lastName: 'Siobhán' },
];

export const STAFF_NAMES: readonly Required<PersonName>[] = [
  { firstName: 'Chiara', lastName: 'Ricci' },
  { firstName: 'Luca', lastName: 'Esposito' },
  { firstName: 'Francesca', lastName: 'Colombo' },
];

const SPECIAL: Record<string, string> = {
  Æ: 'AE',
  æ: 'ae',
  Þ: 'Th',
  þ: 'th',
  Ð: 'D',
  ð: 'd',
  Ø: 'O',
  ø: 'o',
  Ł: 'L',
  ł: 'l',
  ß: 'ss',
  Œ: 'OE',
  œ: 'oe',
  ı: 'i',
  '’': "'",
};

/**
 * The platform's "normalized" name: Latin letters without diacritics. Undefined when nothing
 * Latin is left (a name written only in another script).
 */
export function normalizeName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const folded = [...name]
    .map((c) => SPECIAL[c] ?? c)
    .join('')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return /[A-Za-z]/.test(folded) ? folded : undefined;
}

/** An e-mail address made of the normalised name (or a neutral one for other scripts). */
export function emailFor(name: PersonName, n: number): string {
  const local = [normalizeName(name.firstName), normalizeName(name.lastName)]
    .filter(Boolean)
    .join('.')
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '');
  return `${local || `guest${n}`}@example.org`;
}
