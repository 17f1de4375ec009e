import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Journal, openJournal } from '../src/commands/journal/index.js';
import type { MachineState } from '../src/commands/rules/index.js';
import { normalizeFiscalMachineCommand } from '../src/connector/model.js';
import { textMessage } from '../src/messages/message.js';

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
 * Prints receipts per second and the files' sizes at the end; run it on two builds to compare
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

const m = (phase: MachineState['phase'], state: MachineState['state'], attempt = 0): MachineState => ({
  phase,
  state,
  attempt,
});

/** A payload receipt as the platform sends it: a guest, a tax code, 2 KB of Base64. */
function receipt(id: string) {
  const payload = Buffer.from(
    `<printerFiscalReceipt>${'<printRecItem description="Camera doppia" />'.repeat(30)}</printerFiscalReceipt>`,
  ).toString('base64');
  const item = normalizeFiscalMachineCommand({
    Id: id,
    State: 'Pending',
    CreatedUtc: '2026-01-01T00:00:00Z',
    FiscalMachineId: 'FM-001',
    TaxIdentifier: 'RSSMRA80A01H501U',
    Creator: { FirstName: 'Anna', LastName: 'Bianchi' },
    Device: { Id: 'dev-fiscal-1', Type: 'FiscalMachine', Name: 'RT', Identifier: null },
    Bill: { Id: `bill-${id}`, Name: 'Ricevuta – Maria Rossi', Number: '1001', State: 'Closed' },
    CommandData: {
      Discriminator: 'ItalianFiscalMachinePayload',
      ItalianFiscalMachinePayload: { Payload: payload },
    },
  });
  if (!item.ok) throw new Error(`bench receipt does not normalise: ${JSON.stringify(item)}`);
  return item.command;
}

async function oneReceipt(journal: Journal, id: string, at: number): Promise<void> {
  const c = receipt(id);
  journal.transaction(() => {
    journal.insert(
      {
        id,
        deviceId: c.device.id,
        deviceName: c.device.name,
        deviceType: c.device.type,
        kind: c.data.kind,
        source: c.source,
        command: c,
        seenAt: at,
      },
      { machine: m('accepted', 'Received'), at, reported: ['Received'] },
    );
    journal.outbox.add({ commandId: id, state: 'Received' }, at);
  });
  await journal.flush();
  const [received] = journal.outbox.pendingFor(id);
  journal.transaction(() => {
    if (received) journal.outbox.remove(received.seq);
    journal.update(id, { machine: m('received', 'Received'), at });
  });
  journal.update(id, { machine: m('starting', 'Received'), at });
  journal.transaction(() => {
    journal.update(id, {
      machine: m('running', 'Processing', 1),
      at,
      startedAt: at,
      reported: ['Processing'],
    });
    journal.outbox.add({ commandId: id, state: 'Processing', progress: 0 }, at);
  });
  await journal.flush();
  journal.setCheckpoint(id, { driver: 'epson-fpmate', v: 1, state: { sending: true, z: 12, doc: 34 } });
  await journal.flush();
  const notes = textMessage('Receipt 0012-0034 on RT 99MEY123456, total 123.45 EUR');
  journal.transaction(() => {
    journal.update(id, {
      machine: m('finished', 'Processed', 1),
      at,
      reported: ['Processed'],
      outcome: 'Processed',
      finishedAt: at,
      result: { notes, details: { receiptNumber: '0012-0034' } },
      notes,
    });
    journal.outbox.add({ commandId: id, state: 'Processed', notes: 'Receipt 0012-0034' }, at);
  });
  await journal.flush();
  journal.transaction(() => {
    for (const item of journal.outbox.pendingFor(id)) journal.outbox.remove(item.seq);
    journal.update(id, { machine: m('closed', 'Processed', 1), at });
  });
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
  let next = 0;
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      for (let i = next++; i < RECEIPTS; i = next++) await oneReceipt(journal, `r${index}-${i}`, Date.now());
    }),
  );
  const seconds = (performance.now() - started) / 1000;
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
