import { z } from 'zod';
import type { DeviceStore } from '../../../src/drivers-api/types.js';

export const HistoryEntrySchema = z.object({
  z: z.number().int(),
  doc: z.number().int(),
  /** "yyyy-MM-dd HH:mm" as the printer stamped it. */
  dateTime: z.string().optional(),
  totalCents: z.number().int().optional(),
  kind: z.enum(['sale', 'refund', 'void']),
  /**
   * The sale carried a lottery code (never the code itself: the journal keeps no guest data), so
   * that its refund or void may carry the consumer's code where the protocol has the field.
   */
  lottery: z.boolean().optional(),
  /**
   * What the document sold per department, for a family whose void must repeat the original's
   * lines (Custom: a document "must include at least one sales line", XML protocol manual rev
   * 2.00 p.16). Kept only by such a family.
   */
  lines: z
    .array(
      z.object({
        department: z.number().int(),
        cents: z.number().int(),
        rate: z.number().optional(),
        nature: z.string().optional(),
      }),
    )
    .max(64)
    .optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** How many printed documents the store keeps for voids and copies by number. */
export const HISTORY_LIMIT = 300;

const SlotSchema = HistoryEntrySchema.extend({ seq: z.number().int().nonnegative() });
const NEXT_KEY = 'historyNext';
/** Where builds before issue 26 kept the whole history, as one array. */
const LEGACY_KEY = 'history';

/** Every store key the history uses (a support tool or a test that forgets it clears these). */
export function historyKeys(): string[] {
  return [NEXT_KEY, LEGACY_KEY, ...Array.from({ length: HISTORY_LIMIT }, (_, i) => slotKey(i))];
}

function slotKey(slot: number): string {
  return `history.${slot}`;
}

/**
 * The last `HISTORY_LIMIT` documents a printer emitted, as a ring of small store values
 * (`history.0` … `history.299`, each with its sequence number, and `historyNext`): remembering a
 * document writes one slot and the counter, whatever the history's length. (Builds before issue 26
 * read, checked and wrote the whole array of up to 300 entries for every receipt: about 25 kB and a
 * schema check of 300 entries each time, most of a receipt's driver CPU once a day was busy.)
 * Finding one reads the slots, newest wins; it serves staff actions (void, copy by number), never a
 * receipt. The legacy array is moved into the ring the first time the history is used.
 */
export class HistoryRing {
  constructor(private readonly store: DeviceStore) {}

  remember(entry: HistoryEntry): void {
    this.migrate();
    this.write(entry);
  }

  private write(entry: HistoryEntry): void {
    const seq = this.next();
    this.store.set(slotKey(seq % HISTORY_LIMIT), { ...entry, seq });
    this.store.set(NEXT_KEY, seq + 1);
  }

  find(z: number, doc: number): HistoryEntry | undefined {
    this.migrate();
    let found: (HistoryEntry & { seq: number }) | undefined;
    for (let slot = 0; slot < HISTORY_LIMIT; slot++) {
      const parsed = SlotSchema.safeParse(this.store.get(slotKey(slot)));
      if (!parsed.success || parsed.data.z !== z || parsed.data.doc !== doc) continue;
      if (!found || parsed.data.seq > found.seq) found = parsed.data;
    }
    if (!found) return undefined;
    const { seq: _seq, ...entry } = found;
    return entry;
  }

  private next(): number {
    const value = this.store.get(NEXT_KEY);
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
  }

  private migrate(): void {
    const legacy = this.store.get(LEGACY_KEY);
    if (legacy === undefined) return;
    const parsed = z.array(HistoryEntrySchema).safeParse(legacy);
    // Written before the array is deleted: a crash in between repeats entries, which is harmless.
    if (parsed.success) for (const entry of parsed.data.slice(-HISTORY_LIMIT)) this.write(entry);
    this.store.set(LEGACY_KEY, undefined);
  }
}
