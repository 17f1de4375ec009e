/**
 * Facts as drivers give them (`DeviceStatus.facts`, see `FactValue` in `types.ts`): a time is its
 * ISO 8601 form, which the page shows in the property's time zone and `/metrics` exports as Unix
 * seconds (`src/status/device-facts.ts`).
 */

/** An instant as a fact: `2026-11-27T02:30:00.000Z`. */
export function factTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** A calendar date as a fact: `2030-12-31` (of `date`'s UTC day). */
export function factDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
