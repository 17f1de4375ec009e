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
