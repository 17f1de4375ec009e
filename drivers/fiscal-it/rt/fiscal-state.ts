import { z } from 'zod';
import type { DeviceStore } from '../../../src/drivers-api/types.js';
import { isMessage, type Message, readMessage } from '../../../src/messages/message.js';
import { type HistoryEntry, HistoryRing } from './history-ring.js';

/**
 * What the driver keeps about the fiscal day in its device store (the journal), so that a
 * restart — even a kill in the middle of a Z report — neither forgets nor repeats anything:
 *
 * - `closureInFlight`: a Z report was sent and its outcome is not settled yet (written before the
 *   request leaves; settled from the printer's state before anything else is done);
 * - `scheduledClosure`: the last scheduled closure's local date and how it ended;
 * - `lastClosure`: the last Z report of any origin (schedule, staff, a day open too long);
 * - `fiscalDay`: since when the agent knows the fiscal day to be open;
 * - `filesWaitingSince`: since when the printer has had files waiting for the tax agency;
 * - `history.N` / `historyNext`: the last fiscal documents printed, for voids by number
 *   (`history-ring.ts`);
 * - `pendingAction` / `lastAction`: a staff action's document in flight and the last outcome.
 *
 * Every read is schema-checked: a value this version cannot read counts as absent, except an
 * unreadable in-flight record, which counts as "unknown" (never as "not sent").
 */

export const ClosureInFlightSchema = z.object({
  reason: z.enum(['schedule', 'staff', 'day-too-long']),
  /** The Z number the closure closes (the open day's), when it could be read. */
  zBefore: z.number().int().optional(),
  startedAt: z.number(),
  /** The scheduled date it belongs to, for a scheduled closure. */
  date: z.string().optional(),
});
export type ClosureInFlight = z.infer<typeof ClosureInFlightSchema>;

/**
 * Words kept in the store: a catalogue message; a plain sentence an older build stored reads as
 * that text (in every language).
 */
const storedWords = z
  .custom<Message | string>((v) => typeof v === 'string' || isMessage(v))
  .transform(readMessage);

/** How a closure ended, for one run (`ClosureRecord`) and for a scheduled day (`ScheduledClosure`) alike. */
export const ClosureStatusSchema = z.enum(['done', 'skipped', 'failed', 'unknown', 'missed', 'not-run']);

export const ClosureRecordSchema = z.object({
  status: ClosureStatusSchema,
  reason: z.enum(['schedule', 'staff', 'day-too-long']),
  at: z.number(),
  z: z.number().int().optional(),
  /** Confirmed by a second read of the printer's state (or recovered from it). */
  verified: z.boolean().optional(),
  recovered: z.boolean().optional(),
  detail: storedWords,
});
export type ClosureRecord = z.infer<typeof ClosureRecordSchema>;

/**
 * A family's Z report (its `reports.ts`): for `reason` (and the scheduled `date`), with the
 * closure written down in flight before it leaves. Never rejects: the outcome is the record.
 */
export type CloseDay<D> = (
  d: D,
  reason: ClosureInFlight['reason'],
  signal?: AbortSignal,
  date?: string,
) => Promise<ClosureRecord>;

export const ScheduledClosureSchema = z.object({
  date: z.string(),
  status: ClosureStatusSchema,
  attempts: z.number().int(),
  lastAttemptAt: z.number().optional(),
  detail: storedWords,
});
export type ScheduledClosure = z.infer<typeof ScheduledClosureSchema>;

export const FiscalDaySchema = z.object({
  /** Earliest instant the agent knows the day was open. */
  openSince: z.number(),
  /** True when it saw the day's first document (else the day opened at or before `openSince`). */
  exact: z.boolean(),
});
export type FiscalDay = z.infer<typeof FiscalDaySchema>;

export const LastActionSchema = z.object({
  action: z.string(),
  at: z.number(),
  ok: z.boolean(),
  notes: storedWords,
});
export type LastAction = z.infer<typeof LastActionSchema>;

function read<T>(store: DeviceStore, key: string, schema: z.ZodType<T>): T | undefined {
  const parsed = schema.safeParse(store.get(key));
  return parsed.success ? parsed.data : undefined;
}

export class FiscalState {
  private readonly history: HistoryRing;

  constructor(private readonly store: DeviceStore) {
    this.history = new HistoryRing(store);
  }

