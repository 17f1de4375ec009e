import type { DepartmentClass } from './programming.js';
import { SimRefusal } from './receipt.js';
import type { PrintedDocument } from './types.js';

/**
 * The simulated printer's programming reads and its journal copy (issue 24 items 3–5).
 *
 * Programming: Epson's RT commands come in pairs, `40xx` writes a record and `42xx` reads it back
 * (linokoetting/iconic.mytrade.gutenbergPrinter-epson: 4038/4238 in `FiscalPrinterDriver.java`,
 * 4037/4237 in `ateco/AtecoCommands.java`, 4015/4215 and 4040/4240 in
 * `lottery/LotteryCommands.java`). So:
 * - `4202` with the department (2 digits) answers the record `4002` writes
 *   (`tax/VatCommands.java` `SetDepartment`): department 2, description 20, prices 3 × 9, single
 *   item 1, VAT group 2, price limit 9, print group 2, super group 2, unit 2, sales type 1, sales
 *   attribute 2, ATECO index 2;
 * - `4205` with the VAT group (2 digits) answers `VVRRRR`, the rate in hundredths of a percent
 *   (`4005` writes `VVRRRR`, `tax/VatCommands.java` `SetVatValue`; `PrinterCommands.java`
 *   `MixedVat` reads 6 characters back from `4205`).
 * VAT groups: 1–4 carry 22, 10, 4 and 5 %; the natures are numbered as the Epson table does
 * (gutenbergPrinter-rch `tax/VatCommands.java` `SetVatAtecoValue`: 10 EE, 11 NS, 12 NI, 13 RM,
 * 14 AL; gutenbergPrinter-epson `SharedPrinterFields.java` `VAT_N4_Dept = "20"`: ES in group 20;
 * see the driver's `programming.ts`); a department with its own `group` reports that one; a
 * department the simulator is not programmed with answers group 00. A printer with `noProgrammingRead` (older firmware) refuses both with
 * PRINTER ERROR 16, "not expected" (fiskaltrust `Models/ErrorInfoFactory.cs`).
 *
 * Journal copy: `3098` with operator (2), date `DDMMYY`, first and last receipt number (4 + 4)
 * prints those receipts of that day again from the electronic journal, as a non-fiscal copy
 * (`report/Report.java` builds `"01" + date + ticketStart + ticketEnd` from the JavaPOS
 * `ddmmyyyy` date; Odoo `l10n_it_pos` prints the same copy with the XML `printContentByNumbers`).
 * What a printer answers when the journal holds no such receipt is not in those sources: the
 * simulator refuses with PRINTER ERROR 13, "invalid data", and prints nothing.
 */

const RATE_GROUPS: Record<string, number> = { '22': 1, '10': 2, '4': 3, '5': 4 };
const NATURE_GROUPS: Record<string, number> = { N1: 10, N2: 11, N3: 12, N4: 20, N5: 13, N6: 14 };
const two = (n: number) => String(n).padStart(2, '0');

function groupOf(cls: DepartmentClass | undefined): number {
  if (!cls) return 0;
  if (cls.group !== undefined) return cls.group;
  if ('rate' in cls) return RATE_GROUPS[String(cls.rate)] ?? 9;
  return NATURE_GROUPS[cls.nature] ?? 0;
}

/** The `4202` record of `department`. */
export function departmentRecord(
  departments: Readonly<Record<number, DepartmentClass>>,
  department: number,
): string {
  const cls = departments[department];
  const description = (cls ? `REPARTO ${department}` : '').padEnd(20, ' ');
  const prices = '0'.repeat(27);
  return `${two(department)}${description}${prices}0${two(groupOf(cls))}999999999000000000000`;
}

/** The `4205` answer of `group`: its rate, or 0 for a group the simulator does not use. */
export function vatRecord(departments: Readonly<Record<number, DepartmentClass>>, group: number): string {
  let rate = 0;
  for (const cls of Object.values(departments)) {
    if ('rate' in cls && groupOf(cls) === group) rate = cls.rate;
  }
  // Group 9 holds any other rate the simulator is programmed with (one at most is expected).
  return `${two(group)}${String(Math.round(rate * 100)).padStart(4, '0')}`;
}

export interface CopyRequest {
  /** "yyyy-MM-dd" */
  day: string;
  from: number;
  to: number;
}

/** Reads `3098` data; refuses (13) what is not `OO DDMMYY NNNN NNNN`. */
export function copyRequest(data: string): CopyRequest {
  const m = /^\d{2}(\d{2})(\d{2})(\d{2})(\d{4})(\d{4})$/.exec(data);
  if (!m) throw new SimRefusal('PRINTER ERROR', '13');
  return { day: `20${m[3]}-${m[2]}-${m[1]}`, from: Number(m[4]), to: Number(m[5]) };
}

/** The fiscal documents a copy request names; refuses (13) when there are none. */
export function documentsToCopy(
  printed: readonly PrintedDocument[],
  request: CopyRequest,
): PrintedDocument[] {
  const found = printed.filter(
    (d) =>
      (d.kind === 'sale' || d.kind === 'refund' || d.kind === 'void') &&
      d.dateTime.startsWith(request.day) &&
      d.doc >= request.from &&
      d.doc <= request.to,
  );
  if (found.length === 0) throw new SimRefusal('PRINTER ERROR', '13');
  return found;
}
