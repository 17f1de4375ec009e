import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { HistoryEntrySchema, HistoryRing } from '../drivers/fiscal-it/rt/history-ring.js';
import { openJournal } from '../src/commands/journal/index.js';
import type { DeviceStore } from '../src/drivers-api/types.js';

/**
 * What remembering one printed document costs the RT drivers once a day has filled the history
 * (300 documents), on a real journal file: the ring (`history-ring.ts`) against the whole-array
 * store that builds before issue 26 used (read, schema-check, filter and rewrite up to 300
 * entries for every receipt), reproduced below as it was. Prints µs of CPU per receipt.
 *
 *   npx tsx bench/history-ring.ts [--receipts=2000]
 */

const RECEIPTS = Number(process.argv.find((a) => a.startsWith('--receipts='))?.split('=')[1] ?? 2000);
const FULL = 300;

type Entry = z.infer<typeof HistoryEntrySchema>;
const entry = (doc: number): Entry => ({
  z: 12,
  doc,
  dateTime: '2026-11-28 10:00',
  totalCents: 12_345,
  kind: 'sale',
});

/** The history as one store value, as builds before issue 26 kept it. */
function wholeArray(store: DeviceStore): (e: Entry) => void {
  return (e) => {
    const parsed = z.array(HistoryEntrySchema).safeParse(store.get('history'));
    const kept = (parsed.success ? parsed.data : []).filter((x) => x.z !== e.z || x.doc !== e.doc);
    kept.push(e);
    store.set('history', kept.slice(-FULL));
  };
}

function cpuMicrosPerReceipt(remember: (e: Entry) => void): number {
  for (let doc = 1; doc <= FULL; doc++) remember(entry(doc));
  const before = process.cpuUsage();
  for (let doc = FULL + 1; doc <= FULL + RECEIPTS; doc++) remember(entry(doc));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / RECEIPTS;
}

const dir = mkdtempSync(join(tmpdir(), 'history-ring-'));
try {
  const journal = openJournal(join(dir, 'journal.db'));
  const ring = new HistoryRing(journal.deviceStore('ring'));
  const rows = [
    ['whole array (before issue 26)', cpuMicrosPerReceipt(wholeArray(journal.deviceStore('array')))],
    ['ring (history-ring.ts)', cpuMicrosPerReceipt((e) => ring.remember(e))],
  ] as const;
  journal.close();
  for (const [name, micros] of rows) {
    process.stdout.write(`${name}: ${micros.toFixed(0)} µs of CPU per receipt, ${FULL} kept\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
