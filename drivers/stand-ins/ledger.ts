import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DeviceStore } from '../../src/drivers-api/types.js';

/**
 * The memory of a simulated device: which commands it performed, with what result. It plays the
 * part of a real printer's counters or an encoder's card log, so it lives outside the agent's
 * journal when a `path` is given: an append-only JSON-lines file that an end-to-end test reads
 * to prove that nothing ran twice. Without a path it keeps its entries in the driver's
 * `DeviceStore`.
 *
 * Appending is synchronous, so a crash leaves either the whole line or nothing.
 *
 * In memory a file ledger keeps only its last `LEDGER_MEMORY` entries (and a count per action
 * over all of them), so a long-running simulated device does not grow by every action it ever
 * took: `entriesFor` serves reconciliation and resumption, which only ever ask about the job a
 * device ran last (one job at a time per device). The file keeps everything.
 */
export const LEDGER_MEMORY = 256;

export interface LedgerEntry {
  commandId: string;
  /** What the device did, e.g. "receipt" or "card". */
  action: string;
  /** Driver-specific facts (receipt number, card index …). */
  facts: Record<string, unknown>;
  at: number;
}

export interface Ledger {
  append(entry: LedgerEntry): void;
  entriesFor(commandId: string): LedgerEntry[];
  count(action: string): number;
}

export function openLedger(path: string | undefined, store: DeviceStore): Ledger {
  return path ? fileLedger(path) : storeLedger(store);
}

function fileLedger(path: string): Ledger {
  mkdirSync(dirname(path), { recursive: true });
  let recent: LedgerEntry[] = [];
  const counts = new Map<string, number>();
  const remember = (entry: LedgerEntry) => {
    recent.push(entry);
    counts.set(entry.action, (counts.get(entry.action) ?? 0) + 1);
    if (recent.length >= 2 * LEDGER_MEMORY) recent = recent.slice(-LEDGER_MEMORY);
  };
  if (existsSync(path)) {
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        remember(JSON.parse(line) as LedgerEntry);
      } catch {
        // A torn last line (crash mid-write) is not an entry.
      }
    }
  }
  return {
    append(entry) {
      appendFileSync(path, `${JSON.stringify(entry)}\n`);
      remember(entry);
    },
    entriesFor: (commandId) => recent.filter((e) => e.commandId === commandId),
    count: (action) => counts.get(action) ?? 0,
  };
}

function storeLedger(store: DeviceStore): Ledger {
  const load = (): LedgerEntry[] => {
    const value = store.get('ledger');
    return Array.isArray(value) ? (value as LedgerEntry[]) : [];
  };
  return {
    append(entry) {
      const entries = load();
      entries.push(entry);
      // Keep the store small: a simulated device remembers its last 2,000 actions.
      store.set('ledger', entries.slice(-2000));
    },
    entriesFor: (commandId) => load().filter((e) => e.commandId === commandId),
    count: (action) => load().filter((e) => e.action === action).length,
  };
}
