import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { NATURE_PATTERN } from '../fiscal-it/natures.js';
import type { PrinterLink } from './link.js';
import { epsonPrinterWords as w } from './messages-printer.js';
import { epsonProgrammingWords as pw } from './messages-programming.js';
import { directIoXml } from './xml-build.js';

/**
 * The printer's own department programming, read and compared with the driver's department map
 * (issue 24 item 3; issue 39 item 1: it informs before it blocks). A printer programmed another
 * way — the efsta way, say (5 % in department 3, 4 % in 4) — would otherwise print every line at
 * the wrong rate, silently.
 *
 * Two reads, each the read twin of a write public drivers send. Epson's RT commands come in pairs,
 * `40xx` writes and `42xx` reads the same record (linokoetting/iconic.mytrade.gutenbergPrinter-epson:
 * 4038/4238 `FiscalPrinterDriver.java` `setLocalAccessControl`, 4037/4237 `ateco/AtecoCommands.java`,
 * 4015/4215 and 4040/4240 `lottery/LotteryCommands.java`); no public source sends 4202 itself:
 * - `directIO 4202`, `data` = the department (2 digits): the department record as `4002` writes it
 *   (`tax/VatCommands.java` `SetDepartment`): department (2), description (20), three prices
 *   (3 × 9), single item (1), **VAT group (2)**, price limit (9), print group (2), super group (2),
 *   unit (2), sales type (1), sales attribute (2), ATECO index (2);
 * - `directIO 4205`, `data` = the VAT group (2 digits): the group and its rate in hundredths of a
 *   percent, `VVRRRR` (`4005` writes `VVRRRR`: `tax/VatCommands.java` `SetVatValue`;
 *   `PrinterCommands.java` `MixedVat` reads `4205` and expects 6 characters back).
 *
 * **What a VAT group means** — only what a source says (`groupMeaning`):
 * - 01–09: a VAT rate, read with 4205. The JavaPOS driver programs at most nine rates, each in the
 *   group numbered as its tax (`tax/VatCommands.java` `setVATtable`: `MaxVatRates = 9`,
 *   `VATGroup = printer tax number`, `SetVatValue` → 4005).
 * - 10 EE (N1), 11 NS (N2), 12 NI (N3), 13 RM (N5), 14 AL (N6): the natures "as the Epson table
 *   numbers them" — linokoetting/iconic.mytrade.gutenbergPrinter-rch `tax/VatCommands.java`
 *   `SetVatAtecoValue` ("rimappo secondo la tabella Epson": 10 → nature 1, 11 → 2, 12 → 3,
 *   13 → 5, 14 → 6, 0 → 4); efsta (docs.efsta.net/efr/IT/fiscal, "Epson FP Index": EE 10, NS 11,
 *   NI 12, RM 13, AL 14) numbers them alike.
 * - 20 ES (N4): the JavaPOS driver programs its exempt tax (index 0, `VAT_N4_Index`) as department
 *   and VAT group "20" on an Epson RT (`SharedPrinterFields.java:65-66` `VAT_N4_Dept = "20"`,
 *   `FiscalPrinterDriver.java` sets it for RT models, `tax/VatCommands.java` `setVATtable` writes
 *   `VATGroup = VAT_N4_Dept`); the RCH twin maps index 0 to nature 4.
 * - Any other group (00, 15–19, 21 and up) no source explains: the department **cannot be checked**
 *   — a warning on the page and a `doctor` line, never a refusal. (fiskaltrust `scu-it`
 *   `EpsonCommandFactory.cs` `GetVatGroup` returns 10–15 for the natures, but it returns the
 *   *department* a line prints in, not a group code: it explains no group.)
 *
 * A printer that refuses `4202` (PRINTER ERROR 16, "not expected": older firmware) or answers a
 * record in another layout cannot be checked: the page says so, nothing is refused.
 */

export const READ_DEPARTMENT = '4202';
export const READ_VAT = '4205';

/**
 * What a department carries: a VAT rate (percent) or a nature, with the group it was read from;
 * or a group no source explains (`unexplained`), which the agent cannot check.
 */
