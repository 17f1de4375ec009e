import type { Clock } from '../../src/clock.js';
import type { JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import { closureJobResult } from '../fiscal-it/rt/actions.js';
import type { CloseDay, ClosureInFlight, ClosureRecord, FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import type { CustomRtOptions } from './config.js';
import { refusal } from './errors.js';
import { idCmdBase } from './idcmd.js';
import type { CustomLink } from './link.js';
import { customResults as m } from './messages.js';
import type { StatusBoard } from './status.js';
import { element, parseResponse, request } from './xml.js';

/**
 * The fiscal reports (XML protocol manual rev 2.00): `printXReport` (p.103), `printZReport`
 * (p.105) or `printXZReport` (p.104), one per `printerFiscalReport` (p.18). The Z report is the
 * daily closure; it is written down (`closureInFlight`) before it leaves and verified by the Z
 * count `getInfo` gives (`zSetNumber`, p.69) before and after, so that a lost answer or a kill
 * never closes a day twice: a count that moved says done, one that did not says not done, an
 * unreadable one unknown. A Z with no sale since the last (status 71, status guide PDF p.137) is
 * skipped: nothing to close.
 */
export interface ReportDeps {
  link: CustomLink;
  state: FiscalState;
  board: StatusBoard;
  options: CustomRtOptions;
  clock: Clock;
  log: Logger;
  serial(): string | undefined;
}

export type ClosureReason = ClosureInFlight['reason'];

const reportXml = (name: string, id: string) =>
  request('printerFiscalReport', [element(name, { description: '', IdCmd: id })]);

function serialWords(d: ReportDeps) {
  return d.serial() ?? m.unknownSerial();
}

/** Prints the X report; rejects with the printer's refusal in words. */
export async function printXReport(d: ReportDeps): Promise<JobResult> {
  const result = await d.link.sendReport(reportXml('printXReport', `X${idCmdBase(String(d.clock.now()))}E`));
  const response = result.kind === 'answer' ? parseResponse(result.body) : undefined;
  if (response?.success) {
    d.board.touched();
    return { notes: m.reportDone({ report: 'x', z: '', serial: serialWords(d) }), details: { report: 'x' } };
  }
  if (result.kind === 'not-sent' || !response) {
    throw new AgentError('DEVICE_UNAVAILABLE', 'X report: printer not reachable or no answer', {
      notes: m.notPrintedUnreachable({
        reason: result.kind === 'answer' ? `HTTP ${result.httpStatus}` : result.reason,
      }),
    });
  }
  throw refusal(response.status).error;
}

async function zCount(d: ReportDeps, signal?: AbortSignal): Promise<number | undefined> {
  const info = await d.link.getInfo(signal);
  const text = info?.success ? info.addInfo.zSetNumber?.trim() : undefined;
  if (info?.success) d.board.noteInfo(info);
  return text && /^\d+$/.test(text) ? Number(text) : undefined;
}

function record(
  d: ReportDeps,
  reason: ClosureReason,
  status: ClosureRecord['status'],
  extra: Partial<ClosureRecord>,
): ClosureRecord {
  return d.state.closureEnded({
    status,
    reason,
    at: d.clock.now(),
    detail: extra.detail ?? m.closureUnknown(),
    ...extra,
  });
}

/** Runs the daily closure; never throws (the outcome is the record). */
export const closeDay: CloseDay<ReportDeps> = async (d, reason, signal, date) => {
  const zBefore = await zCount(d, signal);
  const inFlight = await d.state.closureStarting(reason, d.clock.now(), zBefore, date);
  const id = `Z${idCmdBase(`${zBefore ?? 'z'}-${inFlight.startedAt}`)}E`;
  const result = await d.link.sendReport(reportXml(d.options.dailyClosure.command, id), signal);
  const response = result.kind === 'answer' ? parseResponse(result.body) : undefined;
  if (result.kind === 'not-sent') {
    d.state.setClosureInFlight(null);
    return record(d, reason, 'failed', { detail: m.notPrintedUnreachable({ reason: result.reason }) });
  }
  if (response && !response.success) {
    d.state.setClosureInFlight(null);
    if (response.status === 71) return record(d, reason, 'skipped', { detail: m.zNotNeeded() });
    return record(d, reason, 'failed', { detail: refusal(response.status).error.notes });
  }
  return (await settleClosure(d, signal)) ?? record(d, reason, 'unknown', {});
};

/** Settles a closure in flight from the Z count; undefined when none was in flight. */
export async function settleClosure(d: ReportDeps, signal?: AbortSignal): Promise<ClosureRecord | undefined> {
  const inFlight = d.state.closureInFlight();
  if (inFlight === undefined) return undefined;
  const reason = inFlight === 'unreadable' ? 'schedule' : inFlight.reason;
  const after = await zCount(d, signal);
  if (after === undefined) return record(d, reason, 'unknown', { detail: m.closureUnknown() });
  d.state.setClosureInFlight(null);
  if (inFlight === 'unreadable' || inFlight.zBefore === undefined)
    return record(d, reason, 'unknown', { detail: m.closureUnknown() });
  if (after > inFlight.zBefore) {
    return record(d, reason, 'done', {
      z: after,
      verified: true,
      detail: m.reportDone({ report: 'z', z: String(after).padStart(4, '0'), serial: serialWords(d) }),
    });
  }
  return record(d, reason, 'failed', { detail: m.notPrintedSilent() });
}

/** A staff Z report as a job result (the kit's `closureJobResult`); `close` runs the Z (with what follows a confirmed one). */
export async function zReportResult(
  d: ReportDeps,
  signal?: AbortSignal,
  close: CloseDay<ReportDeps> = closeDay,
): Promise<JobResult> {
  return closureJobResult(await close(d, 'staff', signal));
}
