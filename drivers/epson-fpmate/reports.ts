import type { Clock } from '../../src/clock.js';
import type { JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import type { Message } from '../../src/messages/message.js';
import type { CloseDay, ClosureInFlight, ClosureRecord, FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import { failureMeaning } from './answers.js';
import type { EpsonFpmateOptions } from './config.js';
import { reasonWords } from './http.js';
import type { PrinterLink } from './link.js';
import { fiscalNotes } from './messages.js';
import { epsonClosure as c, serialWords } from './messages-results.js';
import type { PrinterMemory } from './plan.js';
import { parseRtState, type StatusBoard } from './status.js';
import { element, envelope } from './xml-build.js';
import { parseFpmateResponse } from './xml-response.js';

/**
 * The fiscal reports: the X report (financial report of the day, changes nothing) and the Z
 * report (the daily closure: closes the fiscal day, which the printer then sends to the tax
 * agency).
 *
 * The Z report is sent as `printXZReport` by default — financial report and closure together —
 * because OCA l10n-italy `fiscal_epos_print/static/src/js/epson_epos_print.js` warns that
 * `printZReport` alone "is forbidden by Epson by default"; `printZReport` (fiskaltrust `scu-it`
 * `Models/FiscalReport.cs`) is a configuration away. A closure is verified by reading the
 * printer before and after: the status answer's `rtDailyOpen` (1 while documents were issued
 * since the last closure) and the last document's Z number (`directIO 1387`) before; the
 * answer's `zRepNumber` and `rtDailyOpen` 0 after. It is written down (`closureInFlight`) before
 * it is sent, so that after a lost answer or a kill the printer's state settles it — a closure is
 * never sent twice for one fiscal day: a day already closed (`rtDailyOpen` 0) is not closed again.
 */

export interface ReportDeps {
  link: PrinterLink;
  state: FiscalState;
  memory: PrinterMemory;
  board: StatusBoard;
  options: EpsonFpmateOptions;
  clock: Clock;
  log: Logger;
}

function reportXml(command: string, operator: string): string {
  return envelope(`<printerFiscalReport>${element(command, { operator })}</printerFiscalReport>`);
}

/** Prints the X report. Resolves to its Notes; rejects with the printer's refusal in words. */
export async function printXReport(d: ReportDeps): Promise<JobResult> {
  const result = await d.link.sendReport(reportXml('printXReport', d.options.operator));
  const response = result.kind === 'answer' ? parseFpmateResponse(result.body) : undefined;
  if (response?.success) {
    d.board.touched();
    return { notes: fiscalNotes.xReportPrinted(serialWords(d.memory.serial())), details: { report: 'x' } };
  }
  if (result.kind === 'not-sent') {
    throw new AgentError('DEVICE_UNAVAILABLE', `X report: printer not reachable (${result.reason})`, {
      notes: fiscalNotes.reportFailed('X report', fiscalNotes.unreachable(reasonWords(result.reason))),
    });
  }
  if (!response) {
    throw new AgentError('STATE_UNKNOWN', 'X report: no readable answer', {
      notes: fiscalNotes.reportUnknown('X report'),
    });
  }
  const meaning = failureMeaning(response, 'X report');
  if (meaning.kind === 'busy') {
    throw new AgentError('DEVICE_BUSY', 'X report: printer busy', {
      notes: fiscalNotes.reportUnknown('X report'),
    });
  }
  await d.link.reset();
  throw meaning.error;
}

export type ClosureReason = ClosureInFlight['reason'];

function record(d: ReportDeps, value: Omit<ClosureRecord, 'at'>): ClosureRecord {
  const full = { ...value, at: d.clock.now() };
  if (value.status !== 'unknown') d.state.setClosureInFlight(null);
  d.state.setLastClosure(full);
  if (value.status === 'done') d.state.dayClosed();
  return full;
}

/**
 * Settles a Z report left in flight (a lost answer, a kill): done when the printer's day is
 * closed now, or when its last document belongs to a later Z; not done when the day is still
 * open with the same Z (the record is cleared: it may be sent again); unknown when the printer
 * cannot be read (the record stays: nothing is sent until it is settled). Resolves to undefined
 * when nothing was in flight. `notTaken` is the detail staff read when it was not done (the
 * printer's own complaint, say paper out, rather than "not taken").
 */
export async function settleClosure(
  d: ReportDeps,
  signal?: AbortSignal,
  notTaken: Message = c.notTaken(),
): Promise<ClosureRecord | undefined> {
  const inFlight = d.state.closureInFlight();
  if (inFlight === undefined) return undefined;
  const reason = inFlight === 'unreadable' ? 'staff' : inFlight.reason;
  const zBefore = inFlight === 'unreadable' ? undefined : inFlight.zBefore;
  const status = await d.link.queryStatus(signal);
  if (!status) return record(d, { status: 'unknown', reason, detail: c.printerSilent() });
  d.board.answered(status);
  if (parseRtState(status).dailyOpen === false) {
    d.log.info('a Z report in flight was done, as the printer shows');
    return record(d, {
      status: 'done',
      reason,
      ...(zBefore ? { z: zBefore } : {}),
      recovered: true,
      verified: true,
      detail: c.confirmedByState(),
    });
  }
  const last = await d.link.readLastDocument(signal);
  if (!last || zBefore === undefined || inFlight === 'unreadable') {
    // The day is open, with nothing to compare against: it may be a new day or the same one.
    return record(d, { status: 'unknown', reason, detail: c.stateUnproven() });
  }
  if (last.z > zBefore) {
    return record(d, {
      status: 'done',
      reason,
      z: zBefore,
      recovered: true,
      verified: true,
      detail: c.laterClosureSeen(),
    });
  }
  d.log.warn('a Z report in flight was not done, as the printer shows');
  return record(d, { status: 'failed', reason, detail: notTaken });
}

/**
 * Runs the daily closure once: settles anything in flight first; skips when no document was
 * issued since the last closure (`rtDailyOpen` 0); writes `closureInFlight`, sends the Z report,
 * and verifies it (see the module comment). Never throws: the outcome is the resolved record.
 */
export const closeDay: CloseDay<ReportDeps> = async (d, reason, signal, date) => {
  const settled = await settleClosure(d, signal);
  if (settled?.status === 'unknown') return settled;
  if (settled?.status === 'done') return settled;
  const status = await d.link.queryStatus(signal);
  if (!status)
    return record(d, {
      status: 'failed',
      reason,
      detail: c.printerSilentBecause({ reason: reasonWords(d.link.lastFailure ?? 'no answer') }),
    });
  d.board.answered(status);
  if (parseRtState(status).dailyOpen === false) {
    return record(d, { status: 'skipped', reason, detail: c.nothingToClose() });
  }
  const last = await d.link.readLastDocument(signal);
  const inFlight = await d.state.closureStarting(reason, d.clock.now(), last?.z, date);
  const result = await d.link.sendReport(reportXml(d.options.dailyClosure.command, d.options.operator));
  if (result.kind === 'not-sent') {
    return record(d, {
      status: 'failed',
      reason,
      detail: c.unreachable({ reason: reasonWords(result.reason) }),
    });
  }
  const response =
    result.kind === 'answer' && result.httpStatus < 300 ? parseFpmateResponse(result.body) : undefined;
  if (response?.success) {
    const z = Number(response.addInfo.zRepNumber);
    const after = await d.link.queryStatus(signal);
    if (after) d.board.answered(after);
    const verified = after ? parseRtState(after).dailyOpen === false : false;
    const number = Number.isInteger(z) && response.addInfo.zRepNumber ? z : inFlight.zBefore;
    return record(d, {
      status: 'done',
      reason,
      ...(number !== undefined ? { z: number } : {}),
      verified,
      detail: verified ? c.verified() : c.printerConfirmed(),
    });
  }
  const meaning = response ? failureMeaning(response, 'Z report') : undefined;
  if (meaning?.kind === 'failed') {
    await d.link.reset();
    return record(d, { status: 'failed', reason, detail: meaning.error.notes });
  }
  // Lost, unreadable, busy or ambiguous (paper ran out, perhaps after the closure was recorded):
  // the printer's state decides; when it was not done, the printer's complaint is what staff read.
  const notTaken = meaning?.kind === 'ambiguous' ? meaning.error.notes : undefined;
  return (
    (await settleClosure(d, signal, notTaken)) ??
    record(d, { status: 'unknown', reason, detail: c.noAnswer() })
  );
};