export type DepartmentClass =
  | { rate: number; group?: number }
  | { nature: string; group?: number }
  | { group: number; unexplained: true };

export type Programming =
  | { kind: 'read'; departments: ReadonlyMap<number, DepartmentClass> }
  | { kind: 'unreadable' }
  /** The printer did not answer at all: read again later. */
  | { kind: 'unreachable' };

/**
 * A department the map prints in whose programming differs from what the map expects, or whose
 * group the agent cannot interpret (`actual.unexplained`).
 */
export interface DepartmentMismatch {
  department: number;
  /** The map's key: "22", "N1". */
  key: string;
  actual: DepartmentClass;
}

/** The highest VAT group that carries a rate (the JavaPOS driver's `MaxVatRates`). */
const LAST_RATE_GROUP = 9;
/** Nature groups of the Epson table (see above). */
const NATURE_GROUPS: Readonly<Record<number, string>> = {
  10: 'N1',
  11: 'N2',
  12: 'N3',
  13: 'N5',
  14: 'N6',
  20: 'N4',
};
const VAT_GROUP_AT = 2 + 20 + 27 + 1;

const two = (n: number) => String(n).padStart(2, '0');

/** What a VAT group means by the sources: a rate group, a nature, or nothing known. */
export function groupMeaning(group: number): 'rate' | { nature: string } | undefined {
  const nature = NATURE_GROUPS[group];
  if (nature) return { nature };
  return group >= 1 && group <= LAST_RATE_GROUP ? 'rate' : undefined;
}

/** The VAT group of a `4202` record, or undefined when the record is not one. */
export function vatGroupOf(responseData: string | undefined, department: number): number | undefined {
  const data = responseData ?? '';
  if (data.length < VAT_GROUP_AT + 2 || data.slice(0, 2) !== two(department)) return undefined;
  const group = data.slice(VAT_GROUP_AT, VAT_GROUP_AT + 2);
  return /^\d\d$/.test(group) ? Number(group) : undefined;
}

/** The rate (percent) of a `4205` answer `VVRRRR`, or undefined. */
export function vatRateOf(responseData: string | undefined, group: number): number | undefined {
  const m = /^(\d\d)(\d{4})$/.exec(responseData ?? '');
  if (!m || Number(m[1]) !== group) return undefined;
  return Number(m[2]) / 100;
}

/**
 * Reads the programming of `departments` (the departments the map prints in). Never throws. A
 * rate group is read with 4205 once per read; a group no source explains is kept as it is.
 */
export async function readProgramming(
  link: PrinterLink,
  departments: readonly number[],
  signal?: AbortSignal,
): Promise<Programming> {
  const read = new Map<number, DepartmentClass>();
  const rates = new Map<number, number>();
  for (const department of [...new Set(departments)].sort((a, b) => a - b)) {
    const answer = await link.exchange(directIoXml(READ_DEPARTMENT, two(department)), signal);
    if (!answer) return { kind: 'unreachable' };
    if (!answer.success) return { kind: 'unreadable' };
    const group = vatGroupOf(answer.addInfo.responseData, department);
    if (group === undefined) return { kind: 'unreadable' };
    const meaning = groupMeaning(group);
    if (meaning === undefined) {
      read.set(department, { group, unexplained: true });
      continue;
    }
    if (meaning !== 'rate') {
      read.set(department, { nature: meaning.nature, group });
      continue;
    }
    let rate = rates.get(group);
    if (rate === undefined) {
      const vat = await link.exchange(directIoXml(READ_VAT, two(group)), signal);
      if (!vat) return { kind: 'unreachable' };
      rate = vat.success ? vatRateOf(vat.addInfo.responseData, group) : undefined;
      if (rate === undefined) return { kind: 'unreadable' };
      rates.set(group, rate);
    }
    read.set(department, { rate, group });
  }
  return { kind: 'read', departments: read };
}

