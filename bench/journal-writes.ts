import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournal } from '../src/commands/journal/index.js';
import { oneReceipt } from './journal-receipt.js';

/**
 * The journal's write path alone, as the engine drives it for one receipt, on a real file with
 * the real group commit: journaled with its Received update (flush before the platform hears),
 * delivered, started (flush before the printer acts), a checkpoint (flush), the result (flush)
 * and its delivery, which closes the command (its document and guest data deleted). `--lanes`
 * receipts run at once, as that many printers would. Every `--truncate-ms` of wall time the WAL
 * is emptied as the engine's loop does (`Journal.truncateWal`, when the build has it).
 *
 *   npx tsx bench/journal-writes.ts [--receipts=3000] [--lanes=4] [--truncate-ms=1000] [--runs=3]
 *
 * Prints receipts per second, the CPU and the bytes written per receipt (every thread of the
 * process, the syncs included) and the files' sizes at the end; run it on two builds to compare
 * (issue 27 measured `secure_delete` and the truncating checkpoints this way, in RESULTS.md).
 */

const arg = (name: string, fallback: number): number => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const RECEIPTS = arg('receipts', 3000);
const LANES = arg('lanes', 4);
const TRUNCATE_MS = arg('truncate-ms', 1000);
const RUNS = arg('runs', 3);

/** Bytes this process has written to storage so far (`/proc/self/io`), 0 where the kernel does not say. */
function bytesWritten(): number {
  try {
    return Number(/write_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

async function run(index: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'journal-bench-'));
  const path = join(dir, 'journal.db');
  const journal = openJournal(path);
  const truncate = (journal as Partial<{ truncateWal(): boolean }>).truncateWal?.bind(journal);
  let truncations = 0;
  const timer = truncate
    ? setInterval(() => {
        if (truncate()) truncations++;
      }, TRUNCATE_MS)
    : undefined;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const written0 = bytesWritten();
  let next = 0;
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      for (let i = next++; i < RECEIPTS; i = next++) await oneReceipt(journal, `r${index}-${i}`, Date.now());
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const written = bytesWritten() - written0;
  if (timer) clearInterval(timer);
  const size = (file: string) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  const perSecond = RECEIPTS / seconds;
  console.log(
    `run ${index + 1}: ${RECEIPTS} receipts, ${LANES} lanes: ${seconds.toFixed(2)} s, ${perSecond.toFixed(0)} receipts/s;` +
      ` CPU ${((cpu.user + cpu.system) / 1000 / RECEIPTS).toFixed(2)} ms a receipt (system ${(cpu.system / 1000 / RECEIPTS).toFixed(2)}),` +
      ` ${(written / 1024 / RECEIPTS).toFixed(0)} kB written a receipt;` +
      ` file ${mb(size(path))} MB, WAL ${mb(size(`${path}-wal`))} MB;` +
      (truncate
        ? ` ${truncations} truncating checkpoints`
        : ' no truncating checkpoint (this build has none)'),
  );
  journal.close();
  rmSync(dir, { recursive: true, force: true });
  return perSecond;
}

const rates: number[] = [];
for (let i = 0; i < RUNS; i++) rates.push(await run(i));
rates.sort((a, b) => a - b);
console.log(`median ${rates[Math.floor(rates.length / 2)]?.toFixed(0)} receipts/s over ${RUNS} runs`);
