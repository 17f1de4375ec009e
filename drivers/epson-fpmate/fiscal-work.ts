import type { ExecuteContext, JobResult } from '../../src/drivers-api/types.js';
import { AgentError, toAgentError } from '../../src/errors.js';
import { english } from '../../src/messages/render.js';
import { isNoReference } from '../fiscal-it/reference.js';
import type { CloseDay, FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import { documentWords } from './answers.js';
import { epsonAnswers, fiscalNotes } from './messages.js';
import type { Plan } from './plan.js';
import type { ProgrammingCheck } from './programming-check.js';
import { docLabel } from './protocol.js';
import { checkReference } from './reference-check.js';
import type { ReportDeps } from './reports.js';
import { documentOf, type SendDeps, sendPlanned } from './send.js';
import { parseRtState } from './status.js';

const HOUR = 3_600_000;

export interface WorkDeps extends SendDeps {
  state: FiscalState;
  reports: ReportDeps;
  /** The printer's department programming and its check before sending (programming-check.ts). */
  check: ProgrammingCheck;
  /** The family's Z report (the programming read again once the printer confirms it). */
  closeDay: CloseDay<ReportDeps>;
}

/** Why a refusal with status 17 is the daily closure due: the printer says so, or the hours. */
type ClosureDue = { waiting: true } | { waiting: false; hours: number };

/**
 * Whether a status 17 refusal is the daily closure due. 17 is "not possible now" for any reason
 * (fiskaltrust `Models/ErrorInfoFactory.cs` L43: "IMPOSSIBILE ORA"); it is the closure only when
 * the printer says it waits for it (`rtNoWorkingPeriod` 1, 721377/procassa `lib/epsonxml.js`
 * `EpsonDecodeNoWorkingPeriod`: "In attesa della chiusura giornaliera") or the agent knows the day
 * has been open 23 hours or more. `fiscalDay().openSince` is the earliest moment the agent knows
 * the day open (the day's first document, or its first status poll that saw it open): the day
 * opened then or earlier, so the hours since are a lower bound. A day another till opened (the
 * bar's POS on the same RT) and the agent only saw open is never "too long" by a guess: a 17 at
 * noon is what it is, and the fiscal day is not closed at noon.
 */
async function closureDue(d: WorkDeps, signal: AbortSignal): Promise<ClosureDue | undefined> {
  const status = await d.link.queryStatus(signal);
  if (!status) return undefined;
  d.board.answered(status);
  const rt = parseRtState(status);
  if (rt.waitingForClosure) return { waiting: true };
  if (rt.dailyOpen !== true) return undefined;
  const day = d.state.fiscalDay();
  if (!day) return undefined;
  const hours = (d.clock.now() - day.openSince) / HOUR;
  return hours >= DAY_TOO_LONG_HOURS ? { waiting: false, hours: Math.floor(hours) } : undefined;
}

/** An hour short of the 24 after which RT printers refuse receipts: the closure runs first. */
const DAY_TOO_LONG_HOURS = 23;

/** The 17 refusal, told as the closure it is (with `onDayTooLong: refuse`). */
function closureDueError(error: AgentError, due: ClosureDue, plan: Plan): AgentError {
  const why = due.waiting
    ? epsonAnswers.closureDueWaiting()
    : epsonAnswers.closureDueHours({ hours: due.hours });
  return new AgentError(
    'DEVICE_ERROR',
    `Printer refuses receipts until the daily closure (${english(why)})`,
    {
      notes: epsonAnswers.closureDue({ why, notPrinted: documentWords(documentOf(plan)).notPrinted }),
      details: { ...error.details, closureDue: true },
    },
  );
}

/**
 * Prints a planned document. A refund or void naming this printer is checked with the printer
 * first (`directIO 9205`, reference-check.ts): a refusal ends the command with FISCAL_REJECTED
 * and nothing printed. When the printer refuses with status 17 because the daily closure is due
 * (`closureDue`) — nothing was printed — and `dailyClosure.onDayTooLong` is `close-and-print`,
 * the day is closed (Z report, verified) and the document sent again; the Notes say so. Any other
 * 17 is reported as what it is ("not possible now").
 */
export async function printPlanned(d: WorkDeps, plan: Plan, ectx: ExecuteContext): Promise<JobResult> {
  // A line at a rate the printer's department does not carry ends here, before anything prints
  // (after one more read of the programming: a printer fixed since is not refused).
  if (plan.lines) await d.check.check(plan.lines, d.link, ectx.signal);
  const ref = plan.reference;
  if (ref && d.options.checkReferences && !isNoReference(ref) && ref.serial === d.memory.serial()) {
    if ((await checkReference(d.link, ref, ectx.signal)) === 'refused') {
      const date = `${ref.date.slice(0, 2)}/${ref.date.slice(2, 4)}/${ref.date.slice(4)}`;
      const kind = ref.kind === 'VOID' ? 'void' : 'refund';
      throw new AgentError('FISCAL_REJECTED', `The printer refuses the ${kind} of ${docLabel(ref)}`, {
        notes: fiscalNotes.referenceRefused(kind, docLabel(ref), date),
        details: { reference: { ...ref } },
      });
    }
  }
  try {
    return await sendPlanned(d, plan, ectx);
  } catch (e) {
    const error = toAgentError(e);
    if (error.details.printerStatusCode !== '17') throw error;
    const due = await closureDue(d, ectx.signal);
    if (!due) throw error;
    if (d.options.dailyClosure.onDayTooLong !== 'close-and-print') throw closureDueError(error, due, plan);
    d.log.warn('receipt refused with the fiscal day open too long: closing the day first');
    const closure = await d.closeDay(d.reports, 'day-too-long', ectx.signal);
    if (closure.status !== 'done') {
      throw new AgentError(
        'DEVICE_ERROR',
        `Day open too long and the closure ${closure.status}: ${english(closure.detail)}`,
        {
          notes: fiscalNotes.closureRefusedThenFailed(closure.detail),
          details: { ...error.details, closure: closure.status },
        },
      );
    }
    const result = await sendPlanned(d, plan, ectx);
    return {
      notes: fiscalNotes.closedThenPrinted(result.notes, closure.z),
      details: { ...result.details, closedDayFirst: closure.z ?? true },
    };
  }
}