/** Whether department class `actual` is what map key `key` ("22", "N1", "N2.2") expects. */
function matches(key: string, actual: DepartmentClass): boolean {
  if (NATURE_PATTERN.test(key)) return 'nature' in actual && actual.nature === key.slice(0, 2);
  return 'rate' in actual && Math.abs(actual.rate - Number(key)) < 0.005;
}

/**
 * Whether a line of class `key` must not print in a department of class `actual`: the department
 * is known (a rate group read with 4205, or a nature group) and the VAT would come out wrong — a
 * rate line in a department of another rate or of a nature (no VAT), or a nature line in a rate
 * department. A group no source explains never refuses, nor does one nature for another (the VAT
 * is nil either way: the page says what to change).
 */
function refuses(key: string, actual: DepartmentClass): boolean {
  if ('unexplained' in actual || matches(key, actual)) return false;
  if (NATURE_PATTERN.test(key)) return 'rate' in actual;
  return true;
}

/**
 * The map's entries the printer's programming contradicts, or that cannot be checked (a group no
 * source explains). A rate of 0 has no department class and is not compared.
 */
export function compareProgramming(
  table: Readonly<Record<string, number>>,
  programming: ReadonlyMap<number, DepartmentClass>,
): DepartmentMismatch[] {
  const out: DepartmentMismatch[] = [];
  for (const [key, department] of Object.entries(table)) {
    if (key === '0') continue;
    const actual = programming.get(department);
    if (actual && !matches(key, actual)) out.push({ department, key, actual });
  }
  return out.sort((a, b) => a.department - b.department || a.key.localeCompare(b.key));
}

/** "VAT 22 %", "nature N1", in staff's words. */
export function classWords(cls: DepartmentClass | string): Message {
  if (typeof cls === 'string')
    return NATURE_PATTERN.test(cls) ? w.classNature({ nature: cls }) : w.classRate({ rate: cls });
  if ('rate' in cls) return w.classRate({ rate: String(cls.rate) });
  if ('nature' in cls) return w.classNature({ nature: cls.nature });
  return w.classUnknown();
}

/** The page's warning (and doctor's fix) for one entry of `compareProgramming`. */
export function mismatchWarning(m: DepartmentMismatch): Message {
  const expected = classWords(m.key);
  if ('unexplained' in m.actual)
    return pw.cannotCheck({ department: m.department, group: two(m.actual.group), expected, key: m.key });
  return w.departmentMismatch({
    department: m.department,
    actual: classWords(m.actual),
    expected,
    key: m.key,
  });
}

/** A line of a document to print, as the check needs it. */
export interface PlannedLine {
  description: string;
  department: number;
  rate?: number | undefined;
  nature?: string | undefined;
}

/** The first line `programming` refuses (see `refuses`), with its key and the department's class. */
export function refusedLine(
  lines: readonly PlannedLine[],
  programming: Programming | undefined,
): { line: PlannedLine; key: string; actual: DepartmentClass } | undefined {
  if (programming?.kind !== 'read') return undefined;
  for (const line of lines) {
    const key = line.nature ?? (line.rate !== undefined ? String(line.rate) : undefined);
    if (key === undefined || key === '0') continue;
    const actual = programming.departments.get(line.department);
    if (actual && refuses(key, actual)) return { line, key, actual };
  }
  return undefined;
}

/**
 * The refusal of a document one of whose lines would print at the wrong VAT (`refusedLine`):
 * FISCAL_REJECTED, nothing sent; undefined when every line may print. The kit's
 * `ProgrammingCheck` reads the programming once more before it refuses (programming-check.ts).
 */
export function lineRefusal(
  lines: readonly PlannedLine[],
  programming: Programming | undefined,
): AgentError | undefined {
  const refused = refusedLine(lines, programming);
  if (!refused) return undefined;
  const { line, key, actual } = refused;
  return new AgentError(
    'FISCAL_REJECTED',
    `Line "${line.description}" would print in department ${line.department}, programmed for another class`,
    {
      notes: w.lineAtWrongRate({
        item: line.description,
        department: line.department,
        actual: classWords(actual),
        expected: classWords(key),
      }),
      details: { department: line.department, expected: key, nothingSent: true },
    },
  );
}
