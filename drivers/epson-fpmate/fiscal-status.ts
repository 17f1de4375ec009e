import { factTime } from '../../src/drivers-api/facts.js';
import type { Message, MessageArg } from '../../src/messages/message.js';
import { nextOccurrence } from '../fiscal-it/rt/closure-time.js';
import type { ClosureRecord, FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import type { DailyClosureOptions } from './config.js';
import { fiscalNotes } from './messages.js';
import { epsonClosure as c } from './messages-results.js';
import { epsonFactWords as f } from './messages-status.js';
import type { PrinterFacts, RtState } from './status.js';

/**
 * The fiscal part of the printer's status: the RT state, the fiscal memory, the files waiting
 * for the tax agency and for how long, the fiscal day and the daily closure — each a fact on the
 * page (numbers, booleans and ISO dates also become `/metrics` gauges through the generic device
 * facts) and, when staff must act, a sentence in `warnings`.
 *
 * `rtMainStatus` 02 is "in service"; 01 with `rtSubStatus` 02 … 08 are the steps before it
 * (721377/procassa `lib/epsonxml.js` `EpsonDecodeStatoRT`). `mfStatus` 02 is "in service", 01
 * "not in service" (fiskaltrust `scu-it` `EpsonRTPrinter/Helpers.cs` `ParseStatus`).
 */

const RT_STEPS: Record<string, () => Message> = {
  '02': f.rtCertificatesMissing,
  '03': f.rtCertificatesIncomplete,
  '04': f.rtCertificatesIncomplete,
  '05': f.rtCertificatesLoaded,
  '06': f.rtRegistered,
  '07': f.rtActivated,
  '08': f.rtPreService,
};

export function rtStateWords(main: string | undefined, sub: string | undefined): Message | undefined {
  if (main === undefined) return undefined;
  if (main === '02') return f.rtInService();
  if (main === '01') return RT_STEPS[sub ?? '']?.() ?? f.rtNotInService({ sub: sub ?? '?' });
  return f.rtUnknown({ main, sub: sub ?? '?' });
}

const CLOSURE_STATUS: Record<ClosureRecord['status'], () => Message> = {
  done: c.done,
  skipped: c.skipped,
  failed: c.failed,
  unknown: c.unknown,
  missed: c.missed,
  'not-run': c.notRun,
};

const CLOSURE_REASON: Record<ClosureRecord['reason'], () => Message> = {
  schedule: c.bySchedule,
  staff: c.byStaff,
  'day-too-long': c.dayTooLong,
};

/** How a closure ended, in words: "done", "skipped" … / "eseguita", "non necessaria" … */
export function closureStatusWords(status: ClosureRecord['status']): Message {
  return CLOSURE_STATUS[status]();
}

/** The last closure as the page's fact: "done at 27 Nov, 03:30:00, Z 12 (scheduled: verified)". */
export function lastClosureWords(last: ClosureRecord): Message {
  const words = {
    status: closureStatusWords(last.status),
    at: { at: last.at },
    reason: CLOSURE_REASON[last.reason](),
    detail: last.detail,
  };
  return last.z === undefined ? c.last(words) : c.lastZ({ ...words, z: last.z });
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function hours(ms: number): number {
  return Math.round((ms / HOUR) * 10) / 10;
}

export interface FiscalStatusInput {
  rt: RtState;
  state: FiscalState;
  closure: DailyClosureOptions;
  timeZone: string;
  now: number;
}

/** Facts and warnings of the fiscal day, the closure, the RT state and the transmissions. */
export function fiscalStatus(input: FiscalStatusInput): { facts: PrinterFacts; warnings: Message[] } {
  const { rt, state, closure, timeZone, now } = input;
  const facts: PrinterFacts = {};
  const warnings: Message[] = [];

  const rtWords = rtStateWords(rt.mainStatus, rt.subStatus);
  facts.rtState = rtWords ?? null;
  facts.rtMainStatus = rt.mainStatus !== undefined ? Number(rt.mainStatus) : null;
  facts.rtSubStatus = rt.subStatus !== undefined ? Number(rt.subStatus) : null;
  if (rtWords && rt.mainStatus !== '02') warnings.push(fiscalNotes.rtNotInService(rtWords));
  facts.fiscalMemory =
    rt.fiscalMemory === undefined
      ? null
      : rt.fiscalMemory === '02'
        ? f.memoryInService()
        : rt.fiscalMemory === '01'
          ? f.memoryNotInService()
          : f.memoryUnknown({ code: rt.fiscalMemory });
  if (rt.fiscalMemory === '01') warnings.push(fiscalNotes.fiscalMemoryNotInService());

  const waitingSince = state.filesWaitingSince();
  facts.filesToSendSince = waitingSince !== undefined ? factTime(waitingSince) : null;
  facts.filesToSendAgeHours = waitingSince !== undefined ? hours(now - waitingSince) : null;
  const waiting = (rt.filesToSend ?? 0) + (rt.oldFilesToSend ?? 0);
  if (waitingSince !== undefined && waiting > 0 && now - waitingSince >= DAY && !rt.oldFilesToSend) {
    warnings.push(fiscalNotes.filesWaiting(waiting, Math.floor((now - waitingSince) / HOUR)));
  }
  if (rt.waitingForClosure) warnings.push(fiscalNotes.waitingForClosure());
  facts.waitingForClosure = rt.waitingForClosure ?? null;

  const day = state.fiscalDay();
  const open = rt.dailyOpen ?? (day ? true : undefined);
  facts.fiscalDayOpenSince = open && day ? factTime(day.openSince) : null;
  facts.fiscalDayOpenHours = open && day ? hours(now - day.openSince) : null;
  facts.fiscalDayOpenTooLong = open && day ? now - day.openSince >= closure.warnAfterHours * HOUR : false;
  if (open && day && now - day.openSince >= closure.warnAfterHours * HOUR) {
    warnings.push(
      fiscalNotes.dayOpenLong(
        Math.floor((now - day.openSince) / HOUR),
        closure.enabled ? closure.at : undefined,
      ),
    );
  } else if (open && !day) {
    warnings.push(fiscalNotes.dayOpenUnknownAge());
  }

  // The configured wall time and zone as the configuration says them ("03:30 Europe/Rome").
  facts.dailyClosureAt = closure.enabled ? `${closure.at} ${timeZone}` : f.closureOff();
  facts.nextClosure = closure.enabled ? factTime(nextOccurrence(now, closure.at, timeZone).at) : null;
  const last = state.lastClosure();
  facts.lastClosure = last ? lastClosureWords(last) : null;
  facts.lastClosureStatus = last ? closureStatusWords(last.status) : null;
  facts.lastClosureZ = last?.z ?? null;
  facts.lastClosureAt = last ? factTime(last.at) : null;
  if (state.closureInFlight() !== undefined) warnings.push(fiscalNotes.closureUnknown());
  const scheduled = state.scheduled();
  if (scheduled && open !== false) {
    if (scheduled.status === 'failed')
      warnings.push(fiscalNotes.closureFailed(localDateWords(scheduled.date), scheduled.detail));
    if (scheduled.status === 'missed')
      warnings.push(fiscalNotes.closureMissed(localDateWords(scheduled.date)));
  }
  const action = state.lastAction();
  facts.lastAction = action
    ? fiscalNotes.lastActionFact(action.action, { at: action.at }, action.notes)
    : null;
  if (action && !action.ok && now - action.at < DAY) warnings.push(action.notes);
  return { facts, warnings };
}

/** A local calendar date ("2026-11-27") in a sentence: shown as a date in every zone. */
function localDateWords(date: string): MessageArg {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { at: Date.UTC(y, m - 1, d, 12), show: 'date' };
}
