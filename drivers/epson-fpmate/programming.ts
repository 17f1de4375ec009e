import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { NATURE_PATTERN } from '../fiscal-it/natures.js';
import type { PrinterLink } from './link.js';
import { epsonPrinterWords as w } from './messages-printer.js';
import { directIoXml } from './xml-build.js';

/**
 * The printer's own department programming, read and compared with the driver's department map
 * (issue 24 item 3). A printer programmed another way — the efsta way, say (5 % in department 3,
 * 4 % in 4, ES in 00) — would otherwise print every line at the wrong rate, silently.
 *
 * Two reads, each the read twin of a write public drivers send. Epson's RT commands come in pairs,
 * `40xx` writes and `42xx` reads the same record (linokoetting/iconic.mytrade.gutenbergPrinter-epson:
 * 4038/4238 `FiscalPrinterDriver.java` `setLocalAccessControl`, 4037/4237 `ateco/AtecoCommands.java`,
 * 4015/4215 and 4040/4240 `lottery/LotteryCommands.java`):
 * - `directIO 4202`, `data` = the department (2 digits): the department record as `4002` writes it
 *   (`tax/VatCommands.java` `SetDepartment`): department (2), description (20), three prices
 *   (3 × 9), single item (1), **VAT group (2)**, price limit (9), print group (2), super group (2),
 *   unit (2), sales type (1), sales attribute (2), ATECO index (2);
 * - `directIO 4205`, `data` = the VAT group (2 digits): the group and its rate in hundredths of a
 *   percent, `VVRRRR` (`4005` writes `VVRRRR`: `tax/VatCommands.java` `SetVatValue`;
 *   `PrinterCommands.java` `MixedVat` reads `4205` and expects 6 characters back).
 * Groups 10–15 are the natures without VAT (EE, NS, NI, ES, RM, AL = N1 … N6), the codes public
 * drivers print nature lines with (fiskaltrust `scu-it` `EpsonCommandFactory.cs` `GetVatGroup`).
 *
 * A printer that refuses `4202` (PRINTER ERROR 16, "not expected": older firmware) or answers a
 * record in another layout cannot be checked: the page says so, nothing is refused.
 */

export const READ_DEPARTMENT = '4202';
export const READ_VAT = '4205';

/** What a department carries: a VAT rate (percent), a nature, or nothing programmed. */
export type DepartmentClass = { rate: number } | { nature: string } | { unprogrammed: true };

export type Programming =
  | { kind: 'read'; departments: ReadonlyMap<number, DepartmentClass> }
  | { kind: 'unreadable' }
  /** The printer did not answer at all: read again later. */
  | { kind: 'unreachable' };

/** A department the map prints in whose programming differs from what the map expects. */
export interface DepartmentMismatch {
  department: number;
  /** The map's key: "22", "N1". */
  key: string;
  actual: DepartmentClass;
}

const NATURE_GROUPS: Record<number, string> = { 10: 'N1', 11: 'N2', 12: 'N3', 13: 'N4', 14: 'N5', 15: 'N6' };
const VAT_GROUP_AT = 2 + 20 + 27 + 1;

const two = (n: number) => String(n).padStart(2, '0');

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
 * Reads the programming of `departments` (the departments the map prints in). Never throws.
 * Unprogrammed: VAT group 00, or a rate group carrying 0 %.
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
    const nature = NATURE_GROUPS[group];
    if (nature) {
      read.set(department, { nature });
      continue;
    }
    if (group === 0) {
      read.set(department, { unprogrammed: true });
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
    read.set(department, rate === 0 ? { unprogrammed: true } : { rate });
  }
  return { kind: 'read', departments: read };
}

/** Whether department class `actual` is what map key `key` ("22", "N1", "N2.2") expects. */
function matches(key: string, actual: DepartmentClass): boolean {
  if (NATURE_PATTERN.test(key)) return 'nature' in actual && actual.nature === key.slice(0, 2);
  return 'rate' in actual && Math.abs(actual.rate - Number(key)) < 0.005;
}

/** The map's entries the printer's programming contradicts (a rate of 0 has no department class). */
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

/** The page's warning (and doctor's fix) for one mismatch. */
export function mismatchWarning(m: DepartmentMismatch): Message {
  const expected = classWords(m.key);
  if ('unprogrammed' in m.actual)
    return w.departmentMissing({ department: m.department, expected, key: m.key });
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

/**
 * Refuses a document before anything prints when one of its lines would print in a department
 * the printer has programmed for another rate or nature (FISCAL_REJECTED, nothing sent).
 */
export function checkLines(lines: readonly PlannedLine[], programming: Programming | undefined): void {
  if (programming?.kind !== 'read') return;
  for (const line of lines) {
    const key = line.nature ?? (line.rate !== undefined ? String(line.rate) : undefined);
    if (key === undefined || key === '0') continue;
    const actual = programming.departments.get(line.department);
    if (!actual || matches(key, actual)) continue;
    const actualWords = 'unprogrammed' in actual ? w.classUnknown() : classWords(actual);
    throw new AgentError(
      'FISCAL_REJECTED',
      `Line "${line.description}" would print in department ${line.department}, programmed for another class`,
      {
        notes: w.lineAtWrongRate({
          item: line.description,
          department: line.department,
          actual: actualWords,
          expected: classWords(key),
        }),
        details: { department: line.department, expected: key, nothingSent: true },
      },
    );
  }
}
