import { AgentError } from '../../../src/errors.js';
import type { Message } from '../../../src/messages/message.js';

/**
 * What a family reads of a printer's own VAT programming and how it judges a document against it
 * (Epson: departments and VAT groups, `epson-fpmate/programming.ts`; Custom: VAT slots,
 * `custom-rt/vat-slots.ts`). The check's timing is the kit's (`ProgrammingCheck`); what a
 * programming means is the family's, each rule with its source.
 */
export interface ProgrammingReader<L, P, Line> {
  /** Reads the programming; never throws. A read the printer did not answer says so (`answered`). */
  read(link: L, signal?: AbortSignal): Promise<P>;
  /** False when the printer did not answer the read (the last read stays in force). */
  answered(programming: P): boolean;
  /**
   * The refusal (FISCAL_REJECTED, `nothingSent`) a document with `lines` meets under
   * `programming`: only a rate the source explains and that differs from the map. Anything the
   * source does not explain is a warning (`report`), never a refusal.
   */
  refusal(lines: readonly Line[], programming: P | undefined): AgentError | undefined;
  /** Tells the page and the log what an answered read found. */
  report(programming: P): void;
  /** What staff read when the printer does not answer the read made before refusing. */
  unanswered(): Message;
}

/**
 * The printer's VAT programming as last read, and the check of a document against it (issue 39
 * item 1: it informs before it blocks), for every RT family. The family's parts keep one per
 * printer and call, in the printer's turn:
 *
 * - `read(link)` at the printer's answer whenever `needsRead()` (never read, or the last attempt
 *   got no answer), and after every Z report the printer confirms (`afterConfirmedClosure` in
 *   `family.ts`): a technician's fix is seen at the next closure, not at the next restart;
 * - `check(lines, link)` just before a document is sent: a document the last read would refuse is
 *   refused only when a fresh read says the same — a printer fixed since is not refused; a printer
 *   that does not answer that read makes the document wait (DEVICE_UNAVAILABLE, nothing sent).
 */
export class ProgrammingCheck<L, P, Line> {
  private last: P | undefined;
  private stale = true;

  constructor(private readonly reader: ProgrammingReader<L, P, Line>) {}

  /** The programming in force: the last read the printer answered. */
  get programming(): P | undefined {
    return this.last;
  }

  /** Whether the next answer of the printer should bring a read: never read, or unanswered. */
  needsRead(): boolean {
    return this.stale;
  }

  /** Reads the programming again; an answered read replaces the one in force. Never throws. */
  async read(link: L, signal?: AbortSignal): Promise<P> {
    const programming = await this.reader.read(link, signal);
    if (!this.reader.answered(programming)) {
      this.stale = true;
      return programming;
    }
    this.last = programming;
    this.stale = false;
    this.reader.report(programming);
    return programming;
  }

  /** Checks a document's lines before it is sent (see the class comment). */
  async check(lines: readonly Line[], link: L, signal?: AbortSignal): Promise<void> {
    if (!this.reader.refusal(lines, this.last)) return;
    const fresh = await this.read(link, signal);
    if (!this.reader.answered(fresh)) {
      throw new AgentError('DEVICE_UNAVAILABLE', 'No answer to the programming read before refusing a line', {
        notes: this.reader.unanswered(),
        details: { nothingSent: true },
      });
    }
    const refusal = this.reader.refusal(lines, fresh);
    if (refusal) throw refusal;
  }
}
