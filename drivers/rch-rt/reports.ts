import type { JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { closureJobResult } from '../fiscal-it/rt/actions.js';
import type { CloseDay, ClosureInFlight, ClosureRecord } from '../fiscal-it/rt/fiscal-state.js';
import { KEY, REPORT } from './commands.js';
import type { DocumentDeps } from './document.js';
import { refusalOf } from './errors.js';
import type { PrinterState } from './link.js';
import { rchResults as m } from './messages.js';
import { parseAnswer, type RchAnswer } from './service.js';

/**
 * The fiscal reports: the key, `=C10`, then `=C1` back to REG, in one request — `=C2` for the X
 * report, `=C3` for the daily closure (Z) (rch-driver-js `src/Driver.ts` `xReport`, `zReport`;
 * core `xReport()`/`zReport()` are both `=C10`). The Z report is written down (`closureInFlight`)
 * before it leaves and verified by the closures made (`<</?7`) before and after, so that a lost
 * answer or a kill never closes a day twice: a count that moved says done, one that did not
 * failed, one that cannot be read unknown. A Z the printer refuses while no document was issued
 * since the last one (`lastDocF` 0) is skipped: nothing to close.
 */
export type ReportDeps = DocumentDeps;

const serialWords = (d: ReportDeps) => d.serial() ?? m.unknownSerial();

async function state(d: ReportDeps, signal?: AbortSignal): Promise<PrinterState | undefined> {
  const read = await d.link.readState(signal);
  if (read.kind !== 'read') return undefined;
  d.board.noteState(read.evidence);
  return read.evidence;
}

/** Runs one report's request; the key goes back to REG whatever happened after it was taken. */
async function report(
  d: ReportDeps,
  key: string,
  signal?: AbortSignal,
): Promise<{ kind: 'not-sent'; reason: string } | { kind: 'answered'; answer: RchAnswer | undefined }> {
  const result = await d.link.sendReport([key, REPORT, KEY.REG], signal);
  if (result.kind === 'not-sent') return { kind: 'not-sent', reason: result.reason };
  const answer = result.kind === 'answer' && result.httpStatus === 200 ? parseAnswer(result.body) : undefined;
  if (!answer || (answer.lastCmd >= 1 && answer.lastCmd < 3)) await d.link.toRegister(signal);
  return { kind: 'answered', answer };
}

const unreachable = (reason: string) =>
  new AgentError('DEVICE_UNAVAILABLE', `Report: printer not reachable (${reason})`, {
    notes: m.notPrintedUnreachable({ reason }),
  });

/** Prints the X report; rejects with the printer's refusal in words. */
export async function printXReport(d: ReportDeps, signal?: AbortSignal): Promise<JobResult> {
  const sent = await report(d, KEY.X, signal);
  if (sent.kind === 'not-sent') throw unreachable(sent.reason);
  const answer = sent.answer;
  if (!answer) throw unreachable('no answer');
  if (answer.lastCmd >= 2 && answer.errorCode === 0) {
    d.board.noteFlags(answer);
    return { notes: m.reportDone({ report: 'x', z: '', serial: serialWords(d) }), details: { report: 'x' } };
  }
  throw refusalOf(answer);
}

function record(
  d: ReportDeps,
  reason: ClosureInFlight['reason'],
  status: ClosureRecord['status'],
  extra: Partial<ClosureRecord> = {},
): ClosureRecord {
  return d.state.closureEnded({ status, reason, at: d.clock.now(), detail: m.closureUnknown(), ...extra });
}

/** Runs the daily closure; never throws (the outcome is the record). */
export const closeDay: CloseDay<ReportDeps> = async (d, reason, signal, date) => {
  const before = await state(d, signal);
  await d.state.closureStarting(reason, d.clock.now(), before?.z, date);
  const sent = await report(d, KEY.Z, signal);
  if (sent.kind === 'not-sent') {
    d.state.setClosureInFlight(null);
    return record(d, reason, 'failed', { detail: m.notPrintedUnreachable({ reason: sent.reason }) });
  }
  const answer = sent.answer;
  if (answer && answer.errorCode !== 0 && answer.lastCmd < 2) {
    // `=C10` was not carried out: nothing closed.
    d.state.setClosureInFlight(null);
    if (before?.doc === 0) return record(d, reason, 'skipped', { detail: m.zNotNeeded() });
    return record(d, reason, 'failed', { detail: refusalOf(answer).notes });
  }
  return (await settleClosure(d, signal)) ?? record(d, reason, 'unknown');
};

/** Settles a closure in flight from the closures made; undefined when none was in flight. */
export async function settleClosure(d: ReportDeps, signal?: AbortSignal): Promise<ClosureRecord | undefined> {
  const inFlight = d.state.closureInFlight();
  if (inFlight === undefined) return undefined;
  const reason = inFlight === 'unreadable' ? 'schedule' : inFlight.reason;
  const after = (await state(d, signal))?.z;
  if (after === undefined) return record(d, reason, 'unknown');
  d.state.setClosureInFlight(null);
  if (inFlight === 'unreadable' || inFlight.zBefore === undefined) return record(d, reason, 'unknown');
  if (after > inFlight.zBefore) {
    const z = String(after).padStart(4, '0');
    return record(d, reason, 'done', {
      z: after,
      verified: true,
      detail: m.reportDone({ report: 'z', z, serial: serialWords(d) }),
    });
  }
  return record(d, reason, 'failed', { detail: m.closureNotDone() });
}

/** A staff Z report as a job result (the kit's `closureJobResult`). */
export async function zReportResult(d: ReportDeps, signal?: AbortSignal): Promise<JobResult> {
  return closureJobResult(await closeDay(d, 'staff', signal));
}
