import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import type { PrinterLink } from './link.js';
import { epsonProgrammingWords as pw } from './messages-programming.js';
import {
  checkLines,
  compareProgramming,
  type DepartmentMismatch,
  mismatchWarning,
  type PlannedLine,
  type Programming,
  readProgramming,
  refusedLine,
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
 * The printer's department programming as the driver last read it, and the check of a document
 * against it (issue 39 item 1: it informs before it blocks). The driver keeps one per printer and
 * calls, under the printer's mutex:
 *
 * - `read(link)` at the printer's first answer, and again whenever `needsRead()` (never read, or
 *   the last attempt got no answer);
 * - `read(link)` after every Z report: a department is reprogrammed only with the fiscal day
 *   closed (the JavaPOS driver's `tax/VatCommands.java` `setVATtable` returns when
 *   `isDailyOpen()`, linokoetting/iconic.mytrade.gutenbergPrinter-epson), so a technician's fix
 *   is seen at the next closure, not at the next restart;
 * - `check(lines, link)` just before sending a document: a line the last read would refuse is
 *   refused only when a fresh read says the same — a printer fixed since is not refused.
 *
 * `report` is told every read the printer answered (the page's fact and warnings, the log); a read
 * the printer did not answer keeps the last one in force and asks for another.
 */
export class ProgrammingCheck {
  private last: Programming | undefined;
  private stale = true;

  constructor(
    /** The department map in force (`departmentTable`): what each department must carry. */
    private readonly table: () => Readonly<Record<string, number>>,
    private readonly report: (read: ProgrammingReport) => void,
  ) {}

  /** The programming in force: the last read the printer answered. */
  get programming(): Programming | undefined {
    return this.last;
  }

  /** Whether the next answer of the printer should bring a read: never read, or unanswered. */
  needsRead(): boolean {
    return this.stale;
  }

  /** Reads the programming of every department the map prints in. Never throws. */
  async read(link: PrinterLink, signal?: AbortSignal): Promise<Programming> {
    const table = this.table();
    const departments = Object.entries(table)
      .filter(([key]) => key !== '0')
      .map(([, department]) => department);
    const programming = await readProgramming(link, departments, signal);
    if (programming.kind === 'unreachable') {
      this.stale = true;
      return programming;
    }
    this.last = programming;
    this.stale = false;
    const findings = programming.kind === 'read' ? compareProgramming(table, programming.departments) : [];
    this.report({ programming, findings, warnings: findings.map(mismatchWarning) });
    return programming;
  }

  /**
   * Checks a document's lines before it is sent. A line the programming in force refuses
   * (`refusedLine`) is checked again against a fresh read: refused (FISCAL_REJECTED, nothing sent)
   * only when the fresh read confirms it; when the printer does not answer that read, the document
   * waits (DEVICE_UNAVAILABLE, retryable, nothing sent) and the next attempt reads again.
   */
  async check(lines: readonly PlannedLine[], link: PrinterLink, signal?: AbortSignal): Promise<void> {
    if (!refusedLine(lines, this.last)) return;
    const fresh = await this.read(link, signal);
    if (fresh.kind === 'unreachable') {
      throw new AgentError('DEVICE_UNAVAILABLE', 'No answer to the programming read before refusing a line', {
        notes: pw.recheckUnanswered(),
        details: { nothingSent: true },
      });
    }
    checkLines(lines, fresh);
  }
}