  /** The Z report in flight: `undefined` when none, `'unreadable'` when one exists but cannot be read. */
  closureInFlight(): ClosureInFlight | 'unreadable' | undefined {
    const raw = this.store.get('closureInFlight');
    if (raw === undefined || raw === null) return undefined;
    const parsed = ClosureInFlightSchema.safeParse(raw);
    return parsed.success ? parsed.data : 'unreadable';
  }

  setClosureInFlight(value: ClosureInFlight | null): void {
    this.store.set('closureInFlight', value);
  }

  /**
   * A Z report about to be sent, written as in flight and on disk before it leaves: a kill or a
   * lost answer then leaves a closure to settle from the printer, never one to send again.
   */
  async closureStarting(
    reason: ClosureInFlight['reason'],
    startedAt: number,
    zBefore: number | undefined,
    date: string | undefined,
  ): Promise<ClosureInFlight> {
    const inFlight: ClosureInFlight = { reason, startedAt };
    if (zBefore !== undefined) inFlight.zBefore = zBefore;
    if (date) inFlight.date = date;
    this.setClosureInFlight(inFlight);
    await this.flush();
    return inFlight;
  }

  /** Resolves when what was set is on disk: await it before the printer acts on it. */
  flush(): Promise<void> {
    return this.store.flush();
  }

  lastClosure(): ClosureRecord | undefined {
    return read(this.store, 'lastClosure', ClosureRecordSchema);
  }

  setLastClosure(record: ClosureRecord): void {
    this.store.set('lastClosure', record);
  }

  /** A closure's outcome, kept as the last closure; a closure done or not needed ends the fiscal day. */
  closureEnded(record: ClosureRecord): ClosureRecord {
    this.setLastClosure(record);
    if (record.status === 'done' || record.status === 'skipped') this.dayClosed();
    return record;
  }

  scheduled(): ScheduledClosure | undefined {
    return read(this.store, 'scheduledClosure', ScheduledClosureSchema);
  }

  setScheduled(value: ScheduledClosure): void {
    this.store.set('scheduledClosure', value);
  }

  fiscalDay(): FiscalDay | undefined {
    return read(this.store, 'fiscalDay', FiscalDaySchema);
  }

  /**
   * The day is open at `at`: `exact` when `at` is the day's first document. Keeps the earliest
   * time known; an exact opening replaces an estimate.
   */
  dayOpen(at: number, exact: boolean): void {
    const known = this.fiscalDay();
    if (known?.exact) return;
    if (exact || !known || at < known.openSince) this.store.set('fiscalDay', { openSince: at, exact });
  }

  dayClosed(): void {
    if (this.store.get('fiscalDay') !== null) this.store.set('fiscalDay', null);
  }

  filesWaitingSince(): number | undefined {
    const value = this.store.get('filesWaitingSince');
    return typeof value === 'number' ? value : undefined;
  }

  /** Files are waiting (`count` > 0) or not: keeps since when they have been. */
  filesWaiting(count: number, now: number): void {
    const since = this.filesWaitingSince();
    if (count > 0 && since === undefined) this.store.set('filesWaitingSince', now);
    if (count === 0 && since !== undefined) this.store.set('filesWaitingSince', null);
  }

  /** Keeps a printed document for voids and copies by number (`history-ring.ts`). */
  remember(entry: HistoryEntry): void {
    this.history.remember(entry);
  }

  find(z: number, doc: number): HistoryEntry | undefined {
    return this.history.find(z, doc);
  }

  /** A staff action's document in flight: its name and the send checkpoint (recovery.ts). */
  pendingAction(): { action: string; checkpoint: unknown } | undefined {
    const value = this.store.get('pendingAction') as
      | { action?: unknown; checkpoint?: unknown }
      | null
      | undefined;
    if (!value || typeof value !== 'object') return undefined;
    return {
      action: typeof value.action === 'string' ? value.action : 'action',
      checkpoint: value.checkpoint,
    };
  }

  setPendingAction(value: { action: string; checkpoint: unknown } | null): void {
    this.store.set('pendingAction', value);
  }

  lastAction(): LastAction | undefined {
    return read(this.store, 'lastAction', LastActionSchema);
  }

  setLastAction(value: LastAction): void {
    this.store.set('lastAction', value);
  }
}
