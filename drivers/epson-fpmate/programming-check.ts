import type { Message } from '../../src/messages/message.js';
import { ProgrammingCheck as KitCheck } from '../fiscal-it/rt/programming-check.js';
import type { PrinterLink } from './link.js';
import { epsonProgrammingWords as pw } from './messages-programming.js';
import {
  compareProgramming,
  type DepartmentMismatch,
  lineRefusal,
  mismatchWarning,
  type PlannedLine,
  type Programming,
  readProgramming,
} from './programming.js';

/** One read of the programming, as the page and the log need it. */
export interface ProgrammingReport {
  programming: Programming;
  /** The map's entries that differ or cannot be checked (`compareProgramming`). */
  findings: DepartmentMismatch[];
  /** One warning per finding, naming what to change on the printer (`mismatchWarning`). */
  warnings: Message[];
}

/**
 * The Epson printer's department programming as the driver last read it, and the check of a
 * document against it: the kit's `ProgrammingCheck` (`drivers/fiscal-it/rt/programming-check.ts`:
 * read at the first answer, again after every confirmed Z report, and once more before refusing)
 * over Epson's reads (`programming.ts`: `directIO 4202`/`4205`, the VAT groups by their sources).
 * `report` is told every read the printer answered (the page's fact and warnings, the log).
 */
export class ProgrammingCheck extends KitCheck<PrinterLink, Programming, PlannedLine> {
  constructor(
    /** The department map in force (`departmentTable`): what each department must carry. */
    table: () => Readonly<Record<string, number>>,
    report: (read: ProgrammingReport) => void,
  ) {
    super({
      read: (link, signal) => {
        const departments = Object.entries(table())
          .filter(([key]) => key !== '0')
          .map(([, department]) => department);
        return readProgramming(link, departments, signal);
      },
      answered: (programming) => programming.kind !== 'unreachable',
      refusal: lineRefusal,
      report: (programming) => {
        const findings =
          programming.kind === 'read' ? compareProgramming(table(), programming.departments) : [];
        report({ programming, findings, warnings: findings.map(mismatchWarning) });
      },
      unanswered: () => pw.recheckUnanswered(),
    });
  }
}
