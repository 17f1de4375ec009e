import type { DeviceStatus, DriverText } from '../../src/drivers-api/types.js';
import { localStamp, nextOccurrence } from './closure-time.js';
import type { DailyClosureOptions } from './config.js';
import type { FiscalState } from './fiscal-state.js';
import { fiscalNotes } from './messages.js';
import type { RtState } from './status.js';

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

const RT_STEPS: Record<string, string> = {
  '02': 'certificates missing',
  '03': 'certificates incomplete',
  '04': 'certificates incomplete',
  '05': 'certificates loaded',
  '06': 'registered (censito)',
  '07': 'activated',
  '08': 'pre-service',
};

export function rtStateWords(main: string | undefined, sub: string | undefined): string | undefined {
  if (main === undefined) return undefined;
  if (main === '02') return 'in service';
  if (main === '01') return RT_STEPS[sub ?? ''] ?? `not in service (${sub ?? '?'})`;
  return `unknown state (${main}/${sub ?? '?'})`;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

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
export function fiscalStatus(input: FiscalStatusInput): Pick<DeviceStatus, 'facts' | 'warnings'> {
  const { rt, state, closure, timeZone, now } = input;
  const facts: DeviceStatus['facts'] = {};
  const warnings: DriverText[] = [];

  const rtWords = rtStateWords(rt.mainStatus, rt.subStatus);
  facts.rtState = rtWords ?? null;
  facts.rtMainStatus = rt.mainStatus !== undefined ? Number(rt.mainStatus) : null;
  facts.rtSubStatus = rt.subStatus !== undefined ? Number(rt.subStatus) : null;
  if (rtWords && rt.mainStatus !== '02') warnings.push(fiscalNotes.rtNotInService(rtWords));
  facts.fiscalMemory =
    rt.fiscalMemory === undefined
      ? null
      : rt.fiscalMemory === '02'
        ? 'in service'
        : rt.fiscalMemory === '01'
          ? 'not in service'
          : `unknown (${rt.fiscalMemory})`;
  if (rt.fiscalMemory === '01') warnings.push(fiscalNotes.fiscalMemoryNotInService());

  const waitingSince = state.filesWaitingSince();
  facts.filesToSendSince = waitingSince !== undefined ? iso(waitingSince) : null;
  facts.filesToSendAgeHours = waitingSince !== undefined ? hours(now - waitingSince) : null;
  const waiting = (rt.filesToSend ?? 0) + (rt.oldFilesToSend ?? 0);
  if (waitingSince !== undefined && waiting > 0 && now - waitingSince >= DAY && !rt.oldFilesToSend) {
    warnings.push(fiscalNotes.filesWaiting(waiting, Math.floor((now - waitingSince) / HOUR)));
  }
  if (rt.waitingForClosure) warnings.push(fiscalNotes.waitingForClosure());
  facts.waitingForClosure = rt.waitingForClosure ?? null;

  const day = state.fiscalDay();
  const open = rt.dailyOpen ?? (day ? true : undefined);
  facts.fiscalDayOpenSince = open && day ? iso(day.openSince) : null;
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

  facts.dailyClosureAt = closure.enabled ? `${closure.at} ${timeZone}` : 'off';
  facts.nextClosure = closure.enabled ? iso(nextOccurrence(now, closure.at, timeZone).at) : null;
  const last = state.lastClosure();
  facts.lastClosure = last
    ? `${last.status} at ${localStamp(last.at, timeZone)}${last.z !== undefined ? `, Z ${last.z}` : ''} (${last.reason}: ${last.detail})`
    : null;
  facts.lastClosureStatus = last?.status ?? null;
  facts.lastClosureZ = last?.z ?? null;
  facts.lastClosureAt = last ? iso(last.at) : null;
  if (state.closureInFlight() !== undefined) warnings.push(fiscalNotes.closureUnknown());
  const scheduled = state.scheduled();
  if (scheduled && open !== false) {
    if (scheduled.status === 'failed')
      warnings.push(fiscalNotes.closureFailed(scheduled.date, scheduled.detail));
    if (scheduled.status === 'missed') warnings.push(fiscalNotes.closureMissed(scheduled.date));
  }
  const action = state.lastAction();
  facts.lastAction = action
    ? fiscalNotes.lastActionFact(action.action, localStamp(action.at, timeZone), action.notes)
    : null;
  if (action && !action.ok && now - action.at < DAY) warnings.push(action.notes);
  return { facts, warnings };
}
