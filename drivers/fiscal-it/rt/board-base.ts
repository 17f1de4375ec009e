import type { Clock } from '../../../src/clock.js';
import type { Message } from '../../../src/messages/message.js';

/**
 * What every RT family's status card keeps of the line to its printer, for the kit's driver
 * (`family.ts` `RtBoard`): whether the last exchange was answered and when, why not, and the
 * warning while a document waits for a printer that went away. A family's board extends it with
 * what its printer reports.
 */
export abstract class RtBoardBase {
  protected connected = false;
  /** Any exchange was tried (before: "not contacted yet"). */
  protected contacted = false;
  protected failure: string | undefined;
  protected lastContact: number | undefined;
  /** A document sent to a printer that went away, waiting for its witnesses (`printer-read.ts`). */
  protected settleWarning: Message | undefined;

  constructor(protected readonly clock: Clock) {}

  /** Any successful exchange (a receipt printed, a read answered). */
  touched(): void {
    this.connected = true;
    this.contacted = true;
    this.failure = undefined;
    this.lastContact = this.clock.now();
  }

  unreachable(reason: string): void {
    this.connected = false;
    this.contacted = true;
    this.failure = reason;
  }

  /** A document waits for the printer to come back and settle it (`undefined`: no longer). */
  awaiting(warning: Message | undefined): void {
    this.settleWarning = warning;
  }

  /** Whether a document waits for the printer to come back (staff actions wait for it too). */
  isSettling(): boolean {
    return this.settleWarning !== undefined;
  }

  isConnected(): boolean {
    return this.connected;
  }
}
