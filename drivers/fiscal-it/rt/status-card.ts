import { factTime } from '../../../src/drivers-api/facts.js';
import type { FactValue } from '../../../src/drivers-api/types.js';
import type { Message } from '../../../src/messages/message.js';
import { nextOccurrence } from './closure-time.js';
import type { DailyClosureOptions } from './daily-closure.js';
import type { FiscalState } from './fiscal-state.js';
import { rtCardWords } from './messages.js';

/**
 * One status card for every RT family (issue 42 item 7): the facts a receptionist acts on lead,
 * in this order — the printer's state (paper, cover), whether the fiscal day is open and since
 * when, the next and the last closure, the last receipt, the last staff action — and the page
 * folds every other fact (status codes, certificates, counters, the hours the day has been open)
 * under "Technical details" (`DeviceStatus.staffFacts`). A family lists only the facts it has.
 */
export const RT_STAFF_FACTS = [
  'paper',
  'cover',
  'fiscalDayOpen',
  'fiscalDayOpenSince',
  'nextClosure',
  'lastClosure',
  'lastReceipt',
  'lastAction',
] as const;

/** The staff facts `facts` holds, in the card's order. */
export function staffFactsOf(facts: Readonly<Record<string, unknown>>): string[] {
  return RT_STAFF_FACTS.filter((key) => facts[key] !== undefined);
}

/**
 * The card's facts about the fiscal day from what the kit keeps (`fiscal-state.ts`): whether the
 * day is open, since when and for how many hours (a warning past `warnAfterHours`), the closure's
 * schedule, the last closure (a warning when it failed) and the last staff action. For a family
 * whose printer does not report the day itself; the family adds what its printer says.
 */
export function fiscalDayCard(
  fiscal: { state: FiscalState; closure: DailyClosureOptions; timeZone: string },
  now: number,
): { facts: Record<string, FactValue>; warnings: Message[] } {
  const { state, closure } = fiscal;
  const facts: Record<string, FactValue> = {};
  const warnings: Message[] = [];
  const day = state.fiscalDay();
  facts.fiscalDayOpen = day !== undefined;
  if (day) {
    const hours = Math.floor((now - day.openSince) / 3_600_000);
    facts.fiscalDayOpenSince = factTime(day.openSince);
    facts.fiscalDayOpenHours = hours;
    if (hours >= closure.warnAfterHours) warnings.push(rtCardWords.dayOpenLong({ hours }));
  }
  if (closure.enabled) {
    facts.dailyClosureAt = closure.at;
    facts.nextClosure = factTime(nextOccurrence(now, closure.at, fiscal.timeZone).at);
  }
  const closed = state.lastClosure();
  if (closed) {
    facts.lastClosure = factTime(closed.at);
    facts.lastClosureStatus = closed.status;
    if (closed.z !== undefined) facts.lastClosureZ = closed.z;
    if (closed.status === 'failed') warnings.push(rtCardWords.closureFailed({ detail: closed.detail }));
  }
  const action = state.lastAction();
  if (action) facts.lastAction = action.notes;
  return { facts, warnings };
}
