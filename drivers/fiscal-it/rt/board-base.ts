import type { Clock } from '../../../src/clock.js';
import type { DeviceStatus, FactValue } from '../../../src/drivers-api/types.js';
import type { AgentError } from '../../../src/errors.js';
import type { Message } from '../../../src/messages/message.js';
import type { DailyClosureOptions } from './daily-closure.js';
import type { FiscalState } from './fiscal-state.js';
import { rtCardWords } from './messages.js';
import { fiscalDayCard, staffFactsOf } from './status-card.js';

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

/**
 * The card of a family whose printer does not report the fiscal day itself (Custom, RCH): the
 * family's own facts and warnings first, then the document waiting for the printer, the last
 * job's error, the fiscal day and closures from the kit's record (`fiscalDayCard`) and the last
 * receipt; staff facts first (`status-card.ts`).
 */
export abstract class RtCardBase extends RtBoardBase {
  private lastReceipt: string | undefined;
  private jobError: AgentError | undefined;

  constructor(
    clock: Clock,
    protected readonly fiscal: { state: FiscalState; closure: DailyClosureOptions; timeZone: string },
  ) {
    super(clock);
  }

  noteReceipt(label: string): void {
    this.lastReceipt = label;
    this.jobError = undefined;
  }

  noteJobError(error: AgentError): void {
    this.jobError = error;
  }

  /** The card of the family's `facts` and `warnings` (see above). */
  protected card(facts: Readonly<Record<string, FactValue>>, warnings: readonly Message[]): DeviceStatus {
    const day = fiscalDayCard(this.fiscal, this.clock.now());
    const all = [...warnings];
    if (this.settleWarning) all.push(this.settleWarning);
    if (this.jobError?.code === 'STATE_UNKNOWN') all.push(rtCardWords.outcomeUnknown());
    else if (this.jobError) all.push(this.jobError.notes);
    all.push(...day.warnings);
    const shown: Record<string, FactValue> = { ...facts, ...day.facts };
    if (this.lastReceipt) shown.lastReceipt = this.lastReceipt;
    const status: DeviceStatus = {
      connected: this.connected,
      summary: this.connected
        ? rtCardWords.ready()
        : rtCardWords.unreachable({ reason: this.failure ?? '—' }),
      warnings: all,
      facts: shown,
      // The kit's one card: staff facts first, the rest folded (the hours open among them).
      staffFacts: staffFactsOf(shown),
    };
    if (this.lastContact !== undefined) status.lastContact = this.lastContact;
    return status;
  }
}
