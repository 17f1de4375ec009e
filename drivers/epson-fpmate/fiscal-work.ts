import type { ExecuteContext, JobResult } from '../../src/drivers-api/types.js';
import { AgentError, toAgentError } from '../../src/errors.js';
import { english } from '../../src/messages/render.js';
import { isNoReference } from '../fiscal-it/reference.js';
import type { FiscalState } from './fiscal-state.js';
import { fiscalNotes } from './messages.js';
import type { Plan } from './plan.js';
import { docLabel } from './protocol.js';
import { checkReference } from './reference-check.js';
import { closeDay, type ReportDeps } from './reports.js';
import { type SendDeps, sendPlanned } from './send.js';
import { parseRtState } from './status.js';

const HOUR = 3_600_000;

export interface WorkDeps extends SendDeps {
  state: FiscalState;
  reports: ReportDeps;
}

/**
 * Whether a status 17 refusal ("not possible now": fiskaltrust `Models/ErrorInfoFactory.cs`) is
 * the fiscal day open too long: the printer says it waits for the closure (`rtNoWorkingPeriod` 1,
 * procassa `EpsonDecodeNoWorkingPeriod`: "waiting for the daily closure"), or the day is open and
 * the agent does not know it opened less than 23 hours ago.
 */
async function dayTooLong(d: WorkDeps, signal: AbortSignal): Promise<boolean> {
  const status = await d.link.queryStatus(signal);
  if (!status) return false;
  d.board.answered(status);
  const rt = parseRtState(status);
  if (rt.waitingForClosure) return true;
  if (rt.dailyOpen !== true) return false;
  const day = d.state.fiscalDay();
  if (!day?.exact) return true;
  return d.clock.now() - day.openSince >= 23 * HOUR;
}

/**
 * Prints a planned document. A refund or void naming this printer is checked with the printer
 * first (`directIO 9205`, reference-check.ts): a refusal ends the command with FISCAL_REJECTED
 * and nothing printed. When the printer refuses with status 17 because the fiscal day is open
 * too long — nothing was printed — and `dailyClosure.onDayTooLong` is `close-and-print`, the
 * day is closed (Z report, verified) and the document sent again; the Notes say so.
 */
export async function printPlanned(d: WorkDeps, plan: Plan, ectx: ExecuteContext): Promise<JobResult> {
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
    if (error.details.printerStatusCode !== '17' || d.options.dailyClosure.onDayTooLong !== 'close-and-print')
      throw error;
    if (!(await dayTooLong(d, ectx.signal))) throw error;
    d.log.warn('receipt refused with the fiscal day open too long: closing the day first');
    const closure = await closeDay(d.reports, 'day-too-long', ectx.signal);
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
