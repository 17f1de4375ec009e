import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preparePayload } from '../drivers/epson-fpmate/payload.js';
import { responseXml } from '../drivers/epson-fpmate/simulator/xml.js';
import { parseFpmateResponse } from '../drivers/epson-fpmate/xml-response.js';
import { openJournal } from '../src/commands/journal/index.js';
import { normalizeFiscalMachineCommand } from '../src/connector/model.js';
import { fpmateReceiptXml } from '../src/platform-simulator/fpmate.js';
import { oneReceipt, rawReceipt, receipt } from './journal-receipt.js';
import { MinimalJournal } from './minimal-journal.js';

/**
 * What the work every receipt requires costs the CPU on this machine, each part measured alone
 * with the code our agent uses for it, so the drain's CPU per receipt (issue 26.3) can be read
 * against a floor as well as against a baseline that does less:
 *
 * - **journal**: the journal's writes and flushes from intake to close (`journal-receipt.ts`: the
 *   command row, the Received, Processing and Processed states with their outbox rows, the
 *   checkpoint before the printer acts, five flushes), the rate budget's slot for each of the three
 *   updates (issue 26.1) and one device-store value (the driver's last document);
 * - **platform HTTP**: three `commands/update` POSTs through a keep-alive `node:http` agent, each
 *   answer parsed (the agent's platform client is `node:http` with keep-alive);
 * - **printer HTTP**: one POST of the receipt's fpmate document on a new connection (the agent
 *   opens one per document, on purpose: `drivers/epson-fpmate/http.ts`), the answer parsed by the
 *   driver's `parseFpmateResponse`;
 * - **payload check**: the Epson driver's `preparePayload` (Base64, UTF-8, well-formed XML, only
 *   receipt elements) on the same document;
 * - **poll**: a `fiscalMachineCommands/getAll` page of 100 parsed from JSON once per 100 receipts,
 *   and each receipt's item normalised (`normalizeFiscalMachineCommand`).
 *
 * For reference, not in the sum: the same receipt's writes in a minimal journal written straight
 * on SQLite (`minimal-journal.ts`), what our journal's own code costs above it.
 *
 * Everything runs in this process, `--lanes` receipts at a time as four printers would; the HTTP
 * server answers from a child process, so the figures are the client's alone (`process.cpuUsage`:
 * every thread of this process, user + system, the journal's syncs, GC and the compiler
 * included). Each part is warmed up first. Not in the sum: the engine's own steps, logging, the
 * driver's planning and its answer's bookkeeping, metrics, and the status page's model.
 *
 *   npx tsx bench/required-work.ts [--receipts=1000] [--lanes=4]
 *
 * A benchmark, not a test: it prints figures and exits 0.
 */

const arg = (name: string, fallback: number): number => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const RECEIPTS = arg('receipts', 1000);
const LANES = arg('lanes', 4);
const WARM_UP = Math.min(200, RECEIPTS);

/** A receipt of two nights, breakfasts and the city tax, paid by card, as the platform simulator writes it. */
const DOCUMENT = fpmateReceiptXml(
  {
    header: ['Hotel Ricevute', 'Via Roma 1, Firenze'],
    lines: [
      { description: 'PERNOTTAMENTO CAMERA DOPPIA', quantity: 2, unitPriceCents: 12_000, department: 1 },
      { description: 'COLAZIONE', quantity: 2, unitPriceCents: 1_500, department: 2 },
      { description: 'TASSA DI SOGGIORNO', quantity: 4, unitPriceCents: 300, department: 3 },
    ],
    payments: [{ description: 'CARTA DI CREDITO', amountCents: 28_200, paymentType: 2, index: 1 }],
  },
  'soap',
);

/** A printed receipt's answer, shaped as the fpmate simulator (and a printer) shapes it. */
const PRINTER_ANSWER = responseXml(true, '', '2', [
  ['lastCommand', '74'],
  ['printerStatus', '20110'],
  ['fiscalReceiptNumber', '34'],
  ['fiscalReceiptAmount', '282,00'],
  ['fiscalReceiptDate', '28/11/2026'],
  ['fiscalReceiptTime', '13:45'],
  ['zRepNumber', '12'],
  ['serialNumber', '99MEY123456'],
]);

/** The server: `{}` to a platform update, the printer's answer to anything under `/cgi-bin`. */
async function startServer(): Promise<{ port: number; child: ChildProcess }> {
  const source = `
    const http = require('node:http');
    const answer = process.env.PRINTER_ANSWER;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const printer = req.url.startsWith('/cgi-bin');
        res.setHeader('content-type', printer ? 'text/xml; charset=utf-8' : 'application/json');
        res.end(printer ? answer : '{}');
      });
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));`;
  const child = spawn(process.execPath, ['-e', source], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PRINTER_ANSWER },
  });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  return { port: Number(chunk.toString().trim()), child };
}

/** One POST (a new connection unless `agent` keeps one); resolves with the answer's text. */
function post(port: number, path: string, type: string, body: string, agent?: http.Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent: agent ?? false,
        headers: { 'content-type': type, 'content-length': Buffer.byteLength(body) },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        answer.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** CPU ms per receipt of `one(i)` over `RECEIPTS`, `LANES` at a time, after `WARM_UP` of them. */
async function measure(one: (i: number) => Promise<void> | void): Promise<number> {
  const runAll = async (count: number, offset: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: LANES }, async () => {
        for (let i = next++; i < count; i = next++) await one(offset + i);
      }),
    );
  };
  await runAll(WARM_UP, RECEIPTS);
  const before = process.cpuUsage();
  await runAll(RECEIPTS, 0);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / RECEIPTS;
}

const ids = Array.from(
  { length: RECEIPTS + WARM_UP },
  (_, i) => `3fa85f64-5717-4562-b3fc-${String(i).padStart(12, '0')}`,
);
const tokens = { ClientToken: 'C'.repeat(48), AccessToken: 'A'.repeat(48), Client: 'bench 1.0' };
const payload = Buffer.from(DOCUMENT).toString('base64');
const { port, child } = await startServer();
const dir = mkdtempSync(join(tmpdir(), 'required-work-'));
try {
  const commands = ids.map((id) => receipt(id, DOCUMENT));
  const journal = openJournal(join(dir, 'journal.db'));
  const store = journal.deviceStore('dev-fiscal-1');
  const journalMs = await measure(async (i) => {
    const id = ids[i] as string;
    const slots = [0, 1, 2].map(() => journal.rateBudget.granted(Date.now(), 30_000));
    await oneReceipt(journal, id, Date.now(), commands[i]);
    for (const slot of slots) journal.rateBudget.settled(slot, Date.now());
    store.set('lastDocument', { z: 12, number: i, id });
  });
  journal.close();

  const minimal = new MinimalJournal(dir);
  const minimalMs = await measure((i) => minimal.receipt(ids[i] as string, payload));
  minimal.close();

  const keepAlive = new http.Agent({ keepAlive: true });
  const platformMs = await measure(async (i) => {
    for (const State of ['Received', 'Processing', 'Processed']) {
      const body = JSON.stringify({ ...tokens, CommandId: ids[i], State });
      JSON.parse(await post(port, '/api/connector/v1/commands/update', 'application/json', body, keepAlive));
    }
  });
  keepAlive.destroy();

  const printerMs = await measure(async () => {
    const answer = await post(port, '/cgi-bin/fpmate.cgi', 'text/xml; charset=utf-8', DOCUMENT);
    if (parseFpmateResponse(answer)?.success !== true) throw new Error('the printer answer did not parse');
  });

  const checkMs = await measure(() => {
    preparePayload(payload);
  });

  const page = JSON.stringify({
    FiscalMachineCommands: ids.slice(0, 100).map((id) => rawReceipt(id, DOCUMENT)),
  });
  let items: unknown[] = [];
  const pollMs = await measure((i) => {
    if (i % 100 === 0 || items.length === 0) {
      items = (JSON.parse(page) as { FiscalMachineCommands: unknown[] }).FiscalMachineCommands;
    }
    if (!normalizeFiscalMachineCommand(items[i % 100]).ok) throw new Error('the poll item did not normalise');
  });

  const parts: Array<[string, number]> = [
    ['journal (writes, 5 flushes, 3 rate slots, 1 device value)', journalMs],
    ['platform HTTP (3 updates, keep-alive)', platformMs],
    ['printer HTTP (1 document, new connection, answer parsed)', printerMs],
    ['payload check (Base64, UTF-8, XML, receipt elements)', checkMs],
    ['poll (a page of 100 parsed, one item normalised)', pollMs],
  ];
  for (const [part, ms] of parts) process.stdout.write(`${part.padEnd(60)} ${ms.toFixed(2)} ms\n`);
  const total = parts.reduce((sum, [, ms]) => sum + ms, 0);
  process.stdout.write(`${'the required work, per receipt'.padEnd(60)} ${total.toFixed(2)} ms of CPU\n`);
  process.stdout.write(
    `${'for reference: a minimal journal (minimal-journal.ts)'.padEnd(60)} ${minimalMs.toFixed(2)} ms, not in the sum\n`,
  );
} finally {
  child.kill();
  rmSync(dir, { recursive: true, force: true });
}
